import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createRandom } from '../../../src/random.js';
import { z } from 'zod';
import { ApiError } from '../../../src/jupiter/errors.js';
import { bucketFor } from '../../../src/jupiter/bucket.js';
import { Priority, SlidingWindow, quotaPerWindow, executeRequestsPerSecond } from '../../../src/jupiter/limiter.js';
import { createJupiterClient, type JupiterClient } from '../../../src/jupiter/transport.js';

const KEY = 'unit-test-api-key-0123456789';

interface Harness {
  clock: ManualClock;
  client: JupiterClient;
  calls: { path: string; at: number }[];
}

/** A client whose fetch answers instantly; `respond` picks the answer per call. */
function harness(options: { rps: number; respond?: (path: string, n: number, clock: ManualClock) => Response; guardMs?: number }): Harness {
  const clock = new ManualClock();
  const calls: { path: string; at: number }[] = [];
  const respond = options.respond ?? (() => Response.json({ ok: true }));
  const fetchStub = (input: string | URL | Request): Promise<Response> => {
    const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
    calls.push({ path, at: clock.monotonic() });
    return Promise.resolve(respond(path, calls.length, clock));
  };
  const client = createJupiterClient({
    baseUrl: 'https://api.jup.test',
    apiKey: KEY,
    requestsPerSecond: options.rps,
    clock,
    random: createRandom('limiter'),
    fetch: fetchStub,
    timeoutMs: 0,
    guardMs: options.guardMs ?? 0,
  });
  return { clock, client, calls };
}

const Ok = z.looseObject({ ok: z.boolean() });

function get(client: JupiterClient, path: string, priority: number = Priority.PollMarket): Promise<unknown> {
  return client.request({ method: 'GET', path, route: path, schema: Ok, priority });
}

/** Advances the manual clock in steps until `done()` or the budget runs out. */
async function runUntil(clock: ManualClock, done: () => boolean, stepMs = 1000, budgetMs = 3_600_000): Promise<void> {
  for (let spent = 0; !done() && spent < budgetMs; spent += stepMs) await clock.advance(stepMs);
  await clock.advance(0);
}

describe('SlidingWindow', () => {
  it('admits quota starts per window and reports the wait for the next', () => {
    const w = new SlidingWindow(3, 60_000);
    for (const t of [0, 10, 20]) {
      expect(w.waitMs(t)).toBe(0);
      w.record(t);
    }
    expect(w.waitMs(30)).toBe(59_970);
    expect(w.waitMs(60_000)).toBe(0);
    expect(w.count(60_010)).toBe(1);
  });

  it('counts a request from the end of its exchange and holds in-flight slots', () => {
    const clock = {
      t: 0,
      monotonic() {
        return this.t;
      },
    };
    const w = new SlidingWindow(2, 60_000);
    const a = w.start(clock);
    const b = w.start(clock);
    expect(w.waitMs(0)).toBe(Number.POSITIVE_INFINITY); // both in flight: nothing can expire yet
    clock.t = 5_000;
    a.end();
    a.end(); // idempotent
    expect(w.inFlight).toBe(1);
    expect(w.waitMs(5_000)).toBe(60_000);
    clock.t = 65_000;
    expect(w.waitMs(65_000)).toBe(0);
    b.end();
    expect(w.count(65_000)).toBe(1);
  });

  it('validates its options', () => {
    expect(() => new SlidingWindow(0, 1000)).toThrow(TypeError);
    expect(() => new SlidingWindow(1.5, 1000)).toThrow(/quota/);
    expect(() => new SlidingWindow(1, 0)).toThrow(/windowMs/);
  });
});

describe('sizing and buckets', () => {
  it.each([
    [0.5, 30],
    [1, 60],
    [10, 600],
    [150, 9000],
    [0.01, 1],
  ])('rps %s gives %s per 60 s', (rps, quota) => {
    expect(quotaPerWindow(rps)).toBe(quota);
  });

  it('rejects a non-positive rate', () => {
    expect(() => quotaPerWindow(0)).toThrow(/requestsPerSecond/);
    expect(() => quotaPerWindow(Number.NaN)).toThrow(TypeError);
  });

  it('sizes the execute bucket by plan', () => {
    expect(executeRequestsPerSecond(0.5, true)).toBe(20);
    expect(executeRequestsPerSecond(1, false)).toBe(50);
    expect(executeRequestsPerSecond(10, false)).toBe(100);
  });

  it.each([
    ['/swap/v2/execute', 'execute'],
    ['/ultra/v1/execute', 'execute'],
    ['/swap/v2/submit', 'execute'],
    ['/tx/v1/submit', 'execute'],
    ['/swap/v2/order', 'main'],
    ['/prediction/v1/execute', 'main'],
    ['/trigger/v2/orders/price', 'main'],
  ])('%s goes to the %s bucket', (path, bucket) => {
    expect(bucketFor(path)).toBe(bucket);
  });
});

describe('rate limiting on a manual clock', () => {
  it('a burst of 5Q requests never exceeds Q in any 60 s window', async () => {
    const h = harness({ rps: 1 / 6 }); // Q = 10
    const Q = 10;
    let settled = 0;
    const all = Array.from({ length: 5 * Q }, (_, i) => get(h.client, `/p/${i}`).then(() => settled++));
    await runUntil(h.clock, () => settled === 5 * Q, 500);
    await Promise.all(all);
    expect(h.calls).toHaveLength(5 * Q);
    const times = h.calls.map((c) => c.at);
    for (let i = 0; i + Q < times.length; i++) {
      expect((times[i + Q] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(60_000);
    }
    // and it used the quota: the last batch went out 4 windows after the first
    expect(times.at(-1)).toBeLessThanOrEqual(4 * 60_000 + 500);
  });

  it('the guard lengthens the window by guardMs', async () => {
    const h = harness({ rps: 1 / 60, guardMs: 250 }); // Q = 1
    const a = get(h.client, '/a');
    const b = get(h.client, '/b');
    await runUntil(h.clock, () => h.calls.length === 2, 50);
    await Promise.all([a, b]);
    expect((h.calls[1]?.at ?? 0) - (h.calls[0]?.at ?? 0)).toBe(60_250);
  });

  it('a slow answer holds its slot: the next request waits for its end plus the window', async () => {
    const clock = new ManualClock();
    const sent: number[] = [];
    let release: (() => void) | undefined;
    const fetchStub = (): Promise<Response> => {
      sent.push(clock.monotonic());
      if (sent.length === 1) return new Promise((resolve) => (release = () => resolve(Response.json({ ok: true }))));
      return Promise.resolve(Response.json({ ok: true }));
    };
    const client = createJupiterClient({
      baseUrl: 'https://api.jup.test',
      apiKey: KEY,
      requestsPerSecond: 1 / 60,
      clock,
      random: createRandom('s'),
      fetch: fetchStub,
      timeoutMs: 0,
      guardMs: 0,
    });
    const a = get(client, '/a');
    const b = get(client, '/b');
    await clock.advance(90_000); // /a still in flight: /b cannot go, however long we wait
    expect(sent).toEqual([0]);
    release?.();
    await a;
    await clock.advance(59_999);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    await b;
    expect(sent).toEqual([0, 150_000]);
  });

  it('an exit queued behind 100 polls goes first', async () => {
    const h = harness({ rps: 1 / 6 }); // Q = 10
    const first = Array.from({ length: 10 }, (_, i) => get(h.client, `/fill/${i}`));
    await Promise.all(first); // the window is now full
    const polls = Array.from({ length: 100 }, (_, i) => get(h.client, `/poll/${i}`, Priority.PollMarket));
    const states = Array.from({ length: 5 }, (_, i) => get(h.client, `/state/${i}`, Priority.PollState));
    const exit = get(h.client, '/exit', Priority.Exit);
    const place = get(h.client, '/place', Priority.Place);
    expect(h.client.limiter('main').size).toBe(107);
    await runUntil(h.clock, () => h.calls.length >= 12, 1000);
    await Promise.all([exit, place]);
    expect(h.calls[10]?.path).toBe('/exit');
    expect(h.calls[11]?.path).toBe('/place');
    await runUntil(h.clock, () => h.calls.length === 117, 10_000);
    await Promise.all([...polls, ...states]);
    expect(h.calls.slice(12, 17).map((c) => c.path)).toEqual(['/state/0', '/state/1', '/state/2', '/state/3', '/state/4']);
    expect(h.calls.slice(17).map((c) => c.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/poll/${i}`));
  });

  it('a 429 carrying x-ratelimit-reset waits until then, for the whole bucket', async () => {
    const h = harness({
      rps: 10,
      respond: (_path, n, clock) =>
        n === 1
          ? Response.json(
              { code: 429, message: '[API Gateway] Too many requests' },
              {
                status: 429,
                headers: { 'x-ratelimit-reset': String(clock.now() / 1000 + 30), 'x-ratelimit-remaining': '0' },
              },
            )
          : Response.json({ ok: true }),
    });
    const events: { waitMs: number; reason: string }[] = [];
    h.client.events.on('ratelimited', (e) => events.push(e));
    const read = get(h.client, '/read');
    await h.clock.advance(0);
    expect(h.calls).toHaveLength(1);
    const other = get(h.client, '/other', Priority.Exit);
    await h.clock.advance(29_999);
    expect(h.calls).toHaveLength(1); // nobody in the bucket went out early
    await h.clock.advance(1);
    await Promise.all([read, other]);
    expect(h.calls.map((c) => [c.path, c.at])).toEqual([
      ['/read', 0],
      ['/other', 30_000],
      ['/read', 30_000],
    ]);
    expect(events.some((e) => e.reason === '429' && e.waitMs === 30_000)).toBe(true);
  });

  it('honours Retry-After over the reset header', async () => {
    const h = harness({
      rps: 10,
      respond: (_p, n, clock) =>
        n === 1
          ? new Response('{"message":"Rate limit exceeded"}', {
              status: 429,
              headers: { 'retry-after': '5', 'x-ratelimit-reset': String(clock.now() / 1000 + 30) },
            })
          : Response.json({ ok: true }),
    });
    const read = get(h.client, '/read');
    await h.clock.advance(4_999);
    expect(h.calls).toHaveLength(1);
    await h.clock.advance(1);
    await read;
    expect(h.calls[1]?.at).toBe(5_000);
  });

  it('without headers a 429 backs off (capped, jittered, never zero) and does not loop hot', async () => {
    const h = harness({ rps: 10, respond: (_p, n) => (n <= 3 ? new Response('', { status: 429 }) : Response.json({ ok: true })) });
    const read = get(h.client, '/read');
    await runUntil(h.clock, () => h.calls.length === 4, 100);
    await read;
    const gaps = h.calls.slice(1).map((c, i) => c.at - (h.calls[i]?.at ?? 0));
    expect(gaps).toHaveLength(3);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(gap).toBeLessThanOrEqual(1000 * 2 ** i + 100);
    });
  });

  it('a state-changing call is not retried on 429, but still pauses the bucket', async () => {
    const h = harness({
      rps: 10,
      respond: (_p, n, clock) =>
        n === 1 ? new Response('{}', { status: 429, headers: { 'x-ratelimit-reset': String(clock.now() / 1000 + 10) } }) : Response.json({ ok: true }),
    });
    const post = h.client.request({
      method: 'POST',
      path: '/trigger/v2/orders/price',
      route: '/trigger/v2/orders/price',
      body: {},
      schema: Ok,
      priority: Priority.Place,
    });
    await expect(post).rejects.toMatchObject({ code: 'JUPITER_RATE_LIMITED', status: 429, retryAfterMs: 10_000 });
    await expect(post).rejects.toBeInstanceOf(ApiError);
    const read = get(h.client, '/read');
    await h.clock.advance(9_999);
    expect(h.calls).toHaveLength(1);
    await h.clock.advance(1);
    await read;
    expect(h.calls).toHaveLength(2);
  });

  it('x-ratelimit-remaining 0 on a success pauses the bucket until the reset', async () => {
    const h = harness({
      rps: 10,
      respond: (_p, n, clock) =>
        Response.json({ ok: true }, { headers: n === 1 ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(clock.now() / 1000 + 20) } : {} }),
    });
    await Promise.all([get(h.client, '/a')]);
    const b = get(h.client, '/b');
    await h.clock.advance(19_999);
    expect(h.calls).toHaveLength(1);
    await h.clock.advance(1);
    await b;
    expect(h.calls[1]?.at).toBe(20_000);
  });

  it('execute routes use their own bucket', async () => {
    const h = harness({ rps: 1 / 60 }); // main Q = 1, execute Q = 50 per minute at this plan
    await get(h.client, '/swap/v2/order');
    const queued = get(h.client, '/swap/v2/order');
    const exec = h.client.request({ method: 'POST', path: '/swap/v2/execute', route: '/swap/v2/execute', body: {}, schema: Ok, priority: Priority.Place });
    await h.clock.advance(0);
    await exec;
    expect(h.calls.map((c) => c.path)).toEqual(['/swap/v2/order', '/swap/v2/execute']);
    await h.clock.advance(60_000);
    await queued;
  });

  it('numbers each request at its enqueue and says at its dispatch how long it waited for a slot', async () => {
    const h = harness({ rps: 1 / 60 }); // Q = 1
    const seen: string[] = [];
    h.client.events.on('enqueue', (e) => seen.push(`enqueue ${e.bucket} #${e.request} ${e.route} p${e.priority}`));
    h.client.events.on('dispatch', (e) => seen.push(`dispatch ${e.bucket} #${e.request} ${e.route} p${e.priority} after ${e.waitedMs}`));
    await get(h.client, '/a');
    const poll = get(h.client, '/poll', Priority.PollMarket);
    await h.clock.advance(20_000);
    const exit = get(h.client, '/exit', Priority.Exit);
    const exec = h.client.request({ method: 'POST', path: '/swap/v2/execute', route: '/swap/v2/execute', body: {}, schema: Ok, priority: Priority.Place });
    await h.clock.advance(40_000);
    await Promise.all([exit, exec]);
    await h.clock.advance(60_000);
    await poll;
    expect(seen).toEqual([
      'enqueue main #1 /a p0',
      'dispatch main #1 /a p0 after 0',
      'enqueue main #2 /poll p0',
      'enqueue main #3 /exit p3',
      'enqueue execute #1 /swap/v2/execute p2',
      'dispatch execute #1 /swap/v2/execute p2 after 0',
      'dispatch main #3 /exit p3 after 40000',
      'dispatch main #2 /poll p0 after 120000',
    ]);
  });

  it('an abort while queued removes the request and rejects it with JUPITER_ABORTED', async () => {
    const h = harness({ rps: 1 / 60 });
    await get(h.client, '/a');
    const controller = new AbortController();
    const b = h.client.request({ method: 'GET', path: '/b', route: '/b', schema: Ok, priority: 0, signal: controller.signal });
    controller.abort();
    await expect(b).rejects.toMatchObject({ code: 'JUPITER_ABORTED', outcomeUnknown: false });
    expect(h.client.limiter('main').size).toBe(0);
  });

  it('close() rejects queued requests with JUPITER_CLIENT_CLOSED', async () => {
    const h = harness({ rps: 1 / 60 });
    await get(h.client, '/a');
    const b = get(h.client, '/b');
    h.client.close();
    await expect(b).rejects.toMatchObject({ code: 'JUPITER_CLIENT_CLOSED' });
    await expect(get(h.client, '/c')).rejects.toMatchObject({ code: 'JUPITER_CLIENT_CLOSED' });
  });
});
