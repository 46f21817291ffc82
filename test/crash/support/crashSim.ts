/**
 * The simulated world of the crash test, in the test process so it outlives every daemon it serves.
 * It runs on the system clock: the daemon is another process on the real clock, and a ManualClock
 * cannot span two processes.
 *
 * The HTTP adapter is our own (over `sim.dispatch`) rather than `sim.listen`, because the test must
 * see every request at the three instants a crash can matter: before the world acted on it, after
 * the world acted but before the daemon heard the answer, and just after the answer was written.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../../src/clock.js';
import { createSimulator, type Simulator } from '../../../src/sim/simulator.js';

/** What the test knows of one request the daemon made. */
export interface SeenRequest {
  /** Order of arrival, from 1 over the whole test. */
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  /** JSON-RPC method for `/rpc` calls. */
  readonly rpcMethod: string | undefined;
}

/**
 * `received`: the body is in, the world has not acted. `answered`: the world acted, the answer is
 * not written yet. `delivered`: the answer was handed to the socket (the daemon is processing it).
 */
export type RequestPhase = 'received' | 'answered' | 'delivered';

export type RequestHook = (request: SeenRequest, phase: RequestPhase) => void;

export interface CrashSim {
  readonly sim: Simulator;
  readonly url: string;
  /** Called for every request at each phase; set by the test (one hook at a time). */
  hook: RequestHook | undefined;
  /** Requests served so far. */
  readonly served: () => number;
  close(): Promise<void>;
}

function rpcMethodOf(path: string, body: string): string | undefined {
  if (path !== '/rpc' && path !== '/') return undefined;
  try {
    const parsed = JSON.parse(body) as { method?: unknown } | { method?: unknown }[];
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return typeof first?.method === 'string' ? first.method : undefined;
  } catch {
    return undefined;
  }
}

export async function startCrashSim(seed: string, stepMs: number): Promise<CrashSim> {
  // Unlimited gateway: the daemon's own limiter is what paces it; a 429 here would only slow the test.
  const sim = createSimulator({ clock: systemClock, seed, stepMs, gateway: { unlimited: true } });
  let seq = 0;
  const state: CrashSim = {
    sim,
    url: '',
    hook: undefined,
    served: () => seq,
    close: () => Promise.resolve(),
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim.local');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const seen: SeenRequest = { seq: ++seq, method: req.method ?? 'GET', path: url.pathname, rpcMethod: rpcMethodOf(url.pathname, rawBody) };
      state.hook?.(seen, 'received');
      sim
        .dispatch({ method: seen.method, path: seen.path, query: url.searchParams, headers, rawBody })
        .then((out) => {
          state.hook?.(seen, 'answered');
          if (out.reset) {
            req.socket.destroy();
            return;
          }
          res.writeHead(out.status, out.headers);
          res.end(out.body, () => state.hook?.(seen, 'delivered'));
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: error instanceof Error ? error.message : 'internal error' }));
        });
    });
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  });
}
