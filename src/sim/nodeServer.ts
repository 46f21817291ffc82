import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toJson, type SimRequest, type SimResponse } from './http.js';

/** A node:http listener over the simulator's socket-free pipeline; a `reset` answer drops the socket. */
export function nodeHandler(dispatch: (req: SimRequest) => Promise<SimResponse>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim.local');
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      dispatch({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, rawBody: Buffer.concat(chunks).toString('utf8') })
        .then((out) => {
          if (out.reset) {
            req.socket.destroy();
            return;
          }
          res.writeHead(out.status, out.headers);
          res.end(out.body);
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(toJson({ error: error instanceof Error ? error.message : 'internal error' }));
        });
    });
  };
}

export interface ListenOptions {
  readonly port: number;
  readonly host: string;
  /** Runs `catchUp` on a real timer this often (paper mode: the world moves while nobody calls). */
  readonly catchUpEveryMs?: number | undefined;
  readonly catchUp: () => void;
}

/** Serves `handle` on `host:port` (port 0 = ephemeral) until `close`, which drops open connections. */
export function listenOn(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  options: ListenOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address() as AddressInfo;
      const timer = options.catchUpEveryMs ? setInterval(options.catchUp, options.catchUpEveryMs) : undefined;
      timer?.unref();
      resolve({
        url: `http://${options.host}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            if (timer) clearInterval(timer);
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
