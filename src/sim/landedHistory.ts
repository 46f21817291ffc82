/**
 * What the simulated chain remembers of landed transactions, for `getSignaturesForAddress` and
 * `getTransaction`: each transaction's final wire bytes (every signature in place), its slot and
 * block time, and the balance changes it made, taken from the ledger entries landing wrote. The
 * index by account keeps the newest signatures per address, as a node's history would.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import type { LedgerEntry } from './ledger.js';

export interface LandedRecord {
  readonly signature: string;
  readonly slot: number;
  /** Unix seconds. */
  readonly blockTime: number;
  readonly tx: VersionedTransaction;
  readonly err: { code: number; message: string } | null;
  readonly fee: bigint;
  /** Per wallet and mint: the balance before and after this transaction (native SOL as the SOL mint). */
  readonly changes: ReadonlyMap<string, ReadonlyMap<string, { readonly pre: bigint; readonly post: bigint }>>;
}

/** Signatures kept per address, newest last. */
const PER_ADDRESS = 1_000;

export class LandedHistory {
  readonly #bySignature = new Map<string, LandedRecord>();
  readonly #byAddress = new Map<string, string[]>();

  /** Records a landed transaction; `entries` are the ledger entries its landing wrote, in order. */
  record(record: Omit<LandedRecord, 'changes'>, entries: readonly LedgerEntry[], addresses: readonly string[]): void {
    const changes = new Map<string, Map<string, { pre: bigint; post: bigint }>>();
    for (const e of entries) {
      let byMint = changes.get(e.wallet);
      if (!byMint) {
        byMint = new Map();
        changes.set(e.wallet, byMint);
      }
      const seen = byMint.get(e.mint);
      byMint.set(e.mint, { pre: seen?.pre ?? e.balance - e.delta, post: e.balance });
    }
    this.#bySignature.set(record.signature, { ...record, changes });
    for (const address of new Set([...addresses, ...changes.keys()])) {
      let list = this.#byAddress.get(address);
      if (!list) {
        list = [];
        this.#byAddress.set(address, list);
      }
      list.push(record.signature);
      if (list.length > PER_ADDRESS) list.shift();
    }
  }

  get(signature: string): LandedRecord | undefined {
    return this.#bySignature.get(signature);
  }

  /** Signatures that touched `address`, newest first, older than `before` when given. */
  forAddress(address: string, options: { before?: string | undefined; limit: number }): LandedRecord[] {
    const list = this.#byAddress.get(address) ?? [];
    let end = list.length;
    if (options.before !== undefined) {
      const at = list.lastIndexOf(options.before);
      end = at < 0 ? 0 : at;
    }
    const out: LandedRecord[] = [];
    for (let i = end - 1; i >= 0 && out.length < options.limit; i--) out.push(this.#bySignature.get(list[i] as string) as LandedRecord);
    return out;
  }
}
