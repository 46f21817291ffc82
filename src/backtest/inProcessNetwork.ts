/**
 * The daemon's network to the simulator, in process, and the knowledge of when the daemon is idle.
 *
 * {@link InProcessNetwork.fetch} is given to the daemon for its Jupiter client and Solana RPC: a
 * request to {@link SIM_ORIGIN} goes straight to `sim.dispatch`, the same pipeline the simulator's
 * HTTP listener runs, and comes back as a real `Response`; any other address is refused (a backtest
 * never reaches the network). No sockets: a loopback exchange costs 5-15 ms on a busy machine and a
 * simulated day makes thousands of them. A `reset` fault rejects as undici does (`TypeError: fetch
 * failed`, cause ECONNRESET); an abort rejects with the signal's reason.
 *
 * Idle means: no exchange in flight except those the simulator holds on the clock (a `delay` fault),
 * and nothing new for a few event-loop turns. The driver waits for that before moving the clock, so a
 * run depends on the seed and the clock only, never on I/O speed.
 */
import type { Clock } from '../clock.js';
import type { SimRequest, SimResponse } from '../sim/http.js';
import type { Simulator } from '../sim/simulator.js';

/** Where the daemon thinks the simulator is (loopback, so a live-mode config accepts http). Nothing listens there. */
export const SIM_ORIGIN = 'http://127.0.0.1:58999';

/** One answer as the daemon saw it, for counting the faults that actually hit something. */
export interface Exchange {
  readonly path: string;
  readonly status: number;
  /** The connection was dropped without an answer. */
  readonly reset: boolean;
  /** The body did not parse as JSON. */
  readonly malformed: boolean;
  /** The simulator held it on the clock (a `delay` fault). */
  readonly held: boolean;
  /** The caller gave up (its timeout) before the answer came. */
  readonly abandoned: boolean;
  readonly at: number;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The answer as the daemon reads it — status, `ok`, headers by name, the body as text or JSON, read
 * once — without undici's stream machinery, which costs more than the simulator's own work per
 * exchange. Everything else a `Response` has is absent: a client that reached for it would fail
 * loudly in every backtest and test, not silently.
 */
class InProcessAnswer {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  #body: string | null;

  constructor(
    readonly status: number,
    body: string | null,
    headers: Readonly<Record<string, string>>,
  ) {
    this.ok = status >= 200 && status < 300;
    this.#body = body;
    const byName = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.headers = { get: (name) => byName.get(name.toLowerCase()) ?? null };
  }

  text(): Promise<string> {
    const body = this.#body;
    if (body === null) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.#body = null;
    return Promise.resolve(body);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
}

function abortable<T>(pending: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return pending;
  return new Promise<T>((resolve, reject) => {
    // fetch rejects with the signal's reason, whatever it is (the clients pass an Error or a DOMException).
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The simulator's `malformed` fault cuts the JSON in half and appends this (parsing every body would cost seconds a day). */
const MALFORMED_TAIL = '\u0000{';

export class InProcessNetwork {
  readonly #inFlight = new Set<number>();
  readonly #held = new Set<number>();
  #dispatching: number | undefined;
  #nextId = 1;
  #started = 0;
  #finished = 0;
  /** Every answer, when `record` was asked for (the fault tests count what their faults hit). */
  readonly exchanges: Exchange[] = [];
  readonly #record: boolean;
  #sim: Simulator | undefined;

  constructor(
    readonly clock: Clock & { readonly pendingSleeps: number },
    options: { readonly record?: boolean } = {},
  ) {
    this.#record = options.record ?? false;
  }

  /** The clock to give the simulator: a sleep during dispatch marks that exchange as held. */
  simClock(): Clock {
    return {
      now: () => this.clock.now(),
      monotonic: () => this.clock.monotonic(),
      sleep: (ms, signal) => {
        const id = this.#dispatching;
        if (id !== undefined) this.#held.add(id);
        return this.clock.sleep(ms, signal).finally(() => {
          if (id !== undefined) this.#held.delete(id);
        });
      },
    };
  }

  /** The simulator that answers {@link SIM_ORIGIN} (set once it exists: it is built on {@link simClock}). */
  connect(sim: Simulator): void {
    this.#sim = sim;
  }

  /** The daemon's `fetch`: {@link SIM_ORIGIN} only. */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const sim = this.#sim;
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== SIM_ORIGIN || sim === undefined) throw new TypeError(`fetch failed: ${url.origin} is not the in-process simulator`);
    const signal = init?.signal;
    if (signal?.aborted) throw signal.reason;
    const headers: Record<string, string> = {};
    const given = init?.headers;
    if (given === undefined || given instanceof Headers || Array.isArray(given)) new Headers(given).forEach((value, name) => (headers[name] = value));
    else for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
    const req: SimRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody: typeof init?.body === 'string' ? init.body : '',
    };
    const id = this.#nextId++;
    const at = this.clock.now();
    this.#inFlight.add(id);
    this.#started++;
    let pending: Promise<SimResponse>;
    // dispatch runs synchronously up to its first await, which is the hold of a `delay` fault.
    this.#dispatching = id;
    try {
      pending = sim.dispatch(req);
    } finally {
      this.#dispatching = undefined;
    }
    const held = this.#held.has(id);
    pending.catch(() => undefined);
    try {
      let out: SimResponse;
      try {
        out = await abortable(pending, signal);
      } catch (error) {
        if (this.#record) this.exchanges.push({ path: req.path, status: 0, reset: false, malformed: false, held, abandoned: true, at });
        throw error;
      }
      if (this.#record)
        this.exchanges.push({
          path: req.path,
          status: out.status,
          reset: out.reset === true,
          malformed: out.body.endsWith(MALFORMED_TAIL),
          held,
          abandoned: false,
          at,
        });
      if (out.reset) throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      return new InProcessAnswer(out.status, NULL_BODY.has(out.status) ? '' : out.body, out.headers) as unknown as Response;
    } finally {
      this.#inFlight.delete(id);
      this.#finished++;
    }
  };

  /** Resolves once nothing is in flight (held exchanges aside) and nothing changed for a few turns. */
  async settle(): Promise<void> {
    let quiet = 0;
    let last = '';
    while (quiet < 3) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const busy = [...this.#inFlight].some((id) => !this.#held.has(id));
      const signature = `${this.#started}/${this.#finished}/${this.clock.pendingSleeps}`;
      quiet = !busy && signature === last ? quiet + 1 : 0;
      last = signature;
    }
  }
}
