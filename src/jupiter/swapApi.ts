/**
 * Swap (area B): `GET /swap/v2/order` and `POST /swap/v2/execute`. A legacy `/ultra/v1` base in the
 * configuration is mapped to `/swap/v2` by the transport (one warning); these functions always call V2.
 *
 * Errors:
 * - order 200 with a price but `transaction: ""` → {@link SwapOrderError}, code from `router` +
 *   `errorCode` (`SWAP_ORDER_INSUFFICIENT_FUNDS`, …), never from the message text; the quote is kept.
 * - order 400 `{ requestId?, error }` → ApiError `JUPITER_BAD_REQUEST`; 500 → `JUPITER_SERVER_ERROR`.
 * - execute 200 `status: "Failed"` and 400 `{ error, code }` → {@link ExecuteFailedError}
 *   `SWAP_EXECUTE_FAILED` with `executeCode`; 5xx → ExecuteFailedError `JUPITER_SERVER_ERROR` with
 *   `outcomeUnknown: true` (the transaction may have landed: reconcile by signature).
 * Execute never retries by itself. Re-sending the same signed bytes with the same `requestId` is safe
 * (Jupiter does not double-execute), and is the caller's decision.
 */
import { ExecuteFailedError, SwapOrderError } from './errors.js';
import { EXECUTE_CODES, ExecuteErrorBody, ExecuteParams, ExecuteResponse, OrderParams, OrderResponse } from './schemas/swapWire.js';
import { type CallOptions, type ErrorContext, errorInit, type JupiterClient, Priority, SWAP_PATH, validateParams } from './transport.js';

export type { OrderParams, ExecuteParams } from './schemas/swapWire.js';
export type { OrderResponse, ExecuteResponse } from './schemas/swapWire.js';

const ORDER_ROUTE = `${SWAP_PATH}/order`;
const EXECUTE_ROUTE = `${SWAP_PATH}/execute`;

/**
 * Gets a quote and, with `taker`, an unsigned transaction. Validates every parameter before sending.
 * @throws SwapOrderError when a taker was given and the transaction could not be built.
 */
export async function order(client: JupiterClient, params: OrderParams, options: CallOptions = {}): Promise<OrderResponse> {
  const p = validateParams(ORDER_ROUTE, OrderParams, params);
  let requestId: string | null = null;
  const quote = await client.request({
    onResponse: (info) => (requestId = info.requestId),
    method: 'GET',
    path: ORDER_ROUTE,
    route: ORDER_ROUTE,
    query: p,
    schema: OrderResponse,
    priority: options.priority ?? Priority.Place,
    signal: options.signal,
  });
  if (p.taker !== undefined && (quote.transaction === '' || (quote.errorCode !== undefined && quote.errorCode !== null))) {
    const reason = quote.errorMessage ?? quote.error ?? undefined;
    throw new SwapOrderError(
      {
        status: 200,
        method: 'GET',
        route: ORDER_ROUTE,
        idempotent: true,
        reason: reason === undefined ? `router ${quote.router ?? '?'} errorCode ${quote.errorCode ?? '?'}` : client.redactor.scrubText(reason),
        requestId,
        body: client.redactor.scrub(quote),
      },
      { router: quote.router ?? null, errorCode: quote.errorCode ?? null, orderRequestId: quote.requestId, quote },
    );
  }
  return quote;
}

/**
 * Whether the taker pays no signature fee on this quote: `signatureFeePayer !== taker`. This is the
 * documented deterministic check (the `gasless` flag has several causes). False when the taker is unknown.
 */
export function isGasless(quote: Pick<OrderResponse, 'signatureFeePayer' | 'taker'>, taker: string | null | undefined = quote.taker): boolean {
  if (taker === null || taker === undefined || quote.signatureFeePayer === null || quote.signatureFeePayer === undefined) return false;
  return quote.signatureFeePayer !== taker;
}

/** The documented meaning of an execute `code`, or a generic one (program errors are positive). */
export function describeExecuteCode(code: number): string {
  return EXECUTE_CODES[code] ?? (code > 0 ? `on-chain program error ${code} (landed and failed)` : `undocumented code ${code}`);
}

function executeError(ctx: ErrorContext): ExecuteFailedError {
  const body = ExecuteErrorBody.safeParse(ctx.body);
  const executeCode = body.success ? (body.data.code ?? null) : null;
  const signature = body.success ? (body.data.signature ?? null) : null;
  const code =
    ctx.status >= 500
      ? 'JUPITER_SERVER_ERROR'
      : ctx.status === 400
        ? 'SWAP_EXECUTE_FAILED'
        : ctx.status === 401
          ? 'JUPITER_UNAUTHORIZED'
          : ctx.status === 403
            ? 'JUPITER_FORBIDDEN'
            : 'JUPITER_HTTP_ERROR';
  return new ExecuteFailedError(errorInit(ctx, code), { executeCode, signature, response: ctx.safeBody });
}

/**
 * Submits the signed transaction of an order. Uses the separate execute bucket.
 * @throws ExecuteFailedError on `status: "Failed"` (HTTP 200) and on 400/5xx answers.
 */
export async function execute(client: JupiterClient, params: ExecuteParams, options: CallOptions = {}): Promise<ExecuteResponse> {
  const body = validateParams(EXECUTE_ROUTE, ExecuteParams, params);
  let requestId: string | null = null;
  const result = await client.request({
    onResponse: (info) => (requestId = info.requestId),
    method: 'POST',
    path: EXECUTE_ROUTE,
    route: EXECUTE_ROUTE,
    body,
    schema: ExecuteResponse,
    priority: options.priority ?? Priority.Place,
    signal: options.signal,
    mapError: executeError,
  });
  if (result.status !== 'Success') {
    const executeCode = result.code ?? null;
    const reason = `${result.status}${executeCode === null ? '' : ` code ${executeCode} (${describeExecuteCode(executeCode)})`}${result.error ? `: ${client.redactor.scrubText(result.error)}` : ''}`;
    throw new ExecuteFailedError(
      {
        code: 'SWAP_EXECUTE_FAILED',
        status: 200,
        method: 'POST',
        route: EXECUTE_ROUTE,
        idempotent: false,
        reason,
        requestId,
        body: client.redactor.scrub(result),
      },
      { executeCode, signature: result.signature ?? null, response: result },
    );
  }
  return result;
}
