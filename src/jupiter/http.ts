/**
 * The HTTP-level helpers of the transport: base URL normalisation, URL building, parameter validation
 * and the generic mapping of an error answer to an {@link ApiError}. Pure functions; re-exported by
 * transport.ts, which is what endpoint modules import.
 */
import type { z } from 'zod';
import { ApiError, type ApiErrorInit, type JupiterErrorCode, ParamsError, type RequestContext } from './errors.js';

/** The default root of every API area. */
export const DEFAULT_BASE_URL = 'https://api.jup.ag';
/** The maintained swap API. */
export const SWAP_PATH = '/swap/v2';
/** The legacy swap API, accepted in configuration and mapped to {@link SWAP_PATH}. */
export const LEGACY_SWAP_PATH = '/ultra/v1';

/** Query parameters of a request. Arrays are sent comma-joined. */
export type QueryParams = Record<string, string | number | boolean | readonly string[] | undefined>;

/** Everything an error mapper knows about a refused request. */
export interface ErrorContext extends RequestContext {
  status: number;
  /** The parsed JSON body (or the raw text when it was not JSON). May hold secrets: don't store it. */
  body: unknown;
  /** The body scrubbed of secrets: store this one. */
  safeBody: unknown;
  requestId: string | null;
  retryAfterMs: number | null;
  /** Scrubs a text before it goes into a message. */
  scrub: (text: string) => string;
}

/** Strips a legacy area suffix off a configured base URL. `legacy` tells whether `/ultra/v1` was given. */
export function normaliseBaseUrl(baseUrl: string): { root: string; legacy: boolean; stripped: string | null } {
  let root = baseUrl.trim().replace(/\/+$/, '');
  let stripped: string | null = null;
  for (const suffix of [LEGACY_SWAP_PATH, SWAP_PATH]) {
    if (root.endsWith(suffix)) {
      root = root.slice(0, -suffix.length).replace(/\/+$/, '');
      stripped = suffix;
      break;
    }
  }
  const url = new URL(root);
  if (url.username || url.password) throw new TypeError('Expected `baseUrl` without credentials; the API key goes in `apiKey`');
  return { root, legacy: stripped === LEGACY_SWAP_PATH, stripped };
}

/** Builds the request URL. Arrays are joined with commas; booleans become "true"/"false"; undefined is skipped. */
export function buildUrl(root: string, path: string, query?: QueryParams): string {
  const url = new URL(root + path);
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
  }
  return url.toString();
}

/** Percent-encodes one path segment (an id from a caller never changes the route). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

const STATUS_CODES: Record<number, JupiterErrorCode> = {
  400: 'JUPITER_BAD_REQUEST',
  401: 'JUPITER_UNAUTHORIZED',
  403: 'JUPITER_FORBIDDEN',
  404: 'JUPITER_NOT_FOUND',
  409: 'JUPITER_CONFLICT',
  429: 'JUPITER_RATE_LIMITED',
};

/** The generic code for an HTTP status. */
export function codeForStatus(status: number): JupiterErrorCode {
  return STATUS_CODES[status] ?? (status >= 500 ? 'JUPITER_SERVER_ERROR' : 'JUPITER_HTTP_ERROR');
}

/** The human reason of an error body: gateway `message`, product `error`, or raw text; scrubbed and cut. */
export function bodyReason(ctx: Pick<ErrorContext, 'body' | 'scrub'>): string | undefined {
  const b = ctx.body;
  let text: string | undefined;
  if (typeof b === 'string') text = b;
  else if (b && typeof b === 'object') {
    const o = b as Record<string, unknown>;
    const candidate = o['error'] ?? o['message'];
    if (typeof candidate === 'string') text = candidate;
  }
  if (text === undefined || text.length === 0) return undefined;
  const one = ctx.scrub(text).replace(/\s+/g, ' ').trim();
  return one.length > 300 ? `${one.slice(0, 300)}…` : one;
}

/** ApiError init fields from an error context. */
export function errorInit(ctx: ErrorContext, code: JupiterErrorCode, reason = bodyReason(ctx)): ApiErrorInit {
  return {
    code,
    status: ctx.status,
    method: ctx.method,
    route: ctx.route,
    idempotent: ctx.idempotent,
    reason,
    requestId: ctx.requestId,
    body: ctx.safeBody,
    retryAfterMs: ctx.retryAfterMs,
  };
}

/** Whether a body is the gateway's own `{ code, message }` (no product envelope). */
export function isGatewayBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const o = body as Record<string, unknown>;
  return typeof o['message'] === 'string' && !('error' in o) && !('type' in o);
}

/** The generic mapping: a code from the status, the reason from the body. */
export function defaultApiError(ctx: ErrorContext): ApiError {
  return new ApiError(errorInit(ctx, codeForStatus(ctx.status)));
}

/** Validates params with a zod schema; throws {@link ParamsError} naming every failing field. */
export function validateParams<S extends z.ZodType>(route: string, schema: S, params: unknown): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  throw new ParamsError(
    route,
    result.error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message })),
  );
}
