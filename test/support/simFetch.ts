/**
 * How the clients under test reach the in-process simulator: `fetch` over `sim.dispatch` (no
 * sockets), or over a real socket to `sim.listen()` on 127.0.0.1 when a test wants what went on the
 * wire. Either way every request can be recorded.
 */
import type { Simulator } from '../../src/sim/simulator.js';

const urlOf = (input: string | URL | Request): URL => new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** fetch over `sim.dispatch`, in-process: no sockets, same answers as over HTTP (resets included). */
export function simFetch(sim: Simulator): typeof globalThis.fetch {
  return async (input, init) => {
    const url = urlOf(input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    if (init?.signal?.aborted) throw init.signal.reason;
    const answer = await sim.dispatch({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody: typeof init?.body === 'string' ? init.body : '',
    });
    // Aborted while the simulator answered: the caller gave up on it, as a real fetch would.
    if (init?.signal?.aborted) throw init.signal.reason;
    if (answer.reset) throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

/** A request the simulator received: method, path and the JSON body as sent (undefined when none). */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** What a recording fetch saw, in order. */
export interface Recorded {
  /** Every URL asked of the simulator (queries included). */
  readonly urls: string[];
  readonly sent: SentRequest[];
}

/**
 * {@link simFetch}, or fetch to `server()`'s origin when given (the simulator served on a loopback
 * port), that records every request in `into` before it goes.
 */
export function recordingFetch(sim: Simulator, into: Recorded, server?: () => Promise<string>): typeof globalThis.fetch {
  const inner = simFetch(sim);
  return async (input, init) => {
    const url = urlOf(input);
    const raw = typeof init?.body === 'string' ? init.body : '';
    into.urls.push(url.href);
    into.sent.push({ method: init?.method ?? 'GET', path: url.pathname, body: raw === '' ? undefined : (JSON.parse(raw) as unknown) });
    return server === undefined ? inner(input, init) : globalThis.fetch(`${await server()}${url.pathname}${url.search}`, init);
  };
}

/** The simulator listening on a loopback port, every request recorded on the way there; `close` stops the server. */
export async function recordingOverHttp(sim: Simulator): Promise<{ fetch: typeof globalThis.fetch; sent: SentRequest[]; close: () => Promise<void> }> {
  const server = await sim.listen();
  const recorded: Recorded = { urls: [], sent: [] };
  return { fetch: recordingFetch(sim, recorded, () => Promise.resolve(server.url)), sent: recorded.sent, close: () => server.close() };
}
