import type { RouteResult, SimRequest } from './http.js';

const WINDOW_MS = 60_000;

/** Products a key can be scoped to, derived from the path. */
export type Product = 'Swap' | 'Tokens' | 'Trigger' | 'Prediction';

export const PRODUCTS: readonly Product[] = ['Swap', 'Tokens', 'Trigger', 'Prediction'];

/** What the gateway answers a key outside its scope (Jupiter's documented text). */
export const NO_ACCESS = { code: 403, message: 'API key does not have access to this endpoint' } as const;

/**
 * What it answers a caller in a region where a product is blocked (prediction markets: US and South
 * Korea). Jupiter documents the block, not its answer: the gateway's `{code, message}` 403 is the
 * likeliest shape, so that is what the simulator sends; the daemon treats every gateway 403 alike.
 */
export const regionBlocked = (product: Product): { code: 403; message: string } => ({ code: 403, message: `${product} is not available in your region` });

export interface ApiKeySpec {
  /** Products the key may call; omitted = all. */
  readonly scopes?: readonly Product[];
  /** Main-bucket quota in requests per 60 s; omitted = the gateway's keyed quota. */
  readonly requestsPerMinute?: number;
}

export interface GatewayOptions {
  /** When set, only these keys are valid (others ⇒ 401) and scopes apply (⇒ 403). Default: any key is valid. */
  readonly keys?: Readonly<Record<string, ApiKeySpec>>;
  /** Default 600 (Developer plan, 10 rps). */
  readonly keyedRequestsPerMinute?: number;
  /** Default 30 (0.5 rps). */
  readonly keylessRequestsPerMinute?: number;
  /** The separate `/execute` bucket. Defaults 3000 keyed (Free: 50 rps) and 1200 keyless (20 rps). */
  readonly executeRequestsPerMinute?: { readonly keyed?: number; readonly keyless?: number };
  /** No quota at all (benchmarks). Key checks still apply. */
  readonly unlimited?: boolean;
  /**
   * Keys limited to some products while every other key stays valid (unlike `keys`): a key scoped in
   * Jupiter's portal. Changed at run time with {@link Gateway.scope}.
   */
  readonly scopes?: Readonly<Record<string, readonly Product[]>>;
  /** Products refused to every caller, as from a region where they are blocked. Changed with {@link Gateway.block}. */
  readonly blocked?: readonly Product[];
}

export type GatewayOutcome = { readonly reject: RouteResult } | { readonly apiKey: string | undefined; readonly headers: Record<string, string> };

export function productOf(path: string): Product | undefined {
  if (path.startsWith('/swap/v2/') || path === '/ultra/v1/order' || path === '/ultra/v1/execute') return 'Swap';
  if (path.startsWith('/tokens/v2/') || path.startsWith('/ultra/v1/')) return 'Tokens';
  if (path.startsWith('/trigger/v2/')) return 'Trigger';
  if (path.startsWith('/prediction/v1/')) return 'Prediction';
  return undefined;
}

const isExecute = (path: string): boolean => path === '/swap/v2/execute' || path === '/ultra/v1/execute';

/**
 * Jupiter's API gateway: key checks, a 60 s sliding window per key (keyless requests share one
 * window), and a separate bucket for `/execute`. Rejected requests do not consume quota: there is no
 * lockout, a slot frees exactly when the oldest counted request leaves the window.
 */
export class Gateway {
  readonly #windows = new Map<string, number[]>();
  readonly #scopes: Map<string, readonly Product[]>;
  #blocked: ReadonlySet<Product>;

  constructor(
    private readonly options: GatewayOptions,
    private readonly now: () => number,
  ) {
    this.#scopes = new Map(Object.entries(options.scopes ?? {}));
    this.#blocked = new Set(options.blocked ?? []);
  }

  /** Limits `key` to `products` from now on (null: every product again). Refused calls cost no quota. */
  scope(key: string, products: readonly Product[] | null): void {
    if (products === null) this.#scopes.delete(key);
    else this.#scopes.set(key, [...products]);
  }

  /** Refuses `products` to every caller from now on, as a blocked region would (empty: none). */
  block(products: readonly Product[]): void {
    this.#blocked = new Set(products);
  }

  check(req: SimRequest): GatewayOutcome {
    const apiKey = req.headers['x-api-key'] || undefined;
    const keys = this.options.keys;
    const product = productOf(req.path);
    let spec: ApiKeySpec | undefined;
    if (apiKey !== undefined && keys) {
      spec = Object.hasOwn(keys, apiKey) ? keys[apiKey] : undefined;
      if (!spec) return { reject: { status: 401, body: { code: 401, message: 'Invalid API key' } } };
    }
    if (product && this.#blocked.has(product)) return { reject: { status: 403, body: regionBlocked(product) } };
    const scopes = spec?.scopes ?? (apiKey === undefined ? undefined : this.#scopes.get(apiKey));
    if (scopes && product && !scopes.includes(product)) return { reject: { status: 403, body: { ...NO_ACCESS } } };
    if (this.options.unlimited) return { apiKey, headers: {} };
    const execute = isExecute(req.path);
    const limit = execute
      ? apiKey === undefined
        ? (this.options.executeRequestsPerMinute?.keyless ?? 1200)
        : (this.options.executeRequestsPerMinute?.keyed ?? 3000)
      : apiKey === undefined
        ? (this.options.keylessRequestsPerMinute ?? 30)
        : (spec?.requestsPerMinute ?? this.options.keyedRequestsPerMinute ?? 600);
    const bucket = `${execute ? 'execute' : 'main'}:${apiKey ?? ''}`;
    const now = this.now();
    let window = this.#windows.get(bucket);
    if (!window) {
      window = [];
      this.#windows.set(bucket, window);
    }
    let drop = 0;
    while (drop < window.length && (window[drop] as number) <= now - WINDOW_MS) drop++;
    if (drop > 0) window.splice(0, drop);
    const admitted = window.length < limit;
    if (admitted) window.push(now);
    const oldest = window[0] ?? now;
    const headers = {
      'x-ratelimit-remaining': String(limit - window.length),
      'x-ratelimit-current': String(window.length),
      'x-ratelimit-reset': String(Math.ceil((oldest + WINDOW_MS) / 1000)),
    };
    if (!admitted) return { reject: { status: 429, body: { code: 429, message: '[API Gateway] Too many requests' }, headers } };
    return { apiKey, headers };
  }
}
