import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One readiness check: a name and a probe that says whether that part can do its job now. */
export interface ReadinessCheck {
  readonly name: string;
  probe(): { ok: boolean; detail?: string };
}

export interface OpsServerOptions {
  /** Where to listen; port 0 picks a free one (tests). */
  listen: { readonly host: string; readonly port: number };
  checks: readonly ReadinessCheck[];
  /** Extra JSON documents served as GET routes, e.g. `/status`. Computed per request. */
  documents?: Readonly<Record<string, () => unknown>>;
  /** HTML pages served as GET routes, e.g. the live report on `/`. Rendered per request. */
  pages?: Readonly<Record<string, () => string>>;
  /** Served on `/metrics` as Prometheus text (see metrics.ts); 404 when absent. */
  metrics?: { readonly contentType: string; scrape(): Promise<string> };
}

export interface OpsServer {
  /** The bound address, e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

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

/**
 * The operations endpoint: `/healthz` says the process answers (liveness, for Docker and systemd),
 * `/readyz` says every part can trade now (503 and the failing checks otherwise), `/metrics` serves
 * Prometheus text when `metrics` is given.
 * It binds to loopback by default: it is for the operator's tooling, not the internet.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { host, port } = options.listen;
  const documents = options.documents ?? {};
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const path = pathOf(req.url);
    if (path === null) {
      sendJson(res, 400, { error: 'malformed request target' });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (path === '/readyz') {
      const results = options.checks.map((check) => {
        try {
          return { name: check.name, ...check.probe() };
        } catch (error) {
          return { name: check.name, ok: false, detail: error instanceof Error ? error.message : String(error) };
        }
      });
      const ready = results.every((r) => r.ok);
      sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: results });
      return;
    }
    if (path === '/metrics' && options.metrics) {
      const { contentType } = options.metrics;
      options.metrics.scrape().then(
        (text) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(text);
        },
        (error: unknown) => sendJson(res, 500, { error: `metrics: ${error instanceof Error ? error.message : String(error)}` }),
      );
      return;
    }
    const page = options.pages?.[path];
    if (page) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // Everything the page needs is inline: it may load nothing from anywhere.
        'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:",
      });
      res.end(page());
      return;
    }
    const document = documents[path];
    if (document) {
      sendJson(res, 200, document());
      return;
    }
    sendJson(res, 404, { error: `no route ${path}` });
  };
  // Whatever a request carries, it gets an answer and never takes the daemon down.
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      route(req, res);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    }
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
