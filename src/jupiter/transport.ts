/**
 * The one seam every Jupiter call goes through: `client.request(spec)`. It carries the API key, the
 * rate limiter (one bucket per gateway bucket, priorities), timeouts, the retry policy for reads,
 * response parsing with zod, typed errors, events for metrics, and logging — all with secrets
 * scrubbed. Endpoint functions (tokens.ts, swapApi.ts, trigger.ts, prediction.ts) only describe their
 * request and call it.
 *
 * Two clocks, both injected: the rate limiter's windows and pauses follow `clock`, the server's time
 * (paper mode's simulator shares it, sped up or not); a request's timeout, its measured duration and
 * the backoff between attempts follow `timer`, real time (`realTimeOf(clock)`), because the network
 * is as slow as it is whatever the simulation's speed. A ManualClock is both, so tests drive all of it.
 */
import type { z } from 'zod';
import { type Clock, realTimeOf } from '../clock.js';
import type { Logger } from '../ops/log.js';
import { Redactor } from '../ops/redact.js';
import { linkSignals } from './abort.js';
import type { Random } from '../random.js';
import { type ApiError, type HttpMethod, type RequestContext, TransportError } from './errors.js';
import { failureLine, type FailureAttempt } from './failureLine.js';
import { bodyReason, defaultApiError, type ErrorContext, normaliseBaseUrl, buildUrl, type QueryParams, LEGACY_SWAP_PATH, SWAP_PATH } from './http.js';
import { TypedEmitter } from '../typedEmitter.js';
import type { JupiterEvents } from './events.js';
import { type Bucket, bucketFor } from './bucket.js';
import { BucketLimiter, executeRequestsPerSecond, LimiterClosedError, Priority, quotaPerWindow } from './limiter.js';
import { isRetryable, rateLimitPauseMs, retryDelayMs } from './retry.js';
import type { SharedQuota } from './sharedGate.js';
import { API_KEY_HEADER, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from './schemas/common.js';

/** Ends a request's timeout sleep once it is answered: one shared reason, not a DOMException (with its stack) per request. */
const ANSWERED = new Error('answered');

export interface JupiterClientOptions {
  /** Root URL of the API (`https://api.jup.ag`, the simulator's, or nock's). A trailing `/ultra/v1` or `/swap/v2` is stripped (legacy configs; one warning). */
  baseUrl: string;
  /** Sent as `x-api-key` on every request; without it requests are keyless (0.5 RPS). Registered with the redactor. */
  apiKey?: string | undefined;
  /** The plan's main-bucket rate (`api.requests_per_second`). */
  requestsPerSecond: number;
  /** The execute bucket's rate. @default by plan: keyless 20, Free 50, paid 100 */
  executeRequestsPerSecond?: number;
  clock: Clock;
  /**
   * Real time, for what guards against a slow network: each attempt's timeout, its measured duration,
   * the backoff before a retry. @default realTimeOf(clock): the base of a scaled (paper `sim.speed`) clock
   */
  timer?: Clock;
  /** Jitter for backoff. */
  random: Random;
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  logger?: Logger | undefined;
  /** Share the daemon's redactor so every secret it knows is scrubbed here too. @default a new one */
  redactor?: Redactor;
  /** Per-attempt timeout, in real time (`timer`); 0 disables. @default 15000 */
  timeoutMs?: number;
  /** Attempts of an idempotent read, first included. @default 4 */
  maxReadAttempts?: number;
  /** The server's rate-limit window. @default 60000 */
  windowMs?: number;
  /** Extra window length that absorbs clock-rate differences with the server (see limiter.ts). @default 50 */
  guardMs?: number;
  /**
   * The fleet's shared quota (src/fleet/sharedQuota.ts): each bucket also asks it for a slot, and
   * `close()` closes it. @default none: the limiter is this client's own
   */
  sharedQuota?: SharedQuota | undefined;
}

/** What an endpoint function hands to the transport. */
export interface RequestSpec<S extends z.ZodType> extends Partial<Pick<RequestContext, 'idempotent'>> {
  method: HttpMethod;
  /** The concrete path (ids encoded), starting with the area prefix: `/trigger/v2/orders/price/abc`. */
  path: string;
  /** The path template for errors and metrics: `/trigger/v2/orders/price/{orderId}`. */
  route: string;
  query?: QueryParams;
  /** JSON body. */
  body?: unknown;
  /** Schema of the success body. */
  schema: S;
  priority: number;
  /** Supplies the Trigger JWT for `Authorization: Bearer` (only on routes that need it). */
  bearer?: (() => Promise<string>) | undefined;
  /** Maps an error answer to a product-specific typed error; falls back to {@link defaultApiError}. */
  mapError?: ((ctx: ErrorContext) => ApiError | undefined) | undefined;
  signal?: AbortSignal | undefined;
  /** Error statuses that are a normal answer for this call, which the caller handles (a vault not registered yet): logged at debug. */
  expectedStatuses?: readonly number[] | undefined;
  /** Called with the status and gateway request id of a successful answer (for 200-with-failure errors). */
  onResponse?: ((info: { status: number; requestId: string | null }) => void) | undefined;
}

/** Options every endpoint function takes last. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the endpoint's default priority class. */
  priority?: Priority | undefined;
}

/** The client handle endpoint functions take first. */
export interface JupiterClient {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly events: TypedEmitter<JupiterEvents>;
  readonly redactor: Redactor;
  /** Configuration problems worked around at construction (also logged once, at warn). */
  readonly warnings: readonly { code: string; message: string }[];
  /** Sends one request through its bucket; returns the parsed success body or throws a typed error. */
  request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>>;
  /** A bucket's limiter (queue depth, pause state), for metrics and tests. */
  limiter(bucket: Bucket): BucketLimiter;
  /** Rejects queued requests and stops the limiters. In-flight requests finish. */
  close(): void;
}

/** A client whose Trigger calls carry a JWT. A session module builds the `bearer` function. */
export interface AuthedJupiterClient extends JupiterClient {
  readonly bearer: () => Promise<string>;
}

/** Attaches a JWT supplier to a client for the Trigger routes that need `Authorization`. */
export function withBearer(client: JupiterClient, bearer: () => Promise<string>): AuthedJupiterClient {
  return {
    baseUrl: client.baseUrl,
    clock: client.clock,
    events: client.events,
    redactor: client.redactor,
    warnings: client.warnings,
    request: (spec) => client.request(spec),
    limiter: (bucket) => client.limiter(bucket),
    close: () => client.close(),
    bearer,
  };
}

/** Creates the client. Validates options up front (TypeError naming the option). */
export function createJupiterClient(options: JupiterClientOptions): JupiterClient {
  return new HttpJupiterClient(options);
}

class HttpJupiterClient implements JupiterClient {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly events = new TypedEmitter<JupiterEvents>();
  readonly redactor: Redactor;
  readonly warnings: { code: string; message: string }[] = [];
  readonly #timer: Clock;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #random: Random;
  readonly #logger: Logger | undefined;
  readonly #timeoutMs: number;
  readonly #maxReadAttempts: number;
  readonly #limiters: Record<Bucket, BucketLimiter>;
  readonly #consecutive429s: Record<Bucket, number> = { main: 0, execute: 0 };
  readonly #sharedQuota: SharedQuota | undefined;

  constructor(options: JupiterClientOptions) {
    const { root, legacy, stripped } = normaliseBaseUrl(options.baseUrl);
    this.baseUrl = root;
    this.clock = options.clock;
    this.#timer = options.timer ?? realTimeOf(options.clock);
    this.#random = options.random;
    this.#logger = options.logger;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.redactor = options.redactor ?? new Redactor();
    if (options.apiKey !== undefined) {
      if (options.apiKey.trim().length < 8) throw new TypeError('Expected `apiKey` to be a Jupiter API key (at least 8 characters), got a shorter string');
      this.#apiKey = options.apiKey;
      this.redactor.add(options.apiKey);
    }
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    if (!(this.#timeoutMs >= 0)) throw new TypeError(`Expected \`timeoutMs\` to be >= 0, got \`${this.#timeoutMs}\``);
    this.#maxReadAttempts = options.maxReadAttempts ?? 4;
    if (!Number.isInteger(this.#maxReadAttempts) || this.#maxReadAttempts < 1) {
      throw new TypeError(`Expected \`maxReadAttempts\` to be an integer from 1 and up, got \`${this.#maxReadAttempts}\``);
    }
    const keyless = this.#apiKey === undefined;
    const common = { clock: this.clock, events: this.events, windowMs: options.windowMs ?? 60_000, guardMs: options.guardMs ?? 50 };
    const quotas: Record<Bucket, number> = {
      main: quotaPerWindow(options.requestsPerSecond),
      execute: quotaPerWindow(options.executeRequestsPerSecond ?? executeRequestsPerSecond(options.requestsPerSecond, keyless)),
    };
    this.#sharedQuota = options.sharedQuota;
    const shared = (bucket: Bucket): { shared?: ReturnType<SharedQuota['gate']> } =>
      this.#sharedQuota ? { shared: this.#sharedQuota.gate(bucket, quotas[bucket]) } : {};
    this.#limiters = {
      main: new BucketLimiter({ bucket: 'main', quota: quotas.main, ...common, ...shared('main') }),
      execute: new BucketLimiter({ bucket: 'execute', quota: quotas.execute, ...common, ...shared('execute') }),
    };
    if (stripped !== null) {
      const message = legacy
        ? `api.base_url ends with the legacy ${LEGACY_SWAP_PATH}; using ${root} with ${SWAP_PATH} for swaps (Ultra v1 is unmaintained)`
        : `api.base_url should be the API root; stripped ${stripped} and using ${root}`;
      this.#logger?.warn({ baseUrl: root, stripped }, message);
      this.warnings.push({ code: legacy ? 'JUPITER_LEGACY_BASE_URL' : 'JUPITER_BASE_URL_PATH', message });
    }
  }

  limiter(bucket: Bucket): BucketLimiter {
    return this.#limiters[bucket];
  }

  close(): void {
    this.#limiters.main.close();
    this.#limiters.execute.close();
    this.#sharedQuota?.close();
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const ctx: RequestContext = { method: spec.method, route: spec.route, idempotent: spec.idempotent ?? spec.method === 'GET' };
    const bucket = bucketFor(spec.path);
    const limiter = this.#limiters[bucket];
    const maxAttempts = ctx.idempotent ? this.#maxReadAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      // The JWT first, so a failed login neither spends a rate-limit slot nor is retried here: its error
      // (the session's own typed error) propagates unchanged.
      const token = spec.bearer ? await spec.bearer() : undefined;
      if (token !== undefined && token.length >= 8) this.redactor.add(token);
      try {
        const slot = await limiter.acquire(spec.priority, spec.route, spec.signal).catch((error: unknown) => {
          throw this.#queueError(ctx, error, spec.signal);
        });
        try {
          return await this.#exchange(spec, ctx, bucket, attempt, token);
        } finally {
          slot.end();
        }
      } catch (error) {
        if (attempt >= maxAttempts || !isRetryable(error, ctx.method, ctx.idempotent)) {
          this.#logFailure(error, { attempt, maxAttempts, retryInMs: null, expected: spec.expectedStatuses });
          throw error;
        }
        const delayMs = retryDelayMs(error, attempt, this.#random);
        this.#logFailure(error, { attempt, maxAttempts, retryInMs: delayMs, expected: spec.expectedStatuses });
        const code = (error as ApiError | TransportError).code;
        this.events.emit('retry', { method: ctx.method, route: ctx.route, attempt, delayMs, code });
        if (delayMs > 0) {
          await this.#timer.sleep(delayMs, spec.signal).catch((e: unknown) => {
            throw new TransportError(ctx, 'aborted', 'aborted while waiting to retry', { cause: e, sent: false });
          });
        }
      }
    }
  }

  #queueError(ctx: RequestContext, error: unknown, signal: AbortSignal | undefined): TransportError {
    if (error instanceof LimiterClosedError) return new TransportError(ctx, 'closed', 'the client is closed', { cause: error, sent: false });
    if (signal?.aborted) return new TransportError(ctx, 'aborted', 'aborted while queued for a rate-limit slot', { cause: error, sent: false });
    return new TransportError(ctx, 'network', 'failed while queued', { cause: error, sent: false });
  }

  async #exchange<S extends z.ZodType>(
    spec: RequestSpec<S>,
    ctx: RequestContext,
    bucket: Bucket,
    attempt: number,
    token: string | undefined,
  ): Promise<z.output<S>> {
    const url = buildUrl(this.baseUrl, spec.path, spec.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#apiKey !== undefined) headers[API_KEY_HEADER] = this.#apiKey;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;

    const link = linkSignals(spec.signal);
    const signal = link.signal;
    const stopTimer = new AbortController();
    let timedOut = false;
    if (this.#timeoutMs > 0) {
      this.#timer.sleep(this.#timeoutMs, stopTimer.signal).then(
        () => {
          timedOut = true;
          link.abort(new Error(`timed out after ${this.#timeoutMs} ms`));
        },
        () => undefined,
      );
    }
    const started = this.#timer.monotonic();
    const finish = (status: number | null, requestId: string | null, code: string | null, reason: string | null = null): void => {
      const durationMs = this.#timer.monotonic() - started;
      this.events.emit('request', { method: ctx.method, route: ctx.route, bucket, status, durationMs, attempt, requestId, code, reason });
      // Failures are logged where the retry decision is made (#logFailure), so the line can say what happens next.
      if (code === null) this.#logger?.debug({ method: ctx.method, route: ctx.route, bucket, status, durationMs, attempt, requestId }, 'jupiter request');
    };
    const fail = (
      kind: 'network' | 'timeout' | 'aborted' | 'malformed',
      message: string,
      cause: unknown,
      status: number | null,
      requestId: string | null,
    ): TransportError => {
      const error = new TransportError(ctx, kind, this.redactor.scrubText(message), { cause: this.redactor.scrub(cause), status, requestId });
      finish(status, requestId, error.code);
      return error;
    };

    try {
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: spec.method,
          headers,
          ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
          signal,
        });
      } catch (error) {
        throw this.#transportFailure(fail, error, timedOut, spec.signal, null, null);
      }
      const requestId = response.headers.get(REQUEST_ID_HEADER);
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw this.#transportFailure(fail, error, timedOut, spec.signal, response.status, requestId);
      }
      this.#observeRateLimit(bucket, response);

      let json: unknown;
      let jsonOk = true;
      try {
        json = text.length === 0 ? undefined : JSON.parse(text);
      } catch (error) {
        jsonOk = false;
        json = text;
        if (response.ok) throw fail('malformed', `the ${response.status} body is not JSON`, error, response.status, requestId);
      }

      if (!response.ok) {
        const error = this.#apiError(spec, ctx, bucket, response, json, jsonOk, requestId);
        finish(
          response.status,
          requestId,
          error.code,
          bodyReason({ body: jsonOk ? json : String(json), scrub: (text) => this.redactor.scrubText(text) }) ?? null,
        );
        throw error;
      }
      this.#consecutive429s[bucket] = 0;
      const parsed = spec.schema.safeParse(json);
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`);
        const error = new TransportError(ctx, 'schema', `the ${response.status} body does not match the expected shape: ${issues.join('; ')}`, {
          cause: this.redactor.scrub(parsed.error),
          status: response.status,
          requestId,
        });
        finish(response.status, requestId, error.code);
        throw error;
      }
      finish(response.status, requestId, null);
      spec.onResponse?.({ status: response.status, requestId });
      return parsed.data;
    } finally {
      stopTimer.abort(ANSWERED);
      link.dispose();
    }
  }

  /** One line per failed exchange (failureLine.ts), logged where the retry decision is made. */
  #logFailure(error: unknown, at: FailureAttempt): void {
    const line = failureLine(error, at);
    if (line) this.#logger?.[line.level](line.fields, line.msg);
  }

  #transportFailure(
    fail: (
      kind: 'network' | 'timeout' | 'aborted' | 'malformed',
      message: string,
      cause: unknown,
      status: number | null,
      requestId: string | null,
    ) => TransportError,
    error: unknown,
    timedOut: boolean,
    callerSignal: AbortSignal | undefined,
    status: number | null,
    requestId: string | null,
  ): TransportError {
    if (timedOut) return fail('timeout', `no answer within ${this.#timeoutMs} ms`, error, status, requestId);
    if (callerSignal?.aborted) return fail('aborted', 'aborted by the caller', error, status, requestId);
    const detail = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
    return fail('network', detail, error, status, requestId);
  }

  #observeRateLimit(bucket: Bucket, response: Response): void {
    const remaining = response.headers.get(RATE_LIMIT_HEADERS.remaining);
    if (response.status === 429 || remaining === null) return;
    const left = Number(remaining);
    if (!Number.isFinite(left) || left > 0) return;
    const pause = rateLimitPauseMs({ retryAfter: null, reset: response.headers.get(RATE_LIMIT_HEADERS.reset) }, this.clock.now(), 1, this.#random);
    if (pause.source === 'reset') this.#limiters[bucket].pauseFor(pause.waitMs, 'server-remaining', 'x-ratelimit-reset');
  }

  #apiError<S extends z.ZodType>(
    spec: RequestSpec<S>,
    ctx: RequestContext,
    bucket: Bucket,
    response: Response,
    json: unknown,
    jsonOk: boolean,
    requestId: string | null,
  ): ApiError {
    let retryAfterMs: number | null = null;
    if (response.status === 429) {
      this.#consecutive429s[bucket] += 1;
      const pause = rateLimitPauseMs(
        { retryAfter: response.headers.get('retry-after'), reset: response.headers.get(RATE_LIMIT_HEADERS.reset) },
        this.clock.now(),
        this.#consecutive429s[bucket],
        this.#random,
      );
      retryAfterMs = pause.waitMs;
      this.#limiters[bucket].pauseFor(pause.waitMs, '429', pause.source);
    }
    const scrub = (text: string): string => this.redactor.scrubText(text);
    const errorContext: ErrorContext = {
      ...ctx,
      status: response.status,
      body: jsonOk ? json : String(json),
      safeBody: this.redactor.scrub(json),
      requestId,
      retryAfterMs,
      scrub,
    };
    if (response.status === 429) return defaultApiError(errorContext);
    return spec.mapError?.(errorContext) ?? defaultApiError(errorContext);
  }
}

export { Priority };
export * from './http.js';
