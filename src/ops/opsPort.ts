/**
 * The operations server's socket, bound on its own, before anything else a start does. A daemon
 * whose port is taken would otherwise log in to Trigger, poll Jupiter and write its database, and
 * only then fail: binding first makes a taken port the cheapest failure there is, with nothing
 * called and nothing written. The routes come later (opsServer.ts `serve`); until then `/healthz`
 * says the process is starting and everything else answers 503.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JupbotError } from '../errors.js';

/** The server's timeouts, fixed when it is made: opsServer.ts `OPS_LIMITS` holds the daemon's. */
export interface PortTimeouts {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly idleTimeoutMs: number;
}

export interface BoundOpsPort {
  readonly server: Server;
  /** The bound address, e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  /** Routes every request to `handle` from now on. */
  serve(handle: RequestListener): void;
  /** Closes the socket and every connection on it. Idempotent. */
  close(): Promise<void>;
}

const STARTING = JSON.stringify({ status: 'starting' });

/** The address as `http.listen` writes it: `127.0.0.1:9464`, `[::1]:9464`. */
export function listenText(listen: { readonly host: string; readonly port: number }): string {
  return `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
}

/**
 * Listens on `listen` with the server's timeouts (`OPS_LIMITS` for the daemon).
 * A taken port throws `OPS_PORT_IN_USE`, any other refusal `OPS_LISTEN_FAILED` (both exit 78).
 */
export async function bindOpsPort(listen: { readonly host: string; readonly port: number }, bounds: PortTimeouts): Promise<BoundOpsPort> {
  let handle: RequestListener = (req, res) => {
    const alive = req.url === '/healthz';
    res.writeHead(alive ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '1' });
    res.end(alive ? STARTING : JSON.stringify({ status: 'starting', error: 'the daemon is starting' }));
  };
  const server: Server = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      keepAliveTimeout: bounds.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this period (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, bounds.headersTimeoutMs),
    },
    (req, res) => handle(req, res),
  );
  server.timeout = bounds.idleTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw listenFailure(error, listen);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    serve(next) {
      handle = next;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}

function listenFailure(error: unknown, listen: { readonly host: string; readonly port: number }): JupbotError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  const where = listenText(listen);
  if (code === 'EADDRINUSE')
    return new JupbotError(
      'OPS_PORT_IN_USE',
      `the ops address ${where} (http.listen) is in use: another jupbot may be running with this config (jupbot status asks it), or another program holds the port; stop it, or set another http.listen. Nothing was called or written`,
      { cause: error, details: { listen: where } },
    );
  return new JupbotError(
    'OPS_LISTEN_FAILED',
    `cannot listen on the ops address ${where} (http.listen): ${code}; set an address this host has and may bind. Nothing was called or written`,
    { cause: error, details: { listen: where, errno: code } },
  );
}
