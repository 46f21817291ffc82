/**
 * Whether a landed transaction of the wallet is a Jupiter trade someone else made with the wallet's
 * key. Pure: the transaction as `getTransaction` gives it, and which of its signatures the journal
 * holds.
 *
 * - Signed by the wallet: the wallet is one of the transaction's signers (the first
 *   `signatures.length` account keys are the signers, in order). A keeper's fill of a vault order, an
 *   incoming transfer or an airdrop touch the wallet without its signature: not a trade by its key.
 * - A Jupiter trade: it names Jupiter Aggregator v6, Jupiter's Order Engine (RFQ fills) or a
 *   prediction program among its accounts. A plain transfer or an account closed by hand is someone
 *   moving funds, not trading; a Trigger deposit is judged by its order (orderArrivals.ts).
 * - Not ours: none of its signatures is journaled. Every transaction the daemon signs has its own
 *   signature journaled before it is sent (and the chain's id once learned).
 */
import { JUPITER_AGGREGATOR_V6, JUPITER_ORDER_ENGINE } from '../../solana/programIds.js';
import type { LandedTransaction } from '../../solana/rpcHistory.js';

/** What kind of Jupiter trade a transaction is, by the program it names. */
export type TradeKind = 'swap' | 'prediction';

/** A Jupiter transaction the wallet signed and the journal did not make. */
export interface ForeignTransaction {
  /** The transaction's id (its first signature). */
  readonly signature: string;
  /** The wallet's own signature in it (the id itself unless someone signed before the wallet). */
  readonly walletSignature: string;
  /** Block time, UTC epoch ms; null when the node does not know it. */
  readonly at: number | null;
  readonly trade: TradeKind;
  /** The Jupiter programs it names. */
  readonly programs: readonly string[];
  /** It landed but failed (fees were paid): still someone trading with the key. */
  readonly failed: boolean;
}

/** The programs that make a transaction a Jupiter trade: the swap programs, and the configured prediction ones. */
export function jupiterPrograms(predictionPrograms: readonly string[]): ReadonlyMap<string, TradeKind> {
  const programs = new Map<string, TradeKind>([
    [JUPITER_AGGREGATOR_V6.toBase58(), 'swap'],
    [JUPITER_ORDER_ENGINE.toBase58(), 'swap'],
  ]);
  for (const id of predictionPrograms) programs.set(id, 'prediction');
  return programs;
}

/**
 * The transaction as a foreign Jupiter trade of `wallet`, or null: not signed by the wallet, not a
 * Jupiter trade, or ours (one of its signatures is in `journaled`).
 */
export function foreignTrade(
  id: string,
  tx: LandedTransaction,
  wallet: string,
  programs: ReadonlyMap<string, TradeKind>,
  journaled: ReadonlySet<string>,
): ForeignTransaction | null {
  const slot = tx.accountKeys.indexOf(wallet);
  if (slot < 0 || slot >= tx.signatures.length) return null;
  if (tx.signatures.some((signature) => journaled.has(signature)) || journaled.has(id)) return null;
  const named = [...new Set(tx.accountKeys.filter((key) => programs.has(key)))];
  if (named.length === 0) return null;
  return {
    signature: id,
    walletSignature: tx.signatures[slot] as string,
    at: tx.blockTime === null ? null : tx.blockTime * 1000,
    trade: named.some((key) => programs.get(key) === 'swap') ? 'swap' : 'prediction',
    programs: named,
    failed: tx.err !== null && tx.err !== undefined,
  };
}
