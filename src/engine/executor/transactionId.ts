/**
 * Which transaction a signed row is, as the chain knows it. A transaction's id is its first
 * signature. When someone signs after us (Jupiter's gas wallet or an RFQ maker, at /execute), the
 * first slot is empty when we sign, so the row holds only our own signature, which no node can look
 * a transaction up by. The id is learned later: from /execute's answer, or from the chain, as the
 * one recent transaction of the wallet whose signatures include ours (the message is fixed once we
 * sign, so our signature in it is too). Until then, "not landed" cannot be read from a status.
 */
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { SignedRow } from './handler.js';

/** Our signer and signature when the row's transaction id is not known yet; null when it is. */
export function pendingTransactionId(row: Pick<SignedRow, 'signedTx' | 'signature'>): { readonly signer: string; readonly own: string } | null {
  const tx = VersionedTransaction.deserialize(row.signedTx);
  const first = tx.signatures[0];
  if (first !== undefined && first.some((b) => b !== 0)) return null;
  const slot = tx.signatures.findIndex((sig) => sig.some((b) => b !== 0) && bs58.encode(sig) === row.signature);
  if (slot < 0) return null;
  return { signer: (tx.message.staticAccountKeys[slot] as { toBase58(): string }).toBase58(), own: row.signature };
}

export interface TransactionFinder {
  /** The id of the landed transaction that carries `own`, looking back to `notBeforeMs`; null when none has landed. */
  find(signer: string, own: string, notBeforeMs: number): Promise<string | null>;
}

/** Transactions already read, by id: their signatures never change. */
const MAX_KNOWN = 5_000;
/** How far back one search pages through the wallet's history. */
const MAX_PAGES = 5;
const PAGE = 100;

export function createTransactionFinder(rpc: Pick<SolanaRpc, 'getSignaturesForAddress' | 'getTransaction'>): TransactionFinder {
  const known = new Map<string, readonly string[]>();
  return {
    async find(signer, own, notBeforeMs) {
      let before: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const entries = await rpc.getSignaturesForAddress(signer, { limit: PAGE, ...(before === undefined ? {} : { before }) });
        for (const entry of entries) {
          // A transaction cannot have landed before its intent existed (a minute of clock skew allowed).
          if (entry.blockTime !== null && entry.blockTime * 1000 < notBeforeMs - 60_000) return null;
          if (entry.signature === own) return own;
          let signatures = known.get(entry.signature);
          if (signatures === undefined) {
            signatures = (await rpc.getTransaction(entry.signature))?.signatures ?? [];
            if (known.size >= MAX_KNOWN) known.clear();
            known.set(entry.signature, signatures);
          }
          if (signatures.includes(own)) return entry.signature;
        }
        if (entries.length < PAGE) return null;
        before = entries[entries.length - 1]?.signature;
      }
      return null;
    },
  };
}
