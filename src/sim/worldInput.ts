import type { SimRequest } from './http.js';

/**
 * One thing from outside that changed the simulated world: a request to a route that writes, or a
 * control action. The world is a function of its seed, its genesis instant and these inputs at their
 * instants (time itself moves in fixed steps), so replaying them rebuilds it exactly: that is how a
 * paper world outlives the process that ran it.
 */
export type WorldInput = RequestInput | ControlInput;

export interface RequestInput {
  readonly kind: 'request';
  /** World time (epoch ms) the request was answered at. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  /** The query string without '?'. */
  readonly query: string;
  /** The one header a route reads: the Trigger API's bearer token (a token the simulated world issued). */
  readonly authorization: string | null;
  readonly body: string;
}

export interface ControlInput {
  readonly kind: 'control';
  readonly at: number;
  readonly op: ControlOp;
  /** JSON-safe arguments (amounts as decimal strings). */
  readonly args: readonly (string | number | boolean)[];
}

export type ControlOp =
  'setPrice' | 'setMark' | 'fund' | 'transfer' | 'paperWallet' | 'settleMarket' | 'setScore' | 'setTradingActive' | 'forgetOrders' | 'pastOrders';

/** GET routes that write: a swap order keeps its transaction until executed; registering creates a vault. */
const WRITING_GETS = new Set(['/swap/v2/order', '/ultra/v1/order', '/trigger/v2/vault/register']);

/** Solana RPC methods that change the chain (a batch writes when any of its calls does). */
function rpcWrites(rawBody: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return false;
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  return calls.some((call) => typeof call === 'object' && call !== null && (call as { method?: unknown }).method === 'sendTransaction');
}

/**
 * Does answering `req` change the world? Every method but GET writes, and the GETs listed above. A
 * read answered from the world's state leaves it as it was, so it need not be kept.
 */
export function writesWorld(req: SimRequest, rpcCall: boolean): boolean {
  if (rpcCall) return rpcWrites(req.rawBody);
  return req.method !== 'GET' || WRITING_GETS.has(req.path);
}

/** The input a request makes, as kept: time, route, query, bearer token and body. */
export function requestInput(req: SimRequest, at: number): RequestInput {
  return {
    kind: 'request',
    at,
    method: req.method,
    path: req.path,
    query: req.query.toString(),
    authorization: req.headers['authorization'] ?? null,
    body: req.rawBody,
  };
}

/** The request a kept input stands for. */
export function inputRequest(input: RequestInput): SimRequest {
  return {
    method: input.method,
    path: input.path,
    query: new URLSearchParams(input.query),
    headers: input.authorization === null ? {} : { authorization: input.authorization },
    rawBody: input.body,
  };
}
