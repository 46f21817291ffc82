/**
 * Prediction markets V1 wire schemas (`/prediction/v1`, beta). Source: Jupiter's OpenAPI file
 * for Prediction.
 *
 * Money: every `*Usd` value is micro-USD (1 000 000 = 1 USD) sent as an integer string or number and
 * parsed to `bigint` ({@link MicroUsd}); exact contract quantities `contractsMicro` likewise. The
 * legacy floored `contracts` and `contractsDecimal` stay strings. Times are unix seconds, except
 * `resolveAt` (ISO string once resolved) and `GameScore.updatedAt`.
 *
 * Strictness: identity fields (ids, owner, side) are required; money and display fields are nullish so
 * one missing field never hides every position from the exit rules (the daemon treats null as unknown).
 */
import { z } from 'zod';
import { MicroUnits, MicroUsd, openEnum, Pubkey } from './common.js';

// The transaction builders and execute (predictionTrading.ts) are part of this namespace.
export * from './predictionTrading.js';

export const PROVIDERS = ['polymarket', 'kalshi', 'bisonfi'] as const;
export const Provider = z.enum(PROVIDERS);
export type Provider = z.output<typeof Provider>;

export { USDC_MINT } from '../../solana/programIds.js';
/** JupUSD, the other accepted deposit mint. */
export const JUPUSD_MINT = 'JuprjznTrTSp2UFa3ZBUFgwdAmtZCq4MQCwysN55USD';

/** Most event ids one `/events/scores` call may carry. */
export const MAX_EVENT_IDS_PER_SCORES = 100;

const nullableMicroUsd = MicroUsd.nullish();

// ---------------------------------------------------------------------------------------------------
// Errors

/**
 * Stripe-like error body: `{ type, message, code?, param?, request_id, doc_url? }`. Some routes
 * (profiles, vault-info) answer `{ error }` instead; the client handles both.
 */
export const PredictionErrorBody = z.looseObject({
  type: openEnum(['invalid_request_error', 'authentication_error', 'permission_error', 'idempotency_error', 'rate_limit_error', 'api_error']),
  message: z.string(),
  code: z.string().nullish(),
  param: z.string().nullish(),
  request_id: z.string().nullish(),
  doc_url: z.string().nullish(),
});
export type PredictionErrorBody = z.output<typeof PredictionErrorBody>;

// ---------------------------------------------------------------------------------------------------
// Shared shapes

/** Index pagination: `start`..`end` of `total`. */
export const Pagination = z.looseObject({
  start: z.number().int(),
  end: z.number().int(),
  total: z.number().int().nullish(),
  hasNext: z.boolean(),
});
export type Pagination = z.output<typeof Pagination>;

export const EventMetadata = z.looseObject({
  eventId: z.string(),
  title: z.string().nullish(),
  subtitle: z.string().nullish(),
  slug: z.string().nullish(),
  series: z.string().nullish(),
  closeTime: z.string().nullish(),
  imageUrl: z.string().nullish(),
  isLive: z.boolean().nullish(),
});
export type EventMetadata = z.output<typeof EventMetadata>;

export const MarketOption = z.looseObject({ label: z.string().nullish(), buyYes: z.boolean().nullish() });

export const MarketMetadata = z.looseObject({
  marketId: z.string(),
  eventId: z.string().nullish(),
  title: z.string().nullish(),
  subtitle: z.string().nullish(),
  description: z.string().nullish(),
  provider: z.string().nullish(),
  status: z.string().nullish(),
  result: z.string().nullish(),
  closeTime: z.number().nullish(),
  openTime: z.number().nullish(),
  isTeamMarket: z.boolean().nullish(),
  marketOptions: z.array(MarketOption).nullish(),
  rulesPrimary: z.string().nullish(),
  rulesSecondary: z.string().nullish(),
});
export type MarketMetadata = z.output<typeof MarketMetadata>;

/** Current prices in micro-USD per contract; `null` when there is no price on that side. */
export const MarketPricing = z.looseObject({
  buyYesPriceUsd: nullableMicroUsd,
  buyNoPriceUsd: nullableMicroUsd,
  sellYesPriceUsd: nullableMicroUsd,
  sellNoPriceUsd: nullableMicroUsd,
  volume: z.number().nullish(),
});
export type MarketPricing = z.output<typeof MarketPricing>;

/** A market. Resolved markets stay `closed` with `result` set. */
export const Market = z.looseObject({
  marketId: z.string(),
  eventId: z.string().nullish(),
  provider: z.string().nullish(),
  title: z.string().nullish(),
  status: openEnum(['open', 'closed', 'cancelled']),
  result: openEnum(['yes', 'no']).nullable(),
  /** Unix seconds. */
  openTime: z.number().nullish(),
  closeTime: z.number().nullish(),
  /** null while open; an ISO string once resolved. */
  resolveAt: z.union([z.string(), z.number()]).nullish(),
  marketResultPubkey: z.string().nullish(),
  imageUrl: z.string().nullish(),
  rulesPrimary: z.string().nullish(),
  rulesSecondary: z.string().nullish(),
  outcomes: z.array(z.string()).nullish(),
  marketOptions: z.array(MarketOption).nullish(),
  clobTokenIds: z.array(z.string()).nullish(),
  isTeamMarket: z.boolean().nullish(),
  team: z.unknown().optional(),
  sportsLine: z.number().nullish(),
  sportsMarketType: z.string().nullish(),
  outcomeMint: z.string().nullish(),
  outcomeTokenProgram: z.string().nullish(),
  marketPda: z.string().nullish(),
  outcomeSide: z.string().nullish(),
  tradable: z.boolean().nullish(),
  lifecycleStatus: openEnum(['open', 'resolving', 'settled']).nullish(),
  pricing: MarketPricing.nullish(),
});
export type MarketWire = z.input<typeof Market>;
export type Market = z.output<typeof Market>;

export const Event = z.looseObject({
  eventId: z.string(),
  isActive: z.boolean().nullish(),
  isLive: z.boolean().nullish(),
  category: z.string().nullish(),
  subcategory: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  metadata: EventMetadata.nullish(),
  markets: z.array(Market).nullish(),
  /** Micro-USD. */
  volumeUsd: nullableMicroUsd,
  volume24hr: z.string().nullish(),
  liveScore: z.unknown().optional(),
  closeCondition: z.string().nullish(),
  beginAt: z.string().nullish(),
  rulesPdf: z.string().nullish(),
});
export type EventWire = z.input<typeof Event>;
export type Event = z.output<typeof Event>;

/** A game's live score. Fields other than ids and flags are display strings, often null. */
export const GameScore = z.looseObject({
  eventId: z.string(),
  gameId: z.string().nullish(),
  leagueAbbreviation: z.string().nullish(),
  homeTeam: z.string().nullish(),
  awayTeam: z.string().nullish(),
  score: z.string().nullish(),
  period: z.string().nullish(),
  elapsed: z.string().nullish(),
  status: z.string().nullish(),
  live: z.boolean(),
  ended: z.boolean(),
  finishedTimestamp: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
export type GameScore = z.output<typeof GameScore>;

// ---------------------------------------------------------------------------------------------------
// Read queries and answers

const Index = z.number().int().min(0);

/** Query of `GET /events`, every documented filter. */
export const EventsQuery = z.strictObject({
  provider: Provider.optional(),
  includeMarkets: z.boolean().optional(),
  /** Sports spread/totals markets too. */
  includeAllMarkets: z.boolean().optional(),
  start: Index.optional(),
  end: Index.optional(),
  category: z.enum(['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech']).optional(),
  /** One or several (sent comma-separated). */
  subcategory: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  sortBy: z.enum(['volume', 'beginAt']).optional(),
  sortDirection: z.enum(['asc', 'desc']).optional(),
  filter: z.enum(['new', 'live', 'trending', 'upcoming']).optional(),
  tags: z.string().min(1).optional(),
});
export type EventsQuery = z.input<typeof EventsQuery>;

/** 200 of `GET /events`. */
export const EventsResponse = z.looseObject({ data: z.array(Event), pagination: Pagination.nullish() });
export type EventsResponse = z.output<typeof EventsResponse>;

/** Query of `GET /events/search`. */
export const SearchEventsQuery = z.strictObject({
  query: z.string().min(1).max(200),
  provider: Provider.optional(),
  limit: z.number().int().min(1).max(20).optional(),
});
export type SearchEventsQuery = z.input<typeof SearchEventsQuery>;

/** Query of `GET /events/{eventId}` (the id goes in the path). */
export const EventQuery = z.strictObject({
  eventId: z.string().min(1),
  includeMarkets: z.boolean().optional(),
  includeAllMarkets: z.boolean().optional(),
});
export type EventQuery = z.input<typeof EventQuery>;

/** Params of `GET /events/suggested/{pubkey}`. */
export const SuggestedEventsQuery = z.strictObject({ pubkey: Pubkey, provider: Provider.optional() });
export type SuggestedEventsQuery = z.input<typeof SuggestedEventsQuery>;

/** 200 of `GET /events/suggested/{pubkey}`. */
export const SuggestedEventsResponse = z.looseObject({ data: z.array(Event) });
export type SuggestedEventsResponse = z.output<typeof SuggestedEventsResponse>;

/** Params of `GET /events/{eventId}/markets`. */
export const EventMarketsQuery = z.strictObject({ eventId: z.string().min(1), start: Index.optional(), end: Index.optional() });
export type EventMarketsQuery = z.input<typeof EventMarketsQuery>;

/** 200 of `GET /events/{eventId}/markets`. */
export const MarketsResponse = z.looseObject({ data: z.array(Market), pagination: Pagination.nullish() });
export type MarketsResponse = z.output<typeof MarketsResponse>;

/** Params of `GET /events/scores`: any number of ids; the client splits them into calls of ≤ 100. */
export const ScoresQuery = z.strictObject({
  eventIds: z.array(
    z
      .string()
      .min(1)
      .refine((s) => !s.includes(','), 'an event id cannot contain a comma'),
  ),
});
export type ScoresQuery = z.input<typeof ScoresQuery>;

/** 200 of `GET /events/scores`. */
export const ScoresResponse = z.looseObject({ data: z.array(GameScore) });
export type ScoresResponse = z.output<typeof ScoresResponse>;

/** 200 of `GET /events/{eventId}/score`: a score, or null when the event has none. */
export const EventScoreResponse = GameScore.nullable();
export type EventScoreResponse = z.output<typeof EventScoreResponse>;

/** A price level `[price, size]`: cents (numbers) or decimal dollars (strings). Sizes may be fractional. */
const CentsLevel = z.tuple([z.number(), z.number()]);
const DollarsLevel = z.tuple([z.string(), z.number()]);

/** 200 of `GET /orderbook/{marketId}`; levels sorted by price ascending. `null` when there is no book. */
export const Orderbook = z
  .looseObject({
    yes: z.array(CentsLevel),
    no: z.array(CentsLevel),
    yes_dollars: z.array(DollarsLevel),
    no_dollars: z.array(DollarsLevel),
  })
  .nullable();
export type Orderbook = z.output<typeof Orderbook>;

/** 200 of `GET /trading-status`. */
export const TradingStatus = z.looseObject({ trading_active: z.boolean() });
export type TradingStatus = z.output<typeof TradingStatus>;

/** Query of `GET /positions`. `ownerPubkey` is documented as required in practice. */
export const PositionsQuery = z.strictObject({
  ownerPubkey: Pubkey.optional(),
  marketPubkey: Pubkey.optional(),
  marketId: z.string().min(1).optional(),
  /** Sent as "true"/"false". */
  isYes: z.boolean().optional(),
  start: Index.optional(),
  end: Index.optional(),
});
export type PositionsQuery = z.input<typeof PositionsQuery>;

/** An open (or settled, unclaimed) position. Money in micro-USD (bigint). */
export const Position = z.looseObject({
  pubkey: z.string(),
  owner: z.string().nullish(),
  ownerPubkey: z.string(),
  market: z.string().nullish(),
  marketId: z.string(),
  marketIdHash: z.string().nullish(),
  isYes: z.boolean(),
  /** Legacy, floored to whole contracts. */
  contracts: z.string().nullish(),
  /** Exact: 1 000 000 = 1 contract. */
  contractsMicro: MicroUnits.nullish(),
  contractsDecimal: z.string().nullish(),
  source: z.string().nullish(),
  maxSlippageBps: z.number().nullish(),
  totalCostUsd: nullableMicroUsd,
  sizeUsd: nullableMicroUsd,
  valueUsd: nullableMicroUsd,
  avgPriceUsd: nullableMicroUsd,
  markPriceUsd: nullableMicroUsd,
  sellPriceUsd: nullableMicroUsd,
  pnlUsd: nullableMicroUsd,
  pnlUsdPercent: z.number().nullish(),
  pnlUsdAfterFees: nullableMicroUsd,
  pnlUsdAfterFeesPercent: z.number().nullish(),
  openOrders: z.number().int().nullish(),
  feesPaidUsd: nullableMicroUsd,
  realizedPnlUsd: nullableMicroUsd,
  claimed: z.boolean().nullish(),
  claimedUsd: nullableMicroUsd,
  openedAt: z.number().nullish(),
  updatedAt: z.number().nullish(),
  claimableAt: z.number().nullish(),
  payoutUsd: nullableMicroUsd,
  bump: z.number().nullish(),
  eventId: z.string().nullish(),
  eventMetadata: EventMetadata.nullish(),
  marketMetadata: MarketMetadata.nullish(),
  settlementDate: z.number().nullish(),
  claimable: z.boolean().nullish(),
});
export type PositionWire = z.input<typeof Position>;
export type Position = z.output<typeof Position>;

/** 200 of `GET /positions`. */
export const PositionsResponse = z.looseObject({ data: z.array(Position), pagination: Pagination.nullish() });
export type PositionsResponse = z.output<typeof PositionsResponse>;

/** 200 of `GET /orders/status/{orderPubkey}`. Status values seen: created, partiallyfilled, filled, failed. */
export const OrderStatusResponse = z.looseObject({
  orderPubkey: z.string(),
  status: openEnum(['created', 'partiallyfilled', 'filled', 'failed']),
  latestEventType: z.string().nullish(),
  latestSignature: z.string().nullish(),
  externalOrderId: z.string().nullish(),
  orderId: z.string().nullish(),
  history: z.array(
    z.looseObject({
      eventType: z.string(),
      status: z.string().nullish(),
      rawStatus: z.string().nullish(),
      timestamp: z.number().nullish(),
      signature: z.string().nullish(),
      externalOrderId: z.string().nullish(),
      orderId: z.string().nullish(),
    }),
  ),
});
export type OrderStatusResponse = z.output<typeof OrderStatusResponse>;
