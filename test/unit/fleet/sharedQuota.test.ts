/**
 * The fleet's shared quota, three "daemons" on one API key against a real redis-server and one
 * ManualClock: together they never put more than the quota into any 60 s window (checked by an
 * independent counter over every admitted request), they use the quota, order work goes first across
 * the fleet, and a Redis that dies and comes back empty changes none of that.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { Priority } from '../../../src/jupiter/limiter.js';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';
import { API_KEY, Fleet, worstWindow } from './fleetHarness.js';

const QUOTA = 60;
const WINDOW = 60_000;
const LEASE = 10_000;

describe.skipIf(!redisPresent)('the shared quota, three daemons on one key', () => {
  let server: RedisServer;
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    const redis = new Redis(server.url);
    await redis.flushall();
    redis.disconnect();
  });
  afterEach(() => {
    fleet?.close();
    fleet = undefined;
  });

  async function threeDaemons(): Promise<Fleet> {
    const f = new Fleet(new ManualClock(), server.url, { quota: QUOTA, size: 3, leaseMs: LEASE, exchangeMs: 200 });
    fleet = f;
    for (const name of ['a', 'b', 'c']) f.add(name);
    await Promise.all(f.daemons.map((d) => d.quota.whenShared()));
    return f;
  }

  it('keeps the fleet under the quota for 10 minutes, uses at least 90 % of it, and lets order work go first', async () => {
    const f = await threeDaemons();
    for (const d of f.daemons) d.demand(QUOTA + 10, Priority.PollMarket);
    await f.settle();
    await f.run(5 * 60_000);

    // Polls saturate the fleet (57 of 60: the headroom is left to order work). An exit on b now goes out at once.
    const before = f.sent.length;
    const exit = f.daemons[1]?.send(Priority.Exit);
    await f.settle();
    const after = f.sent.slice(before);
    expect(after.map((s) => [s.daemon, s.priority])).toEqual([['b', Priority.Exit]]);
    await f.run(5 * 60_000);
    await exit;

    expect(worstWindow(f.sent, WINDOW)).toBeLessThanOrEqual(QUOTA);
    // Every full window after the first: at least 90 % of the quota in the fleet's 10 minutes.
    expect(f.sent.length).toBeGreaterThanOrEqual(Math.floor(0.9 * QUOTA * 10));
    const perDaemon = Object.fromEntries(['a', 'b', 'c'].map((n) => [n, f.sent.filter((s) => s.daemon === n).length]));
    expect(Object.values(perDaemon).every((n) => n >= 150)).toBe(true);
    for (const d of f.daemons) expect(d.lines('shared quota')).toEqual([]);
  }, 120_000);

  it('stays under the quota while Redis dies and comes back empty, says so once per daemon, and honours the settling window', async () => {
    const f = await threeDaemons();
    for (const d of f.daemons) d.demand(QUOTA + 10, Priority.PollState);
    await f.settle();
    await f.run(2 * 60_000 + 10_000);

    const lost = f.daemons.map((d) => d.quota.events.next('lost'));
    await server.kill();
    await Promise.all(lost);
    await f.run(2 * 60_000);

    const restored = f.daemons.map((d) => d.quota.events.next('restored'));
    await server.restart();
    await Promise.all(restored);
    const restartedAt = f.clock.now();
    await f.run(3 * 60_000);

    expect(worstWindow(f.sent, WINDOW)).toBeLessThanOrEqual(QUOTA);
    for (const d of f.daemons) {
      expect(d.lines('shared quota lost')).toHaveLength(1);
      expect(d.lines('shared quota restored')).toHaveLength(1);
      expect(d.lines('shared quota lost')[0]).toMatch(/keeping to this daemon's share \(19 of 60 per 60 s on main\) until Redis is back/);
      // Settling: for lease + window after the empty Redis came back, no daemon exceeds its share.
      const settling = (s: { start: number; daemon: string }): boolean =>
        s.daemon === d.name && s.start >= restartedAt && s.start < restartedAt + LEASE + WINDOW;
      expect(worstWindow(f.sent, WINDOW, settling)).toBeLessThanOrEqual(19);
    }
    // Nothing lost its pace: the fleet kept sending in every phase.
    expect(f.sent.filter((s) => s.start >= restartedAt).length).toBeGreaterThan(100);
  }, 120_000);

  it('keeps no secret in Redis: no key or value carries the API key', async () => {
    const f = await threeDaemons();
    for (const d of f.daemons) d.demand(5, Priority.Place);
    await f.run(5_000);
    const redis = new Redis(server.url);
    try {
      const keys = await redis.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k.startsWith('jupbot:q:{'))).toBe(true);
      const dump: string[] = [...keys];
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'zset') dump.push(...(await redis.zrange(key, 0, -1, 'WITHSCORES')));
        else if (type === 'hash') dump.push(...Object.entries(await redis.hgetall(key)).flat());
        else dump.push(String(await redis.get(key)));
      }
      const text = dump.join('\n');
      expect(text).toContain('wallet-a');
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(API_KEY.slice(0, 12));
    } finally {
      redis.disconnect();
    }
  });
});
