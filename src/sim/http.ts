/** The simulator's own request/response model: plain data, so handlers are synchronous and testable. */
export interface SimRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: string;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** Already serialised: faults may replace it with malformed text. */
  body: string;
  /** Set by a connection-reset fault: the adapter destroys the socket instead of answering. */
  reset?: boolean;
}

export interface RouteRequest extends SimRequest {
  readonly params: Readonly<Record<string, string>>;
  /** The gateway key this request counted against (undefined when keyless). */
  readonly apiKey: string | undefined;
}

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: RouteRequest) => RouteResult;

/** Thrown inside handlers to answer with a given status and body; keeps handlers linear. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'object' && body && 'error' in body ? String(body.error) : `HTTP ${status}`);
  }
}

export const ok = (body: unknown, status = 200): RouteResult => ({ status, body });

/**
 * JSON with bigint support: bigints become decimal strings (Jupiter sends amounts as strings).
 * Key order is insertion order, which every builder here fixes, so answers are byte-stable.
 */
export function toJson(value: unknown): string {
  try {
    // Fast path: most answers hold no bigint, and a replacer function costs a call per key.
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}

/** Parses a JSON body; `undefined` for an empty body, HttpError 400 for malformed JSON. */
export function parseJsonBody(req: SimRequest, error: (message: string) => unknown): unknown {
  if (req.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(req.rawBody) as unknown;
  } catch {
    throw new HttpError(400, error('Invalid JSON body'));
  }
}

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/**
 * A minimal exact-segment router (`:name` captures one segment). No trailing-slash leniency:
 * Jupiter answers 404 for `/orders/price/`, so we do too.
 */
export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.#routes.push({ method, segments: pattern.split('/').slice(1), handler });
    return this;
  }

  /** The handler and captured params, `undefined` if no route matches, `'method'` if only the method is wrong. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string>; pattern: string } | 'method' | undefined {
    const parts = path.split('/').slice(1);
    let methodMismatch = false;
    for (const route of this.#routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i] as string;
        const part = parts[i] as string;
        if (seg.startsWith(':')) {
          if (part === '') {
            matched = false;
            break;
          }
          params[seg.slice(1)] = decodeURIComponent(part);
        } else if (seg !== part) {
          matched = false;
          break;
        }
      }
      if (!matched) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      return { handler: route.handler, params, pattern: `/${route.segments.join('/')}` };
    }
    return methodMismatch ? 'method' : undefined;
  }
}
