/**
 * A durable record of what the wallet holds: each reading of the balances feed that differs from
 * the last recorded one becomes one `wallet.balances` action (every mint held, sorted by mint, zero
 * balances left out). The last recorded reading is read from the database on the first reading of a
 * run, so a restart over an unchanged wallet writes nothing; polls that change nothing write nothing.
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { lastWalletReading, WALLET_BALANCES_KIND, type WalletBalance, walletBalancesData } from '../store/walletReadings.js';
import type { Balances } from './feeds/balances.js';
import type { Poller } from './feeds/poller.js';

/** The reading as it is recorded: mints held, by mint in code-unit order (base58 is ASCII, so byte order too). */
export function heldBalances(reading: Balances): WalletBalance[] {
  const out: WalletBalance[] = [];
  for (const [mint, amount] of reading.byMint) {
    if (amount <= 0n) continue;
    const decimals = reading.decimals.get(mint);
    if (decimals === undefined) throw new Error(`the balances read gave no decimals for ${mint}`);
    out.push({ mint, decimals, amount });
  }
  return out.sort((a, b) => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0));
}

function same(a: readonly WalletBalance[], b: readonly WalletBalance[]): boolean {
  return a.length === b.length && a.every((x, i) => x.mint === b[i]?.mint && x.amount === b[i]?.amount && x.decimals === b[i]?.decimals);
}

/** Starts recording; returns the unsubscribe. */
export function recordWalletBalances(options: {
  readonly feed: Poller<Balances>;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly log?: Logger | undefined;
}): () => void {
  const { db, audit, log } = options;
  /** The last reading recorded; undefined until the database has been asked. */
  let last: readonly WalletBalance[] | null | undefined;
  return options.feed.events.on('updated', ({ value }) => {
    try {
      if (last === undefined) last = lastWalletReading(db)?.balances ?? null;
      const now = heldBalances(value);
      if (last !== null && same(last, now)) return;
      audit.append({ kind: WALLET_BALANCES_KIND, data: walletBalancesData(now, value.readAt) });
      last = now;
    } catch (error) {
      // The record is for the audit, not for trading: the next reading tries again.
      log?.warn({ err: error }, `wallet balances not recorded: ${errorMessage(error)}; the next reading tries again`);
    }
  });
}
