/**
 * Keeps the prices the prices feed polls in `price_samples`: one per token per `history.sample_every`,
 * for `history.keep`, so every run builds its own price history; and the prediction marks the markets
 * feed reads (what a contract of each side sells for), as `prediction:<market>:yes|no`, the names
 * fills give contracts. Samples older than `keep` are deleted at most once an hour.
 */
import { contractMint } from './executor/prediction/predictionFills.js';
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { Db } from '../store/db.js';
import { prunePriceSamples, recordPriceSamples } from '../store/priceSamples.js';
import { decimalTextOf, formatFixed, microToFixed } from '../money/decimal.js';
import type { MarketMap } from './feeds/markets.js';
import type { Poller } from './feeds/poller.js';
import type { PriceMap } from './feeds/prices.js';

const PRUNE_EVERY_MS = 3_600_000;

export function recordPriceHistory(options: {
  readonly feed: Poller<PriceMap>;
  readonly markets?: Poller<MarketMap> | undefined;
  readonly db: Db;
  readonly clock: Clock;
  readonly everyMs: number;
  readonly keepMs: number;
  readonly log?: Logger | undefined;
}): () => void {
  const { db, clock, everyMs, keepMs, log } = options;
  let prunedAt = -Infinity;
  const record = (prices: { mint: string; usd: string }[], at: number): void => {
    try {
      recordPriceSamples(db, prices, at, everyMs);
      if (clock.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = clock.now();
        prunePriceSamples(db, clock.now() - keepMs);
      }
    } catch (error) {
      // A history sample is not worth stopping for: the next poll tries again.
      log?.warn({ err: error }, `price history not recorded: ${errorMessage(error)}; the next poll tries again`);
    }
  };
  const offPrices = options.feed.events.on('updated', ({ value, at }) => {
    record(
      [...value.values()].flatMap((p) => {
        const usd = decimalTextOf(p.usdPrice);
        return usd === null ? [] : [{ mint: p.mint, usd }];
      }),
      at,
    );
  });
  const offMarks = options.markets?.events.on('updated', ({ value, at }) => {
    record(
      [...value.values()].flatMap((m) =>
        (['yes', 'no'] as const).flatMap((side) => {
          const micro = m.marks?.[side];
          return micro === null || micro === undefined || micro < 0n
            ? []
            : [{ mint: contractMint(m.marketId, side === 'yes'), usd: formatFixed(microToFixed(micro)) }];
        }),
      ),
      at,
    );
  });
  return () => {
    offPrices();
    offMarks?.();
  };
}
