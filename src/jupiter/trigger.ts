/**
 * Trigger V2 (area C, `/trigger/v2`, beta): challenge/verify login, vault, deposit craft, price orders
 * (single, OCO, OTOCO, trailing), DCA orders, history. No trailing slashes anywhere (they 404).
 *
 * Authentication: `x-api-key` on every call (the transport); `Authorization: Bearer <JWT>` only on the
 * routes after login, supplied by the `bearer` of an {@link AuthedJupiterClient} (see `withBearer`).
 * Login and JWT caching belong to the session module; this file only makes the calls.
 *
 * Errors keep the `{ error, details }` envelope ({@link TriggerApiError}); codes by status and route:
 * 400 `TRIGGER_VALIDATION_FAILED` (error "Request validation failed", per-field `details`) or
 * `TRIGGER_BAD_REQUEST`; 401 `TRIGGER_UNAUTHORIZED` (re-login); 403 `TRIGGER_FORBIDDEN`;
 * 404 `TRIGGER_NOT_FOUND` / `TRIGGER_VAULT_NOT_FOUND`; 409 `TRIGGER_VAULT_EXISTS` (existing vault in
 * `details`); auth verify 400/401 `TRIGGER_CHALLENGE_REJECTED`. A gateway `{ code, message }` 401/403
 * stays `JUPITER_UNAUTHORIZED` / `JUPITER_FORBIDDEN` (the API key, not the JWT).
 * Only the history reads and GET /vault retry by themselves.
 */
import { z } from 'zod';
import { type JupiterErrorCode, ParamsError, TriggerApiError } from './errors.js';
import {
  CancelDcaOrderResponse,
  CancelOrderResponse,
  ChallengeParams,
  ChallengeResponse,
  ConfirmCancelBody,
  CreateDcaOrderParams,
  CreatePriceOrderParams,
  CreatePriceOrderResponse,
  DcaHistoryItem,
  DcaHistoryQuery,
  DcaHistoryResponse,
  DepositCraftParams,
  DepositCraftResponse,
  OrderHistoryItem,
  OrderHistoryQuery,
  OrderHistoryResponse,
  RegisterVaultResponse,
  TriggerErrorBody,
  TxSignatureResponse,
  UpdatePriceOrderBody,
  UpdatePriceOrderResponse,
  Vault,
  VerifyParams,
  VerifyResponse,
} from './schemas/trigger.js';
import {
  type AuthedJupiterClient,
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
  ChallengeParams,
  ChallengeResponse,
  VerifyParams,
  VerifyResponse,
  Vault,
  RegisterVaultResponse,
  DepositCraftParams,
  DepositCraftResponse,
  CreatePriceOrderParams,
  CreatePriceOrderResponse,
  UpdatePriceOrderResponse,
  CancelOrderResponse,
  TxSignatureResponse,
  OrderHistoryQuery,
  OrderHistoryResponse,
  OrderHistoryItem,
  CreateDcaOrderParams,
  CancelDcaOrderResponse,
  DcaHistoryQuery,
  DcaHistoryResponse,
  DcaHistoryItem,
} from './schemas/trigger.js';

const BASE = '/trigger/v2';

type Overrides = Partial<Record<number, JupiterErrorCode>>;

/** Builds the mapper of a Trigger route: its envelope, generic codes, and the route's own overrides. */
function triggerErrors(overrides: Overrides = {}): (ctx: ErrorContext) => TriggerApiError | undefined {
  return (ctx) => {
    const parsed = TriggerErrorBody.safeParse(ctx.body);
    if (!parsed.success) {
      // The gateway's `{ code, message }` (invalid key, firewall): not a Trigger refusal.
      if (isGatewayBody(ctx.body) && (ctx.status === 401 || ctx.status === 403)) return undefined;
      return new TriggerApiError(errorInit(ctx, overrides[ctx.status] ?? triggerCode(ctx.status, null)), null, null);
    }
    const { error, details } = parsed.data;
    const safeDetails = details ? ((ctx.safeBody as { details?: Record<string, unknown> }).details ?? null) : null;
    return new TriggerApiError(errorInit(ctx, overrides[ctx.status] ?? triggerCode(ctx.status, error)), ctx.scrub(error), safeDetails);
  };
}

function triggerCode(status: number, error: string | null): JupiterErrorCode {
  switch (status) {
    case 400:
      return error === 'Request validation failed' ? 'TRIGGER_VALIDATION_FAILED' : 'TRIGGER_BAD_REQUEST';
    case 401:
      return 'TRIGGER_UNAUTHORIZED';
    case 403:
      return 'TRIGGER_FORBIDDEN';
    case 404:
      return 'TRIGGER_NOT_FOUND';
    default:
      return codeForStatus(status);
  }
}

const ID = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^/?#\s]+$/, 'expected an order id');

function call<S extends z.ZodType>(
  client: JupiterClient,
  spec: Omit<RequestSpec<S>, 'priority' | 'signal' | 'mapError'> & { defaultPriority: number; overrides?: Overrides },
  options: CallOptions,
): Promise<z.output<S>> {
  const { defaultPriority, overrides, ...rest } = spec;
  return client.request({ ...rest, priority: options.priority ?? defaultPriority, signal: options.signal, mapError: triggerErrors(overrides) });
}

/**
 * A Trigger call with the session's JWT. `route` is the path template; `id` fills its one `{…}`
 * segment (validated before, encoded here), so the template and the path cannot disagree.
 */
function authedCall<S extends z.ZodType>(
  client: AuthedJupiterClient,
  route: string,
  spec: Pick<RequestSpec<S>, 'method' | 'body' | 'query' | 'schema' | 'idempotent' | 'expectedStatuses'> & {
    id?: string;
    priority: number;
    overrides?: Overrides;
  },
  options: CallOptions,
): Promise<z.output<S>> {
  const { id, priority, overrides, ...rest } = spec;
  const path = id === undefined ? route : route.replace(/\{\w+\}/, segment(id));
  return call(client, { ...rest, path, route, bearer: client.bearer, defaultPriority: priority, ...(overrides === undefined ? {} : { overrides }) }, options);
}

// ---------------------------------------------------------------------------------------------------
// Auth (no JWT)

/** `POST /auth/challenge`: a text (or a memo-only transaction) to sign; valid 5 minutes. */
export async function requestChallenge(client: JupiterClient, params: ChallengeParams, options: CallOptions = {}): Promise<ChallengeResponse> {
  const route = `${BASE}/auth/challenge`;
  const body = validateParams(route, ChallengeParams, params);
  return await call(
    client,
    { method: 'POST', path: route, route, body, schema: ChallengeResponse, idempotent: false, defaultPriority: Priority.Exit },
    options,
  );
}

/**
 * `POST /auth/verify`: exchanges the signed challenge for a 24 h JWT. 400 (expired/unknown challenge;
 * also what an invalid signature returns live) and 401 (bad signature, per spec) → `TRIGGER_CHALLENGE_REJECTED`.
 * The token is registered with the client's redactor before it is returned.
 */
export async function verifyChallenge(client: JupiterClient, params: VerifyParams, options: CallOptions = {}): Promise<VerifyResponse> {
  const route = `${BASE}/auth/verify`;
  const body = validateParams(route, VerifyParams, params);
  const answer = await call(
    client,
    {
      method: 'POST',
      path: route,
      route,
      body,
      schema: VerifyResponse,
      idempotent: false,
      defaultPriority: Priority.Exit,
      overrides: { 400: 'TRIGGER_CHALLENGE_REJECTED', 401: 'TRIGGER_CHALLENGE_REJECTED' },
    },
    options,
  );
  if (answer.token.length >= 8) client.redactor.add(answer.token);
  return answer;
}

// ---------------------------------------------------------------------------------------------------
// Vault

/** `GET /vault`. 404 → `TRIGGER_VAULT_NOT_FOUND` (call {@link registerVault}). */
export async function getVault(client: AuthedJupiterClient, options: CallOptions = {}): Promise<Vault> {
  const route = `${BASE}/vault`;
  return await authedCall(
    client,
    route,
    { method: 'GET', schema: Vault, priority: Priority.PollState, overrides: { 404: 'TRIGGER_VAULT_NOT_FOUND' }, expectedStatuses: [404] },
    options,
  );
}

/**
 * `GET /vault/register` (a GET that creates): 201 (spec) or 200 (observed) with the new vault.
 * 409 → `TRIGGER_VAULT_EXISTS`, the existing vault in `triggerDetails` (see {@link existingVault}).
 */
export async function registerVault(client: AuthedJupiterClient, options: CallOptions = {}): Promise<Vault> {
  const route = `${BASE}/vault/register`;
  return await authedCall(
    client,
    route,
    { method: 'GET', schema: RegisterVaultResponse, priority: Priority.Place, idempotent: false, overrides: { 409: 'TRIGGER_VAULT_EXISTS' } },
    options,
  );
}

/** The vault carried by a `TRIGGER_VAULT_EXISTS` error, or null. */
export function existingVault(error: unknown): Vault | null {
  if (!(error instanceof TriggerApiError) || error.code !== 'TRIGGER_VAULT_EXISTS' || !error.triggerDetails) return null;
  const direct = Vault.safeParse(error.triggerDetails);
  if (direct.success) return direct.data;
  const nested = Vault.safeParse((error.triggerDetails as { vault?: unknown }).vault);
  return nested.success ? nested.data : null;
}

// ---------------------------------------------------------------------------------------------------
// Deposit

/** `POST /deposit/craft`: an unsigned deposit transaction and its single-use `requestId`. */
export async function craftDeposit(client: AuthedJupiterClient, params: DepositCraftParams, options: CallOptions = {}): Promise<DepositCraftResponse> {
  const route = `${BASE}/deposit/craft`;
  const body = validateParams(route, DepositCraftParams, params);
  return await authedCall(client, route, { method: 'POST', body, schema: DepositCraftResponse, priority: Priority.Place }, options);
}

// ---------------------------------------------------------------------------------------------------
// Price orders

/**
 * `POST /orders/price`: creates a single, OCO or OTOCO (or trailing single) order; the deposit lands
 * during this call. `expiresAt` must be in the future on the client's clock.
 */
export async function createPriceOrder(
  client: AuthedJupiterClient,
  params: CreatePriceOrderParams,
  options: CallOptions = {},
): Promise<CreatePriceOrderResponse> {
  const route = `${BASE}/orders/price`;
  const body = validateParams(route, CreatePriceOrderParams, params);
  if (body.expiresAt <= client.clock.now()) {
    throw new ParamsError(route, [{ field: 'expiresAt', message: `must be in the future (epoch ms), got ${body.expiresAt} at ${client.clock.now()}` }]);
  }
  return await authedCall(client, route, { method: 'POST', body, schema: CreatePriceOrderResponse, priority: Priority.Place }, options);
}

export interface UpdatePriceOrderParams extends z.input<typeof UpdatePriceOrderBody> {
  orderId: string;
}

/** `PATCH /orders/price/{orderId}`: changes trigger/TP/SL prices, trailing bps or slippage of an open order. */
export async function updatePriceOrder(
  client: AuthedJupiterClient,
  params: UpdatePriceOrderParams,
  options: CallOptions = {},
): Promise<UpdatePriceOrderResponse> {
  const route = `${BASE}/orders/price/{orderId}`;
  const { orderId, ...rest } = params;
  const id = validateParams(route, z.object({ orderId: ID }), { orderId }).orderId;
  const body = validateParams(route, UpdatePriceOrderBody, rest);
  return await authedCall(client, route, { method: 'PATCH', id: id, body, schema: UpdatePriceOrderResponse, priority: Priority.Place }, options);
}

/** Step 1 of a cancel: `POST /orders/price/cancel/{orderId}` → an unsigned withdrawal and its `requestId`. */
export async function cancelPriceOrder(client: AuthedJupiterClient, params: { orderId: string }, options: CallOptions = {}): Promise<CancelOrderResponse> {
  const route = `${BASE}/orders/price/cancel/{orderId}`;
  const { orderId } = validateParams(route, z.strictObject({ orderId: ID }), params);
  return await authedCall(client, route, { method: 'POST', id: orderId, schema: CancelOrderResponse, priority: Priority.Exit }, options);
}

export interface ConfirmCancelParams extends ConfirmCancelBody {
  orderId: string;
}

/** Step 2 of a cancel: `POST /orders/price/confirm-cancel/{orderId}` with the signed withdrawal. */
export async function confirmCancelPriceOrder(
  client: AuthedJupiterClient,
  params: ConfirmCancelParams,
  options: CallOptions = {},
): Promise<TxSignatureResponse> {
  const route = `${BASE}/orders/price/confirm-cancel/{orderId}`;
  const { orderId, ...rest } = params;
  const id = validateParams(route, z.object({ orderId: ID }), { orderId }).orderId;
  const body = validateParams(route, ConfirmCancelBody, rest);
  return await authedCall(client, route, { method: 'POST', id: id, body, schema: TxSignatureResponse, priority: Priority.Exit }, options);
}

/** `GET /orders/history`: price orders of the JWT's wallet, offset-paginated. */
export async function getOrderHistory(client: AuthedJupiterClient, params: OrderHistoryQuery = {}, options: CallOptions = {}): Promise<OrderHistoryResponse> {
  const route = `${BASE}/orders/history`;
  const query = validateParams(route, OrderHistoryQuery, params);
  return await authedCall(client, route, { method: 'GET', query, schema: OrderHistoryResponse, priority: Priority.PollState }, options);
}

/**
 * `GET /orders/history/{orderId}`: one price order. Not in the OpenAPI file (seen live);
 * 404 → `TRIGGER_NOT_FOUND` (also for DCA ids).
 */
export async function getPriceOrder(client: AuthedJupiterClient, params: { orderId: string }, options: CallOptions = {}): Promise<OrderHistoryItem> {
  const route = `${BASE}/orders/history/{orderId}`;
  const { orderId } = validateParams(route, z.strictObject({ orderId: ID.refine((s) => s !== 'dca', 'dca is not an order id') }), params);
  return await authedCall(client, route, { method: 'GET', id: orderId, schema: OrderHistoryItem, priority: Priority.PollState }, options);
}

/** Every page of price-order history, following `pagination` (offset += limit until total). */
export async function getAllOrderHistory(
  client: AuthedJupiterClient,
  params: Omit<OrderHistoryQuery, 'offset'> = {},
  options: CallOptions = {},
): Promise<OrderHistoryItem[]> {
  const limit = params.limit ?? 100;
  return await allPages(limit, (offset) => getOrderHistory(client, { ...params, limit, offset }, options));
}

/** Pages cap: 100 pages of 100 is far past any wallet's history; a server that never ends its pages cannot loop us forever. */
const MAX_PAGES = 100;

/** Reads offset-paged history until a short page, the reported total, or {@link MAX_PAGES}. */
async function allPages<T>(limit: number, page: (offset: number) => Promise<{ orders: T[]; pagination: { total?: number | null | undefined } }>): Promise<T[]> {
  const out: T[] = [];
  for (let n = 0, offset = 0; n < MAX_PAGES; n++, offset += limit) {
    const { orders, pagination } = await page(offset);
    out.push(...orders);
    const total = pagination.total ?? null;
    if (orders.length < limit || (total !== null && offset + limit >= total)) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// DCA

/** `POST /orders/dca`: creates a vault DCA order from a crafted (orderType `dca`) deposit. */
export async function createDcaOrder(client: AuthedJupiterClient, params: CreateDcaOrderParams, options: CallOptions = {}): Promise<TxSignatureResponse> {
  const route = `${BASE}/orders/dca`;
  const body = validateParams(route, CreateDcaOrderParams, params);
  return await authedCall(client, route, { method: 'POST', body, schema: TxSignatureResponse, priority: Priority.Place }, options);
}

/** `GET /orders/history/dca`. */
export async function getDcaHistory(client: AuthedJupiterClient, params: DcaHistoryQuery = {}, options: CallOptions = {}): Promise<DcaHistoryResponse> {
  const route = `${BASE}/orders/history/dca`;
  const query = validateParams(route, DcaHistoryQuery, params);
  return await authedCall(client, route, { method: 'GET', query, schema: DcaHistoryResponse, priority: Priority.PollState }, options);
}

/** Every page of DCA history for `params` (all of `state: 'active'`, say), read in order. */
export async function getAllDcaHistory(
  client: AuthedJupiterClient,
  params: Omit<DcaHistoryQuery, 'offset'> = {},
  options: CallOptions = {},
): Promise<DcaHistoryItem[]> {
  const limit = params.limit ?? 100;
  return await allPages(limit, (offset) => getDcaHistory(client, { ...params, limit, offset }, options));
}

/** `GET /orders/history/dca/{id}`: one DCA order. */
export async function getDcaOrder(client: AuthedJupiterClient, params: { id: string }, options: CallOptions = {}): Promise<DcaHistoryItem> {
  const route = `${BASE}/orders/history/dca/{id}`;
  const { id } = validateParams(route, z.strictObject({ id: ID }), params);
  return await authedCall(client, route, { method: 'GET', id: id, schema: DcaHistoryItem, priority: Priority.PollState }, options);
}

/** Step 1 of a DCA cancel: `POST /orders/dca/cancel/{id}` → withdrawal transaction, rounds left, refund. */
export async function cancelDcaOrder(client: AuthedJupiterClient, params: { id: string }, options: CallOptions = {}): Promise<CancelDcaOrderResponse> {
  const route = `${BASE}/orders/dca/cancel/{id}`;
  const { id } = validateParams(route, z.strictObject({ id: ID }), params);
  return await authedCall(client, route, { method: 'POST', id: id, schema: CancelDcaOrderResponse, priority: Priority.Exit }, options);
}

export interface ConfirmCancelDcaParams extends ConfirmCancelBody {
  id: string;
}

/** Step 2 of a DCA cancel: `POST /orders/dca/confirm-cancel/{id}`. */
export async function confirmCancelDcaOrder(
  client: AuthedJupiterClient,
  params: ConfirmCancelDcaParams,
  options: CallOptions = {},
): Promise<TxSignatureResponse> {
  const route = `${BASE}/orders/dca/confirm-cancel/{id}`;
  const { id, ...rest } = params;
  const orderId = validateParams(route, z.object({ id: ID }), { id }).id;
  const body = validateParams(route, ConfirmCancelBody, rest);
  return await authedCall(client, route, { method: 'POST', id: orderId, body, schema: TxSignatureResponse, priority: Priority.Exit }, options);
}
