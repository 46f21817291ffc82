/**
 * Says once, at warn, that a running strategy names a prediction market or event Jupiter does not
 * know (the markets feed's 404s). Its rules wait meanwhile — `market unknown` in `/status`, from
 * decide()'s holds — so a typo in an id is visible instead of a strategy that silently never acts.
 * Said again only if the id was known in between, or another strategy names it.
 */
import type { Logger } from '../ops/log.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import type { MarketMap } from './feeds/markets.js';
import type { Poller } from './feeds/poller.js';

export interface UnknownIdsOptions {
  readonly markets: Poller<MarketMap>;
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  readonly log: Logger;
}

/** Starts listening to the markets feed; returns the function that stops it. */
export function reportUnknownPredictionIds(options: UnknownIdsOptions): () => void {
  let reported = new Set<string>();
  return options.markets.events.on('updated', ({ value }) => {
    const now = new Set<string>();
    for (const strategy of options.strategies().values()) {
      if (strategy.spec.kind !== 'prediction-exit') continue;
      const { market, event } = strategy.spec.positions;
      const unknown =
        market !== undefined && value.unknownMarkets?.has(market)
          ? { field: 'positions.market', what: 'market', id: market, find: 'jupbot markets search' }
          : event !== undefined && value.unknownEvents?.has(event)
            ? { field: 'positions.event', what: 'event', id: event, find: 'jupbot events' }
            : undefined;
      if (unknown === undefined) continue;
      const key = `${strategy.name}\u0000${unknown.field}\u0000${unknown.id}`;
      now.add(key);
      if (reported.has(key)) continue;
      options.log.warn(
        { strategy: strategy.name, [unknown.what === 'market' ? 'marketId' : 'eventId']: unknown.id, file: strategy.file },
        `${strategy.name}: Jupiter has no ${unknown.what} "${unknown.id}" (${unknown.field} in ${strategy.file}): its rules wait ("${unknown.what} unknown" in jupbot status) until it exists; see ${unknown.find}`,
      );
    }
    reported = now;
  });
}
