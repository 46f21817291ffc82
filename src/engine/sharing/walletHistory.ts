/**
 * The `wallet-history` feed: the wallet's transactions as the chain lists them, read on `poll.orders`,
 * each new one judged once (foreignTransaction.ts). A Jupiter trade signed with the wallet's key that
 * the journal did not make is reported to `onForeign`.
 *
 * Only what lands after the daemon started is judged: the first poll notes the newest signature and
 * judges nothing (what came before is history, whoever made it). Each later poll reads the signatures
 * newer than the last one seen, newest first (`getSignaturesForAddress`, pages of 100, at most 5),
 * and judges them oldest first; one the journal holds needs no further call, any other is read
 * (`getTransaction`). A transaction the node cannot give yet is tried again at the next polls (3 in
 * all). Signatures not judged yet when a poll fails are kept for the next one, never judged twice.
 */
import type { Clock } from '../../clock.js';
import type { Logger } from '../../ops/log.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { Db } from '../../store/db.js';
import { journaledSignatures } from '../../store/journaledSignatures.js';
import { createPoller, type Poller } from '../feeds/poller.js';
import { foreignTrade, type ForeignTransaction, type TradeKind } from './foreignTransaction.js';

export const WALLET_HISTORY_FEED = 'wallet-history';

/** Signatures per `getSignaturesForAddress` page, and pages read per poll at most. */
const PAGE = 100;
const MAX_PAGES = 5;
/** Polls a transaction the node does not return yet is asked for. */
const MAX_TRIES = 3;

/** What one poll did. */
export interface WalletHistoryRead {
  /** The newest signature seen so far; null while the wallet has none. */
  readonly newest: string | null;
  /** Transactions judged by this poll. */
  readonly judged: number;
  /** Of them, foreign Jupiter trades. */
  readonly foreign: number;
}

export interface WalletHistoryOptions {
  readonly rpc: Pick<SolanaRpc, 'getSignaturesForAddress' | 'getTransaction'>;
  /** The daemon's database: which signatures the journal holds. */
  readonly db: Db;
  readonly clock: Clock;
  readonly wallet: string;
  /** The programs that make a transaction a Jupiter trade (foreignTransaction.ts's `jupiterPrograms`). */
  readonly programs: ReadonlyMap<string, TradeKind>;
  readonly intervalMs: number;
  readonly onForeign: (transaction: ForeignTransaction) => void;
  readonly log?: Logger | undefined;
}

export function createWalletHistoryFeed(options: WalletHistoryOptions): Poller<WalletHistoryRead> {
  const { rpc, db, wallet, log } = options;
  let primed = false;
  let newest: string | null = null;
  /** Signatures to judge, oldest first, with the polls that found no transaction for them yet. */
  const pending = new Map<string, number>();

  /** Signatures newer than `newest`, newest first; `complete` false when more were there than one poll reads. */
  async function newer(): Promise<{ signatures: string[]; complete: boolean }> {
    const signatures: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const entries = await rpc.getSignaturesForAddress(wallet, { limit: PAGE, ...(before === undefined ? {} : { before }) });
      const seen = newest === null ? -1 : entries.findIndex((e) => e.signature === newest);
      signatures.push(...(seen < 0 ? entries : entries.slice(0, seen)).map((e) => e.signature));
      if (seen >= 0 || entries.length < PAGE) return { signatures, complete: true };
      before = entries[entries.length - 1]?.signature;
    }
    return { signatures, complete: false };
  }

  async function poll(): Promise<WalletHistoryRead> {
    if (!primed) {
      const [last] = await rpc.getSignaturesForAddress(wallet, { limit: 1 });
      newest = last?.signature ?? null;
      primed = true;
      return { newest, judged: 0, foreign: 0 };
    }
    const { signatures, complete } = await newer();
    if (!complete) {
      log?.warn(
        { wallet, checked: signatures.length },
        `wallet ${wallet}: more than ${signatures.length} transactions touched it since the last look; only the newest ${signatures.length} are checked for trades this daemon did not make`,
      );
    }
    for (const signature of signatures.reverse()) if (!pending.has(signature)) pending.set(signature, 0);
    if (signatures.length > 0) newest = signatures[signatures.length - 1] as string;
    const ours = journaledSignatures(db, [...pending.keys()]);
    let judged = 0;
    let foreign = 0;
    for (const [signature, tries] of [...pending]) {
      if (ours.has(signature)) {
        pending.delete(signature);
        judged += 1;
        continue;
      }
      const tx = await rpc.getTransaction(signature);
      if (tx === null) {
        if (tries + 1 < MAX_TRIES) pending.set(signature, tries + 1);
        else {
          pending.delete(signature);
          log?.debug({ wallet, signature }, `transaction ${signature} of wallet ${wallet}: the node did not return it in ${MAX_TRIES} polls; not judged`);
        }
        continue;
      }
      pending.delete(signature);
      judged += 1;
      const trade = foreignTrade(signature, tx, wallet, options.programs, journaledSignatures(db, tx.signatures));
      if (trade !== null) {
        foreign += 1;
        options.onForeign(trade);
      }
    }
    return { newest, judged, foreign };
  }

  return createPoller({ name: WALLET_HISTORY_FEED, intervalMs: options.intervalMs, clock: options.clock, poll, log });
}
