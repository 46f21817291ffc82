import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import { bindOpsPort, type BoundOpsPort } from './opsPort.js';
import { sharedFor } from './sharedFor.js';

/** One readiness check: a name and a probe that says whether that part can do its job now. */
export interface ReadinessCheck {
  readonly name: string;
  probe(): { ok: boolean; detail?: string };
}

/** What `/readyz` answers: every check's verdict, ready only when all pass. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail?: string }[];
}

/** Runs every probe; one that throws fails its check with the error's message. */
export function readinessOf(checks: readonly ReadinessCheck[]): Readiness {
  const results = checks.map((check) => {
    try {
      return { name: check.name, ...check.probe() };
    } catch (error) {
      return { name: check.name, ok: false, detail: error instanceof Error ? error.message : String(error) };
    }
  });
  return { ready: results.every((r) => r.ok), checks: results };
}

/**
 * What the server takes on at once. The server shares the event loop with the decide loop, so every
 * bound here is one on how long a flood of requests can keep trading waiting.
 */
export interface OpsLimits {
  /** Connections open at once; one more is closed as soon as it is accepted, unread and unanswered. */
  readonly maxConnections: number;
  /** Requests waiting for a body that is being computed (`/metrics`, a document, a page); one more gets 503. */
  readonly maxWaiting: number;
  /** How long a computed body (`/metrics`, `/status`, `/`) is served to everyone who asks before it is computed again. */
  readonly shareMs: number;
  /** A request's headers must arrive within this, its whole request within `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed (a client that stops reading its answer). */
  readonly idleTimeoutMs: number;
}

/** The limits the daemon runs with (docs/operations.md "Limits" lists them). */
export const OPS_LIMITS: OpsLimits = {
  maxConnections: 128,
  maxWaiting: 32,
  shareMs: 1_000,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
};

/** Why a connection or request was turned away: closed over `maxConnections`, answered 503 over `maxWaiting`. */
export type OpsRefusal = 'connections' | 'busy';

export interface OpsServerOptions {
  /** Where to listen; port 0 picks a free one (tests). */
  listen: { readonly host: string; readonly port: number };
  /** Measures how long a computed body is shared. */
  clock: Clock;
  checks: readonly ReadinessCheck[];
  /** Extra JSON documents served as GET routes, e.g. `/status`. Computed at most once per `shareMs`. */
  documents?: Readonly<Record<string, () => unknown>>;
  /** HTML pages served as GET routes, e.g. the live report on `/`. Rendered at most once per `shareMs`. */
  pages?: Readonly<Record<string, () => string>>;
  /** Served on `/metrics` as Prometheus text (see metrics.ts); 404 when absent. Scraped at most once per `shareMs`. */
  metrics?: { readonly contentType: string; scrape(): Promise<string> };
  /** @default OPS_LIMITS; tests lower or raise some. */
  limits?: Partial<OpsLimits>;
  /** Told of every connection or request turned away (for a metric: a flood is counted, never logged line by line). */
  onRefused?: (reason: OpsRefusal) => void;
  /**
   * The socket, bound ahead (opsPort.ts: the daemon binds before it calls or writes anything); its
   * timeouts are the ones it was bound with, and `listen` is then unused. Absent: bound here.
   */
  bound?: BoundOpsPort | undefined;
}

export interface OpsServer {
  /** The bound address, e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  close(): Promise<void>;
}

/** An answer computed once and written to every request that shares it: bytes, so nothing is encoded per request. */
interface Answer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function jsonAnswer(status: number, body: unknown): Answer {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return { status, headers: JSON_HEADERS, body: Buffer.from(text) };
}

const failure = (error: unknown, prefix = ''): Answer => jsonAnswer(500, { error: `${prefix}${error instanceof Error ? error.message : String(error)}` });

function send(res: ServerResponse, answer: Answer, extra: OutgoingHttpHeaders = {}): void {
  // The client may have gone while the body was computed.
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(answer.status, { ...answer.headers, ...extra, 'content-length': answer.body.length });
  res.end(answer.body);
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Everything the page needs is inline: it may load nothing from anywhere.
  'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:",
};

/**
 * The path of a request target, or null when it is not one (`///`, `//a:b`, `//%zz` make `new URL`
 * throw: a request target starting with `//` reads as an authority).
 */
function pathOf(target: string | undefined): string | null {
  const raw = target ?? '/';
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    return new URL(raw, 'http://ops').pathname;
  } catch {
    return null;
  }
}

/** The computed routes (`/metrics`, pages, documents, in that order of precedence), each shared for `shareMs`. */
function sharedRoutes(options: OpsServerOptions, shareMs: number): Map<string, () => Answer | Promise<Answer>> {
  const routes = new Map<string, () => Answer | Promise<Answer>>();
  const add = (path: string, compute: () => Answer | Promise<Answer>): void => {
    if (!routes.has(path)) routes.set(path, sharedFor(shareMs, options.clock, compute));
  };
  const { metrics } = options;
  if (metrics) {
    add('/metrics', () =>
      metrics.scrape().then(
        (text) => ({ status: 200, headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' }, body: Buffer.from(text) }),
        (error: unknown) => failure(error, 'metrics: '),
      ),
    );
  }
  // A failure is an answer too, shared like any other: a route that throws is not retried per request.
  for (const [path, page] of Object.entries(options.pages ?? {})) {
    add(path, () => {
      try {
        return { status: 200, headers: PAGE_HEADERS, body: Buffer.from(page()) };
      } catch (error) {
        return failure(error);
      }
    });
  }
  for (const [path, document] of Object.entries(options.documents ?? {})) {
    add(path, () => {
      try {
        return jsonAnswer(200, document());
      } catch (error) {
        return failure(error);
      }
    });
  }
  return routes;
}

/**
 * The operations endpoint: `/healthz` says the process answers (liveness, for Docker and systemd),
 * `/readyz` says every part can trade now (503 and the failing checks otherwise), `/metrics` serves
 * Prometheus text when `metrics` is given.
 * It binds to loopback by default: it is for the operator's tooling, not the internet.
 *
 * It runs on the daemon's event loop, so it is bounded (`OPS_LIMITS`): a connection beyond
 * `maxConnections` is closed at once, unanswered; the computed bodies are computed at most once per
 * `shareMs` whoever asks, and requests beyond `maxWaiting` waiting for one get 503 at once. `/healthz`
 * and `/readyz` compute nothing worth sharing and never wait, so they answer while the others are busy.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { host, port: listenPort } = options.listen;
  const limits: OpsLimits = { ...OPS_LIMITS, ...options.limits };
  const computed = sharedRoutes(options, limits.shareMs);
  const busy = jsonAnswer(503, {
    error: `busy: ${limits.maxWaiting} requests are already waiting for /metrics, /status or /; retry in a second`,
  });
  let waiting = 0;
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const path = pathOf(req.url);
    if (path === null) {
      send(res, jsonAnswer(400, { error: 'malformed request target' }));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      send(res, jsonAnswer(200, { status: 'ok' }));
      return;
    }
    if (path === '/readyz') {
      const { ready, checks } = readinessOf(options.checks);
      send(res, jsonAnswer(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks }));
      return;
    }
    const compute = computed.get(path);
    if (compute === undefined) {
      send(res, jsonAnswer(404, { error: `no route ${path}` }));
      return;
    }
    const answer = compute();
    if (!(answer instanceof Promise)) {
      send(res, answer);
      return;
    }
    // Waiting costs a connection and memory, not work: bounded, so a stuck computation cannot hold every connection.
    if (waiting >= limits.maxWaiting) {
      options.onRefused?.('busy');
      send(res, busy, { 'retry-after': '1', connection: 'close' });
      return;
    }
    waiting += 1;
    void answer.then(
      (ready) => {
        waiting -= 1;
        send(res, ready);
      },
      (error: unknown) => {
        waiting -= 1;
        send(res, failure(error));
      },
    );
  };
  // Whatever a request carries, it gets an answer and never takes the daemon down.
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      route(req, res);
    } catch (error) {
      if (!res.headersSent) send(res, failure(error));
      else res.destroy();
    }
  };
  const port = options.bound ?? (await bindOpsPort({ host, port: listenPort }, limits));
  const { server } = port;
  // Node closes a connection beyond this as soon as it is accepted: no socket object, no parser, no
  // answer, the cheapest refusal there is (a 503 written instead costs several times more per connection).
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => options.onRefused?.('connections'));
  port.serve(handle);
  return { url: port.url, close: () => port.close() };
}
