/**
 * The Jupiter client's error taxonomy. Three families, all {@link JupbotError}s with a stable `code`:
 * - {@link ApiError}: Jupiter answered and refused (HTTP status ≥ 400, or a 200 that reports a failure:
 *   an unbuildable swap order, an execute with `status: "Failed"`). Subclasses keep each product's
 *   own error envelope: {@link TriggerApiError} (`error` + `details`), {@link PredictionApiError}
 *   (Stripe-like `type`/`code`/`param`), {@link SwapOrderError} (`router` + `errorCode`),
 *   {@link ExecuteFailedError} (`code` of an execute).
 * - {@link TransportError}: no usable answer (network failure, timeout, abort, malformed JSON, a body
 *   that does not match the schema), with the underlying `cause`.
 * - {@link ParamsError}: our own parameters failed validation; nothing was sent.
 *
 * Codes and their meanings are listed in the error catalogue (errorCatalogue.ts).
 * Messages and bodies are scrubbed of secrets before they are stored on the error.
 */
import type { CodeOf } from '../errorCatalogue.js';
import { JupbotError } from '../errors.js';

/** Every code this layer raises: the `jupiter` area of the error catalogue, where each is explained. */
export type JupiterErrorCode = CodeOf<'jupiter'>;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Where a request went: for messages, metrics and the audit log. `route` is the path template. */
export interface RequestContext {
  method: HttpMethod;
  /** Path template, e.g. `/trigger/v2/orders/price/{orderId}`: never holds a secret or an id. */
  route: string;
  /** Whether the call only reads (and so may be retried). */
  idempotent: boolean;
}

export interface ApiErrorInit extends RequestContext {
  code: JupiterErrorCode;
  status: number;
  /** The product's own message (scrubbed), if any. */
  reason?: string | undefined;
  /** `x-api-gateway-request-id` of the answer. */
  requestId: string | null;
  /** The response body (already scrubbed of secrets). */
  body: unknown;
  /** How long to wait before the same bucket may send again, when known (429). */
  retryAfterMs?: number | null;
  cause?: unknown;
}

/** Jupiter answered and refused. */
export class ApiError extends JupbotError {
  override name = 'ApiError';
  declare readonly code: JupiterErrorCode;
  readonly status: number;
  readonly method: HttpMethod;
  readonly route: string;
  readonly requestId: string | null;
  /** The response body, scrubbed of secrets. */
  readonly body: unknown;
  readonly retryAfterMs: number | null;
  /**
   * True when the call changes state and the answer does not prove it did not happen (a 5xx):
   * the caller must query state and reconcile before doing anything else.
   */
  readonly outcomeUnknown: boolean;

  constructor(init: ApiErrorInit, extraDetails: Record<string, unknown> = {}) {
    const where = `${init.method} ${init.route}`;
    const reason = init.reason ? `: ${init.reason}` : '';
    const rid = init.requestId ? ` (request id ${init.requestId})` : '';
    super(init.code, `${where} → ${init.status} ${init.code}${reason}${rid}`, {
      cause: init.cause,
      details: { status: init.status, method: init.method, route: init.route, requestId: init.requestId, ...extraDetails },
    });
    this.status = init.status;
    this.method = init.method;
    this.route = init.route;
    this.requestId = init.requestId;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.outcomeUnknown = !init.idempotent && init.status >= 500;
  }
}

/** Trigger V2 refused: `{ error, details? }`. `details` is kept whole (a 409 carries the existing vault). */
export class TriggerApiError extends ApiError {
  override name = 'TriggerApiError';
  /** The envelope's `error` text (display only; match on `code`). */
  readonly triggerError: string | null;
  readonly triggerDetails: Readonly<Record<string, unknown>> | null;

  constructor(init: ApiErrorInit, triggerError: string | null, details: Record<string, unknown> | null) {
    super(init, details ? { triggerDetails: details } : {});
    this.triggerError = triggerError;
    this.triggerDetails = details ? Object.freeze({ ...details }) : null;
  }
}

/** Prediction refused with its Stripe-like ErrorResponse. */
export class PredictionApiError extends ApiError {
  override name = 'PredictionApiError';
  /** `invalid_request_error`, `authentication_error`, …; null for `{ error }` bodies. */
  readonly errorType: string | null;
  /** The body's `code` (`invalid_type`, `execute_failed`, `no_route`, …). */
  readonly apiCode: string | null;
  readonly param: string | null;

  constructor(init: ApiErrorInit, fields: { type: string | null; apiCode: string | null; param: string | null }) {
    super(init, { errorType: fields.type, apiCode: fields.apiCode, param: fields.param });
    this.errorType = fields.type;
    this.apiCode = fields.apiCode;
    this.param = fields.param;
  }
}

/** Why an order had a price but no transaction: `router` + `errorCode`, never the message text. */
export type OrderFailureReason = 'insufficient_funds' | 'insufficient_sol' | 'below_gasless_minimum' | 'missing_token_account' | 'rfq_unbuildable' | 'unknown';

const AGGREGATOR_REASONS: Record<number, OrderFailureReason> = { 1: 'insufficient_funds', 2: 'insufficient_sol', 3: 'below_gasless_minimum' };
const RFQ_REASONS: Record<number, OrderFailureReason> = { 1: 'insufficient_funds', 2: 'missing_token_account', 3: 'rfq_unbuildable' };

/** Maps an order's `router` + `errorCode` to its documented meaning. Pure. */
export function orderFailureReason(router: string | null | undefined, errorCode: number | null): OrderFailureReason {
  if (errorCode === null) return 'unknown';
  const table = router === 'jupiterz' ? RFQ_REASONS : router === undefined || router === null ? {} : AGGREGATOR_REASONS;
  return table[errorCode] ?? 'unknown';
}

const ORDER_REASON_CODES: Record<OrderFailureReason, JupiterErrorCode> = {
  insufficient_funds: 'SWAP_ORDER_INSUFFICIENT_FUNDS',
  insufficient_sol: 'SWAP_ORDER_INSUFFICIENT_SOL',
  below_gasless_minimum: 'SWAP_ORDER_BELOW_GASLESS_MINIMUM',
  missing_token_account: 'SWAP_ORDER_MISSING_TOKEN_ACCOUNT',
  rfq_unbuildable: 'SWAP_ORDER_RFQ_UNBUILDABLE',
  unknown: 'SWAP_ORDER_UNBUILDABLE',
};

/** The stable code for an order failure reason. */
export function orderFailureCode(reason: OrderFailureReason): JupiterErrorCode {
  return ORDER_REASON_CODES[reason];
}

/** `/order` answered 200 with a price but `transaction: ""` and an `errorCode`. The quote is kept. */
export class SwapOrderError extends ApiError {
  override name = 'SwapOrderError';
  readonly router: string | null;
  /** null when the answer had no transaction and no errorCode at all. */
  readonly errorCode: number | null;
  readonly reason: OrderFailureReason;
  /** The order `requestId`. */
  readonly orderRequestId: string | null;
  /** The parsed answer: still a valid price quote. */
  readonly quote: unknown;

  constructor(init: Omit<ApiErrorInit, 'code'>, fields: { router: string | null; errorCode: number | null; orderRequestId: string | null; quote: unknown }) {
    const reason = orderFailureReason(fields.router, fields.errorCode);
    super({ ...init, code: orderFailureCode(reason) }, { router: fields.router, errorCode: fields.errorCode, reason });
    this.router = fields.router;
    this.errorCode = fields.errorCode;
    this.reason = reason;
    this.orderRequestId = fields.orderRequestId;
    this.quote = fields.quote;
  }
}

/**
 * An execute (swap or prediction) reported failure: HTTP 200 with `status: "Failed"`, or a 400 with a
 * `code`. `executeCode` < 0 is Jupiter's (not landed, or landing failed); > 0 is an on-chain program
 * error after landing (the transaction landed and failed: fees were paid). `signature` is kept when sent.
 */
export class ExecuteFailedError extends ApiError {
  override name = 'ExecuteFailedError';
  readonly executeCode: number | null;
  readonly signature: string | null;
  /** The parsed answer (amounts are still reported for on-chain failures). */
  readonly response: unknown;

  constructor(init: ApiErrorInit, fields: { executeCode: number | null; signature: string | null; response: unknown }) {
    super(init, { executeCode: fields.executeCode, signature: fields.signature });
    this.executeCode = fields.executeCode;
    this.signature = fields.signature;
    this.response = fields.response;
  }
}

export type TransportErrorKind = 'network' | 'timeout' | 'aborted' | 'closed' | 'malformed' | 'schema';

const TRANSPORT_CODES: Record<TransportErrorKind, JupiterErrorCode> = {
  network: 'JUPITER_NETWORK_ERROR',
  timeout: 'JUPITER_TIMEOUT',
  aborted: 'JUPITER_ABORTED',
  closed: 'JUPITER_CLIENT_CLOSED',
  malformed: 'JUPITER_MALFORMED_RESPONSE',
  schema: 'JUPITER_UNEXPECTED_RESPONSE',
};

/** No usable answer. `cause` holds the underlying error (fetch failure, JSON or zod error). */
export class TransportError extends JupbotError {
  override name = 'TransportError';
  declare readonly code: JupiterErrorCode;
  readonly kind: TransportErrorKind;
  readonly method: HttpMethod;
  readonly route: string;
  readonly status: number | null;
  readonly requestId: string | null;
  /**
   * True when the call changes state and may have reached Jupiter (network failure, timeout, an
   * unreadable answer, an abort in flight): the caller must reconcile. False when nothing was sent
   * (aborted or closed while queued) or the call only reads.
   */
  readonly outcomeUnknown: boolean;

  constructor(
    ctx: RequestContext,
    kind: TransportErrorKind,
    message: string,
    options: { cause?: unknown; status?: number | null; requestId?: string | null; sent?: boolean; details?: Record<string, unknown> } = {},
  ) {
    const code = TRANSPORT_CODES[kind];
    super(code, `${ctx.method} ${ctx.route} → ${code}: ${message}`, {
      cause: options.cause,
      details: { method: ctx.method, route: ctx.route, kind, status: options.status ?? null, requestId: options.requestId ?? null, ...options.details },
    });
    this.kind = kind;
    this.method = ctx.method;
    this.route = ctx.route;
    this.status = options.status ?? null;
    this.requestId = options.requestId ?? null;
    this.outcomeUnknown = !ctx.idempotent && (options.sent ?? true) && kind !== 'closed';
  }
}

/** One failed parameter. `field` is the dotted path (`referralFee`, `eventIds.3`). */
export interface ParamIssue {
  field: string;
  message: string;
}

/** Our parameters failed validation before anything was sent. The message names every field. */
export class ParamsError extends JupbotError {
  override name = 'ParamsError';
  declare readonly code: 'JUPITER_INVALID_PARAMS';
  readonly route: string;
  readonly issues: readonly ParamIssue[];
  /** The first failing field. */
  readonly field: string;

  constructor(route: string, issues: ParamIssue[]) {
    const list = issues.map((i) => `${i.field || '(params)'}: ${i.message}`).join('; ');
    super('JUPITER_INVALID_PARAMS', `${route}: invalid parameters: ${list}`, { details: { route, issues } });
    this.route = route;
    this.issues = Object.freeze([...issues]);
    this.field = issues[0]?.field ?? '';
  }
}

/** The code of any error this layer throws, or undefined for foreign errors. */
export function jupiterErrorCode(error: unknown): JupiterErrorCode | undefined {
  if (error instanceof ApiError || error instanceof TransportError || error instanceof ParamsError) return error.code;
  return undefined;
}
