/**
 * Prediction markets V1 (area D, `/prediction/v1`, beta; `x-api-key` only, no JWT). Reads: events,
 * search, event, suggested, event markets, market, orderbook, scores, event score, trading status,
 * positions, order status. Builders (unsigned transactions): buy / partial sell (`POST /orders`), sell a
 * position (`DELETE /positions/{pubkey}`), close all (`DELETE /positions`), claim; then `POST /execute`.
 * Every route, `/execute` included, counts against the main bucket.
 *
 * Money: `*Usd` fields are micro-USD `bigint` after parsing (see schemas/prediction.ts).
 *
 * Errors keep the Stripe-like ErrorResponse ({@link PredictionApiError}: `errorType`, `apiCode`,
 * `param`): 400 `PREDICTION_INVALID_REQUEST` (or `PREDICTION_EXECUTE_FAILED` when its code is
 * `execute_failed`), 404 `PREDICTION_NOT_FOUND`, 502 `PREDICTION_UPSTREAM_ERROR`, other 5xx
 * `JUPITER_SERVER_ERROR`. `/execute` answering 200 `status: "Failed"` → {@link ExecuteFailedError}
 * `PREDICTION_EXECUTE_FAILED`. Builders and execute never retry by themselves.
 */
import { z } from 'zod';
import { ExecuteFailedError, type JupiterErrorCode, PredictionApiError } from './errors.js';
import { Pubkey } from './schemas/common.js';
import type { SellOrderParams } from './schemas/prediction.js';
import {
  ClaimPositionParams,
  ClaimPositionResponse,
  CloseAllPositionsParams,
  CloseAllPositionsResponse,
  CreateOrderParams,
  CreateOrderResponse,
  Event,
  EventMarketsQuery,
  EventQuery,
  EventScoreResponse,
  EventsQuery,
  EventsResponse,
  MAX_EVENT_IDS_PER_SCORES,
  Market,
  MarketsResponse,
  Orderbook,
  OrderStatusResponse,
  Position,
  PositionsQuery,
  PositionsResponse,
  PredictionErrorBody,
  PredictionExecuteParams,
  PredictionExecuteResponse,
  ScoresQuery,
  ScoresResponse,
  SearchEventsQuery,
  SellPositionParams,
  SuggestedEventsQuery,
  SuggestedEventsResponse,
  TradingStatus,
} from './schemas/prediction.js';
import {
  type CallOptions,
  codeForStatus,
  type ErrorContext,
  errorInit,
  isGatewayBody,
  type JupiterClient,
  Priority,
  type RequestSpec,
  segment,
  validateParams,
} from './transport.js';

export type {
  EventsQuery,
  EventsResponse,
  SearchEventsQuery,
  EventQuery,
  Event,
  SuggestedEventsQuery,
  SuggestedEventsResponse,
  EventMarketsQuery,
  MarketsResponse,
  Market,
  Orderbook,
  ScoresQuery,
  ScoresResponse,
  EventScoreResponse,
  TradingStatus,
  PositionsQuery,
  PositionsResponse,
  Position,
  CreateOrderParams,
  SellOrderParams,
  CreateOrderResponse,
  SellPositionParams,
  CloseAllPositionsParams,
  CloseAllPositionsResponse,
  ClaimPositionParams,
  ClaimPositionResponse,
  PredictionExecuteParams,
  PredictionExecuteResponse,
  OrderStatusResponse,
} from './schemas/prediction.js';

const BASE = '/prediction/v1';

function predictionCode(status: number, apiCode: string | null): JupiterErrorCode {
  if (status === 400) return apiCode === 'execute_failed' ? 'PREDICTION_EXECUTE_FAILED' : 'PREDICTION_INVALID_REQUEST';
  if (status === 404) return 'PREDICTION_NOT_FOUND';
  if (status === 502) return 'PREDICTION_UPSTREAM_ERROR';
  return codeForStatus(status);
}

/** Maps a Prediction error answer: ErrorResponse, or the `{ error }` some routes use. */
export function predictionError(ctx: ErrorContext): PredictionApiError | undefined {
  const parsed = PredictionErrorBody.safeParse(ctx.body);
  if (parsed.success) {
    const { type, code, param, message } = parsed.data;
    return new PredictionApiError(errorInit(ctx, predictionCode(ctx.status, code ?? null), ctx.scrub(message)), {
      type,
      apiCode: code ?? null,
      param: param ?? null,
    });
  }
  if (isGatewayBody(ctx.body) && (ctx.status === 401 || ctx.status === 403 || ctx.status === 429)) return undefined;
  return new PredictionApiError(errorInit(ctx, predictionCode(ctx.status, null)), { type: null, apiCode: null, param: null });
}

function call<S extends z.ZodType>(
  client: JupiterClient,
  spec: Omit<RequestSpec<S>, 'priority' | 'signal' | 'mapError'> & { defaultPriority: number },
  options: CallOptions,
): Promise<z.output<S>> {
  const { defaultPriority, ...rest } = spec;
  return client.request({ ...rest, priority: options.priority ?? defaultPriority, signal: options.signal, mapError: predictionError });
}

const NonEmpty = z
  .string()
  .min(1)
  .regex(/^[^/?#\s]+$/, 'expected an id without /, ?, # or spaces');

// ---------------------------------------------------------------------------------------------------
// Events and markets

/** `GET /events` with every documented filter. */
export async function listEvents(client: JupiterClient, params: EventsQuery = {}, options: CallOptions = {}): Promise<EventsResponse> {
  const route = `${BASE}/events`;
  const query = validateParams(route, EventsQuery, params);
  return await call(client, { method: 'GET', path: route, route, query, schema: EventsResponse, defaultPriority: Priority.PollMarket }, options);
}

/** `GET /events/search`. */
export async function searchEvents(client: JupiterClient, params: SearchEventsQuery, options: CallOptions = {}): Promise<EventsResponse> {
  const route = `${BASE}/events/search`;
  const query = validateParams(route, SearchEventsQuery, params);
  return await call(client, { method: 'GET', path: route, route, query, schema: EventsResponse, defaultPriority: Priority.PollMarket }, options);
}

/** `GET /events/{eventId}`. 404 → `PREDICTION_NOT_FOUND`. */
export async function getEvent(client: JupiterClient, params: EventQuery, options: CallOptions = {}): Promise<Event> {
  const route = `${BASE}/events/{eventId}`;
  const { eventId, ...query } = validateParams(route, EventQuery.extend({ eventId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/events/${segment(eventId)}`, route, query, schema: Event, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /events/suggested/{pubkey}`. */
export async function getSuggestedEvents(client: JupiterClient, params: SuggestedEventsQuery, options: CallOptions = {}): Promise<SuggestedEventsResponse> {
  const route = `${BASE}/events/suggested/{pubkey}`;
  const { pubkey, ...query } = validateParams(route, SuggestedEventsQuery, params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/events/suggested/${segment(pubkey)}`, route, query, schema: SuggestedEventsResponse, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /events/{eventId}/markets`. */
export async function getEventMarkets(client: JupiterClient, params: EventMarketsQuery, options: CallOptions = {}): Promise<MarketsResponse> {
  const route = `${BASE}/events/{eventId}/markets`;
  const { eventId, ...query } = validateParams(route, EventMarketsQuery.extend({ eventId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/events/${segment(eventId)}/markets`, route, query, schema: MarketsResponse, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /markets/{marketId}`. 404 → `PREDICTION_NOT_FOUND`. */
export async function getMarket(client: JupiterClient, params: { marketId: string }, options: CallOptions = {}): Promise<Market> {
  const route = `${BASE}/markets/{marketId}`;
  const { marketId } = validateParams(route, z.strictObject({ marketId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/markets/${segment(marketId)}`, route, schema: Market, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /events/{eventId}/markets/{marketId}`: one market of an event. 404 → `PREDICTION_NOT_FOUND`. */
export async function getEventMarket(client: JupiterClient, params: { eventId: string; marketId: string }, options: CallOptions = {}): Promise<Market> {
  const route = `${BASE}/events/{eventId}/markets/{marketId}`;
  const { eventId, marketId } = validateParams(route, z.strictObject({ eventId: NonEmpty, marketId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/events/${segment(eventId)}/markets/${segment(marketId)}`, route, schema: Market, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /orderbook/{marketId}`: levels ascending, or null. 502 → `PREDICTION_UPSTREAM_ERROR`. */
export async function getOrderbook(client: JupiterClient, params: { marketId: string }, options: CallOptions = {}): Promise<Orderbook> {
  const route = `${BASE}/orderbook/{marketId}`;
  const { marketId } = validateParams(route, z.strictObject({ marketId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/orderbook/${segment(marketId)}`, route, schema: Orderbook, defaultPriority: Priority.PollMarket },
    options,
  );
}

/**
 * `GET /events/scores` for any number of event ids: duplicates removed, then batches of at most 100,
 * queued together at market-polling priority; the answers are concatenated.
 */
export async function getScores(client: JupiterClient, params: ScoresQuery, options: CallOptions = {}): Promise<ScoresResponse> {
  const route = `${BASE}/events/scores`;
  const ids = [...new Set(validateParams(route, ScoresQuery, params).eventIds)];
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += MAX_EVENT_IDS_PER_SCORES) batches.push(ids.slice(i, i + MAX_EVENT_IDS_PER_SCORES));
  const pages = await Promise.all(
    batches.map((batch) =>
      call(client, { method: 'GET', path: route, route, query: { eventIds: batch }, schema: ScoresResponse, defaultPriority: Priority.PollMarket }, options),
    ),
  );
  return { data: pages.flatMap((p) => p.data) };
}

/** `GET /events/{eventId}/score`: the game score, or null. */
export async function getEventScore(client: JupiterClient, params: { eventId: string }, options: CallOptions = {}): Promise<EventScoreResponse> {
  const route = `${BASE}/events/{eventId}/score`;
  const { eventId } = validateParams(route, z.strictObject({ eventId: NonEmpty }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/events/${segment(eventId)}/score`, route, schema: EventScoreResponse, defaultPriority: Priority.PollMarket },
    options,
  );
}

/** `GET /trading-status`: whether trading is open at all. */
export async function getTradingStatus(client: JupiterClient, options: CallOptions = {}): Promise<TradingStatus> {
  const route = `${BASE}/trading-status`;
  return await call(client, { method: 'GET', path: route, route, schema: TradingStatus, defaultPriority: Priority.PollMarket }, options);
}

// ---------------------------------------------------------------------------------------------------
// Positions and orders

/** `GET /positions` with its filters and index pagination (`start`, `end`). */
export async function getPositions(client: JupiterClient, params: PositionsQuery, options: CallOptions = {}): Promise<PositionsResponse> {
  const route = `${BASE}/positions`;
  const query = validateParams(route, PositionsQuery, params);
  return await call(client, { method: 'GET', path: route, route, query, schema: PositionsResponse, defaultPriority: Priority.PollState }, options);
}

/**
 * Every position matching the filters, following `pagination.hasNext` (next `start` = previous `end`).
 * Stops after `maxPages` (default 100) so a misbehaving server cannot loop it forever.
 */
export async function getAllPositions(
  client: JupiterClient,
  params: Omit<PositionsQuery, 'start' | 'end'> & { pageSize?: number; maxPages?: number },
  options: CallOptions = {},
): Promise<Position[]> {
  const { pageSize = 50, maxPages = 100, ...filters } = params;
  const out: Position[] = [];
  let start = 0;
  for (let page = 0; page < maxPages; page++) {
    const answer = await getPositions(client, { ...filters, start, end: start + pageSize }, options);
    out.push(...answer.data);
    const p = answer.pagination;
    if (!p?.hasNext || p.end <= start) return out;
    start = p.end;
  }
  return out;
}

/** `GET /positions/{positionPubkey}`. */
export async function getPosition(client: JupiterClient, params: { positionPubkey: string }, options: CallOptions = {}): Promise<Position> {
  const route = `${BASE}/positions/{positionPubkey}`;
  const { positionPubkey } = validateParams(route, z.strictObject({ positionPubkey: Pubkey }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/positions/${segment(positionPubkey)}`, route, schema: Position, defaultPriority: Priority.PollState },
    options,
  );
}

/**
 * `GET /orders/status/{orderPubkey}`: keeper fill progress. Right after submit it may 404
 * (`order_history_not_found`) for a few slots → `PREDICTION_NOT_FOUND`.
 */
export async function getOrderStatus(client: JupiterClient, params: { orderPubkey: string }, options: CallOptions = {}): Promise<OrderStatusResponse> {
  const route = `${BASE}/orders/status/{orderPubkey}`;
  const { orderPubkey } = validateParams(route, z.strictObject({ orderPubkey: Pubkey }), params);
  return await call(
    client,
    { method: 'GET', path: `${BASE}/orders/status/${segment(orderPubkey)}`, route, schema: OrderStatusResponse, defaultPriority: Priority.PollState },
    options,
  );
}

// ---------------------------------------------------------------------------------------------------
// Builders and execute (state-changing: never retried here)

/** `POST /orders`: a buy (`isBuy: true`, min 5 USD) or a partial sell (`isBuy: false`, one quantity field). */
export async function createOrder(client: JupiterClient, params: CreateOrderParams, options: CallOptions = {}): Promise<CreateOrderResponse> {
  const route = `${BASE}/orders`;
  const body = validateParams(route, CreateOrderParams, params);
  return await call(
    client,
    { method: 'POST', path: route, route, body, schema: CreateOrderResponse, defaultPriority: body.isBuy ? Priority.Place : Priority.Exit },
    options,
  );
}

/** Partial sell of a position: `POST /orders` with `isBuy: false`. */
export async function sellPartial(client: JupiterClient, params: Omit<SellOrderParams, 'isBuy'>, options: CallOptions = {}): Promise<CreateOrderResponse> {
  return await createOrder(client, { ...params, isBuy: false }, options);
}

/** `DELETE /positions/{positionPubkey}` with `{ ownerPubkey }`: a transaction selling the whole position. */
export async function sellPosition(client: JupiterClient, params: SellPositionParams, options: CallOptions = {}): Promise<CreateOrderResponse> {
  const route = `${BASE}/positions/{positionPubkey}`;
  const { positionPubkey, ownerPubkey } = validateParams(route, SellPositionParams, params);
  return await call(
    client,
    {
      method: 'DELETE',
      path: `${BASE}/positions/${segment(positionPubkey)}`,
      route,
      body: { ownerPubkey },
      schema: CreateOrderResponse,
      defaultPriority: Priority.Exit,
    },
    options,
  );
}

/** `DELETE /positions`: one sell (or claim) transaction per open position. */
export async function closeAllPositions(client: JupiterClient, params: CloseAllPositionsParams, options: CallOptions = {}): Promise<CloseAllPositionsResponse> {
  const route = `${BASE}/positions`;
  const body = validateParams(route, CloseAllPositionsParams, params);
  return await call(client, { method: 'DELETE', path: route, route, body, schema: CloseAllPositionsResponse, defaultPriority: Priority.Exit }, options);
}

/** `POST /positions/{positionPubkey}/claim`: the payout transaction of a settled winning position. */
export async function claimPosition(client: JupiterClient, params: ClaimPositionParams, options: CallOptions = {}): Promise<ClaimPositionResponse> {
  const route = `${BASE}/positions/{positionPubkey}/claim`;
  const { positionPubkey, ownerPubkey } = validateParams(route, ClaimPositionParams, params);
  return await call(
    client,
    {
      method: 'POST',
      path: `${BASE}/positions/${segment(positionPubkey)}/claim`,
      route,
      body: { ownerPubkey },
      schema: ClaimPositionResponse,
      defaultPriority: Priority.Exit,
    },
    options,
  );
}

/**
 * `POST /execute`: submits a signed build with its `execution.context` unchanged. Main bucket.
 * @throws ExecuteFailedError `PREDICTION_EXECUTE_FAILED` on `status: "Failed"`.
 */
export async function executePrediction(client: JupiterClient, params: PredictionExecuteParams, options: CallOptions = {}): Promise<PredictionExecuteResponse> {
  const route = `${BASE}/execute`;
  const body = validateParams(route, PredictionExecuteParams, params);
  let requestId: string | null = null;
  const result = await call(
    client,
    {
      method: 'POST',
      path: route,
      route,
      body,
      schema: PredictionExecuteResponse,
      defaultPriority: Priority.Place,
      onResponse: (info) => (requestId = info.requestId),
    },
    options,
  );
  if (result.status !== 'Success') {
    const reason = `${result.status}${result.error ? `: ${client.redactor.scrubText(result.error)}` : ''}`;
    throw new ExecuteFailedError(
      { code: 'PREDICTION_EXECUTE_FAILED', status: 200, method: 'POST', route, idempotent: false, reason, requestId, body: client.redactor.scrub(result) },
      { executeCode: null, signature: result.signature ?? null, response: result },
    );
  }
  return result;
}
