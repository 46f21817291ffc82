/**
 * The markets feed: status, close time and result of every prediction market in use — the markets
 * of the positions held and those strategies name — at market-polling priority. Batched where the
 * API allows: markets of one event that are wanted together (or an event strategies name whole) come
 * from one `GET /events/{eventId}/markets` (all pages); a lone market from `GET /markets/{marketId}`.
 * Which event a market belongs to is learnt from the answers, so batching improves after one poll.
 *
 * An id the API does not know (404) is absent from the map, not a failed poll: one typo in a
 * strategy must not age every other market. The map names such ids (`unknownMarkets`,
 * `unknownEvents`), so a strategy naming one waits visibly ("market unknown") instead of doing
 * nothing without a word. Any other error fails the poll (the last value is kept).
 */
import type { Clock } from '../../clock.js';
import { PredictionApiError } from '../../jupiter/errors.js';
import { getEventMarkets, getMarket, type Market } from '../../jupiter/prediction.js';
import { type CallOptions, type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';

/** One market as the strategies need it. Times are epoch ms. */
export interface MarketState {
  readonly marketId: string;
  /** Null when the API names none (then no event or score rule can match it). */
  readonly eventId: string | null;
  /** `open`, `closed`, `cancelled`, or a value the API added since (kept, never guessed). */
  readonly status: string;
  /** Null when the API gives none. */
  readonly closeTime: number | null;
  readonly result: 'yes' | 'no' | null;
  /** What a contract of each side sells for now, micro-USD (null: no price on that side); absent when the API gives no pricing. */
  readonly marks?: { readonly yes: bigint | null; readonly no: bigint | null };
}

/**
 * Markets by id, as last polled, and the ids the API answered 404 for in that poll. The sets are
 * optional so a plain Map (a test, a backtest) reads as "nothing unknown".
 */
export interface MarketMap extends ReadonlyMap<string, MarketState> {
  readonly unknownMarkets?: ReadonlySet<string>;
  readonly unknownEvents?: ReadonlySet<string>;
}

/** What one poll read: the markets, and the ids Jupiter does not know. */
class PolledMarkets extends Map<string, MarketState> implements MarketMap {
  readonly unknownMarkets = new Set<string>();
  readonly unknownEvents = new Set<string>();
}

export interface MarketsFeedOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  /** `poll.scores` or `poll.positions` from the config: markets move with the games. */
  readonly intervalMs: number;
  /** Market ids in use now (positions held, strategies' `positions.market`); read at every poll. */
  readonly marketIds: () => Iterable<string>;
  /** Events whose every market is in use (strategies' `positions.event`); read at every poll. */
  readonly eventIds?: (() => Iterable<string>) | undefined;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** @default 'markets' */
  readonly name?: string;
}

/** Pages of one event's markets; bounded so a misbehaving server cannot loop the feed. */
const PAGE = 50;
const MAX_PAGES = 20;

export function createMarketsFeed(options: MarketsFeedOptions): Poller<MarketMap> {
  const { client } = options;
  /** marketId → eventId, from earlier answers: what lets markets of one event be read together. */
  const eventOf = new Map<string, string>();

  return createPoller<MarketMap>({
    name: options.name ?? 'markets',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    async poll(signal) {
      const call: CallOptions = { priority: Priority.PollMarket, signal };
      const wantedMarkets = new Set(options.marketIds());
      const wantedEvents = new Set(options.eventIds?.() ?? []);
      const byEvent = new Map<string, string[]>();
      for (const id of wantedMarkets) {
        const event = eventOf.get(id);
        if (event !== undefined) byEvent.set(event, [...(byEvent.get(event) ?? []), id]);
      }
      for (const [event, ids] of byEvent) if (ids.length > 1) wantedEvents.add(event);
      const lone = [...wantedMarkets].filter((id) => !wantedEvents.has(eventOf.get(id) ?? '')).sort();

      const out = new PolledMarkets();
      const keep = (market: Market, eventId: string | null): void => {
        const state = marketState(market, eventId);
        if (state.eventId !== null) eventOf.set(state.marketId, state.eventId);
        out.set(state.marketId, state);
      };
      await Promise.all([
        ...[...wantedEvents].sort().map(async (eventId) => {
          const markets = await notFound(eventMarkets(client, eventId, call));
          if (markets === null) out.unknownEvents.add(eventId);
          for (const market of markets ?? []) keep(market, eventId);
        }),
        ...lone.map(async (marketId) => {
          const markets = await notFound(getMarket(client, { marketId }, call).then((m) => [m]));
          if (markets === null) out.unknownMarkets.add(marketId);
          for (const market of markets ?? []) keep(market, null);
        }),
      ]);
      return out;
    },
  });
}

async function eventMarkets(client: JupiterClient, eventId: string, call: CallOptions): Promise<Market[]> {
  const out: Market[] = [];
  let start = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await getEventMarkets(client, { eventId, start, end: start + PAGE }, call);
    out.push(...answer.data);
    const p = answer.pagination;
    if (!p?.hasNext || p.end <= start) break;
    start = p.end;
  }
  return out;
}

/** The markets read, or null when the API does not know the id (404). */
async function notFound(read: Promise<Market[]>): Promise<Market[] | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof PredictionApiError && error.code === 'PREDICTION_NOT_FOUND') return null;
    throw error;
  }
}

/** The API's market as the feed keeps it: seconds → ms, an unknown result as null. */
export function marketState(market: Market, eventId: string | null = null): MarketState {
  const result: MarketState['result'] = market.result === 'yes' ? 'yes' : market.result === 'no' ? 'no' : null;
  return {
    marketId: market.marketId,
    eventId: market.eventId ?? eventId,
    status: market.status,
    closeTime: typeof market.closeTime === 'number' ? market.closeTime * 1000 : null,
    result,
    ...(market.pricing ? { marks: { yes: market.pricing.sellYesPriceUsd ?? null, no: market.pricing.sellNoPriceUsd ?? null } } : {}),
  };
}
