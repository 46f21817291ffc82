/**
 * The ops server under many concurrent requests, on 127.0.0.1: what each request costs, what a client
 * beyond a limit sees, and that liveness answers while the computed routes are busy. Counts and
 * answers only: how fast is bench/opsLoad.ts's business.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { startOpsServer, type OpsRefusal, type OpsServer } from '../../../src/ops/opsServer.js';

let server: OpsServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One GET on a connection of its own. */
function get(url: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw connection that sends `GET path` and stays open: resolves with the socket once the first answer has arrived whole. */
function keptOpen(url: string, path: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    sockets.push(socket);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('{"status":"ok"}')) resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** A raw connection that sends `GET path`: resolves with everything it received once the server closed it. */
function received(url: string, path: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    // A connection closed with the request unread ends in a reset: what counts is what arrived.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

const tally = (answers: readonly Answer[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const a of answers) out[`${a.status} ${a.body}`] = (out[`${a.status} ${a.body}`] ?? 0) + 1;
  return out;
};

describe('the ops server under load', () => {
  it('computes /metrics, a document and a page once for 300 concurrent requests, and again only after shareMs on its clock', async () => {
    const clock = new ManualClock(0);
    const calls = { scrape: 0, status: 0, page: 0 };
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock,
      checks: [],
      limits: { maxConnections: 1_000, shareMs: 1_000 },
      metrics: { contentType: 'text/plain', scrape: () => Promise.resolve(`scrape ${++calls.scrape}`) },
      documents: { '/status': () => ({ status: ++calls.status }) },
      pages: { '/': () => `<p>page ${++calls.page}</p>` },
    });
    const url = server.url;
    const routes = ['/', '/status', '/metrics'];
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => get(url, routes[i % 3] as string)));
    expect(tally(answers)).toEqual({ '200 <p>page 1</p>': 100, '200 {"status":1}': 100, '200 scrape 1': 100 });
    expect(calls).toEqual({ scrape: 1, status: 1, page: 1 });

    await clock.advance(999);
    expect((await get(url, '/metrics')).body).toBe('scrape 1');
    await clock.advance(1);
    const again = await Promise.all(routes.flatMap((route) => [get(url, route), get(url, route)]));
    expect(tally(again)).toEqual({ '200 <p>page 2</p>': 2, '200 {"status":2}': 2, '200 scrape 2': 2 });
    expect(calls).toEqual({ scrape: 2, status: 2, page: 2 });
  });

  it('answers /healthz and /readyz while /metrics is saturated: 16 wait for the one scrape, the other 284 get 503 at once', async () => {
    const refused: OpsRefusal[] = [];
    let scrapes = 0;
    let release: (text: string) => void = () => undefined;
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(0),
      checks: [{ name: 'database', probe: () => ({ ok: true }) }],
      limits: { maxConnections: 1_000, maxWaiting: 16 },
      onRefused: (reason) => refused.push(reason),
      metrics: {
        contentType: 'text/plain',
        scrape: () => {
          scrapes += 1;
          return new Promise((resolve) => (release = resolve));
        },
      },
    });
    const url = server.url;
    const busy: Answer[] = [];
    let allBusy: () => void = () => undefined;
    const turnedAway = new Promise<void>((resolve) => (allBusy = resolve));
    const requests = Array.from({ length: 300 }, () =>
      get(url, '/metrics').then((answer) => {
        if (answer.status === 503 && busy.push(answer) === 284) allBusy();
        return answer;
      }),
    );
    await turnedAway;
    expect(tally(busy)).toEqual({
      '503 {"error":"busy: 16 requests are already waiting for /metrics, /status or /; retry in a second"}': 284,
    });
    expect(new Set(busy.map((a) => `${a.headers['retry-after']} ${a.headers.connection}`))).toEqual(new Set(['1 close']));
    expect(refused).toEqual(Array.from({ length: 284 }, () => 'busy'));

    const health = await get(url, '/healthz');
    expect([health.status, health.body]).toEqual([200, '{"status":"ok"}']);
    const ready = await get(url, '/readyz');
    expect([ready.status, ready.body]).toEqual([200, '{"status":"ready","checks":[{"name":"database","ok":true}]}']);

    release('# the metrics');
    expect(tally((await Promise.all(requests)).filter((a) => a.status === 200))).toEqual({ '200 # the metrics': 16 });
    expect(scrapes).toBe(1);
  });

  it('closes a connection beyond maxConnections at once, unanswered, and keeps serving the ones it holds', async () => {
    const refused: OpsRefusal[] = [];
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(0),
      checks: [],
      limits: { maxConnections: 8, keepAliveTimeoutMs: 60_000 },
      onRefused: (reason) => refused.push(reason),
    });
    const url = server.url;
    const held = await Promise.all(Array.from({ length: 8 }, () => keptOpen(url, '/healthz')));
    const beyond = await Promise.all(Array.from({ length: 5 }, () => received(url, '/healthz')));
    expect(beyond).toEqual(['', '', '', '', '']);
    expect(refused).toEqual(['connections', 'connections', 'connections', 'connections', 'connections']);

    const socket = held[0] as Socket;
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('answers 408 and closes a connection whose headers do not arrive within headersTimeoutMs', async () => {
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(0),
      checks: [],
      limits: { headersTimeoutMs: 100, requestTimeoutMs: 200 },
    });
    const { hostname, port } = new URL(server.url);
    const text = await new Promise<string>((resolve) => {
      // Never finished: the blank line that ends the headers is not sent.
      const socket = connect(Number(port), hostname, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
      sockets.push(socket);
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (got += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(got));
    });
    expect(text).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  });
});
