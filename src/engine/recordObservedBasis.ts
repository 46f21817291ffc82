/**
 * The default cost basis of what the wallet held before jupbot traded it: the first dollar price
 * the daemon sees for each token of its first balances reading becomes one `basis.observed` action,
 * once per mint per database (audit/heldBefore.ts says which tokens count). Recorded as an action
 * because `price_samples` rows are deleted after `history.keep`, and the basis must outlive them.
 *
 * Looked at whenever the prices feed or the balances feed reads: whichever comes second (the first
 * price, or the first reading) supplies the other's value. Once every candidate has its basis, a look
 * costs one map lookup.
 */
import { heldBeforeJupbot } from '../audit/heldBefore.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import { BASIS_OBSERVED_KIND, observedBasisMints } from '../store/basisRecords.js';
import type { Db } from '../store/db.js';
import { decimalTextOf } from '../money/decimal.js';
import type { Balances } from './feeds/balances.js';
import type { Poller } from './feeds/poller.js';
import type { PriceMap } from './feeds/prices.js';

/** Starts watching; returns the unsubscribe. */
export function recordObservedBasis(options: {
  readonly prices: Poller<PriceMap>;
  readonly balances: Poller<Balances>;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly log?: Logger | undefined;
}): () => void {
  const { prices, db, audit, log } = options;
  /** Tokens held before jupbot still without a recorded basis; null until the first reading is recorded. */
  let waiting: Map<string, { decimals: number; units: bigint }> | null = null;

  const look = (): void => {
    try {
      if (waiting === null) {
        const held = heldBeforeJupbot(db);
        if (held === null) return;
        const observed = observedBasisMints(db, held.id);
        waiting = new Map(held.balances.filter((b) => !observed.has(b.mint)).map((b) => [b.mint, { decimals: b.decimals, units: b.amount }]));
      }
      if (waiting.size === 0) return;
      const { value, at } = prices.state();
      if (value === undefined || at === null) return;
      for (const [mint, held] of waiting) {
        const priceUsd = decimalTextOf(value.get(mint)?.usdPrice);
        if (priceUsd === null) continue;
        audit.append({
          kind: BASIS_OBSERVED_KIND,
          mint,
          amount: held.units,
          decimals: held.decimals,
          data: { mint, decimals: held.decimals, units: held.units.toString(), priceUsd, at },
        });
        waiting.delete(mint);
      }
    } catch (error) {
      // The basis is for the audit, not for trading: the next read tries again.
      log?.warn({ err: error }, `cost basis not recorded: ${errorMessage(error)}; the next price read tries again`);
    }
  };
  const offPrices = prices.events.on('updated', look);
  const offBalances = options.balances.events.on('updated', look);
  return () => {
    offPrices();
    offBalances();
  };
}
