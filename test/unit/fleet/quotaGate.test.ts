/**
 * One bucket's fleet gate against a real redis-server, step by step on a ManualClock: the split
 * between polls and order work, the safety argument when Redis dies under a daemon that holds more
 * than its share, the settling window of an empty Redis, a fleet larger than `fleet.size`, and a
 * silent daemon leaving the roster.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openFleetRedis } from '../../../src/fleet/fleetRedis.js';
import { quotaKeyId, quotaKeys } from '../../../src/fleet/quotaKeys.js';
import { FleetQuota } from '../../../src/fleet/sharedQuota.js';
import { fleetSizeProblem, quotaSplit } from '../../../src/fleet/quotaSplit.js';
import { Priority } from '../../../src/jupiter/limiter.js';
import type { SharedGate, SharedGrant, SharedSlot } from '../../../src/jupiter/sharedGate.js';
import { createLogger } from '../../../src/ops/log.js';
import { createRandom } from '../../../src/random.js';
import { Secret } from '../../../src/secret.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';

const KEY = 'quota-gate-test-key-55e1b0';
const LEASE = 10_000;
const WINDOW = 60_250; // 60 s and the fleet's guard
const SETTLING = LEASE + WINDOW;

interface Member {
  quota: FleetQuota;
  gate: SharedGate;
  log: MemoryStream;
}

function slotOf(grant: SharedGrant): SharedSlot {
  if (!grant.admitted) throw new Error(`refused, retry in ${grant.retryInMs} ms`);
  return grant.slot;
}

describe('quotaSplit', () => {
  it('keeps a 5 % headroom for order work and splits the rest', () => {
    expect(quotaSplit(60, 3)).toEqual({ quota: 60, headroom: 3, share: 19, shareHeadroom: 1 });
    expect(quotaSplit(600, 1)).toEqual({ quota: 600, headroom: 30, share: 570, shareHeadroom: 29 });
    expect(quotaSplit(30, 28)).toEqual({ quota: 30, headroom: 2, share: 1, shareHeadroom: 0 });
  });

  it('refuses a fleet larger than the quota can give one request each beside the headroom', () => {
    // 30 a window keeps 2 for order work: 28 daemons get one each, a 29th would reserve past the limit.
    expect(fleetSizeProblem(30, 28)).toBeNull();
    expect(fleetSizeProblem(30, 29)).toBe(
      "fleet.size 29 is more daemons than a quota of 30 requests per 60 s can hold (2 kept for order work leaves 28, at least one for each daemon): raise api.requests_per_second to the key's plan, or run fewer daemons on the key",
    );
    expect(fleetSizeProblem(60, 57)).toBeNull();
    expect(fleetSizeProblem(60, 58)).not.toBeNull();
  });
});

describe.skipIf(!redisPresent)('one bucket of the fleet gate on a real redis-server', () => {
  let server: RedisServer;
  let probe: Redis;
  const members: Member[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    // A test that failed while Redis was down leaves it down: the next one starts with it up.
    await server.restart().catch(() => undefined);
    probe = new Redis(server.url);
    probe.on('error', () => undefined);
    await probe.flushall();
  });
  afterEach(() => {
    for (const m of members.splice(0)) m.quota.close();
    probe.disconnect();
  });

  async function member(clock: ManualClock, name: string, size = 3): Promise<Member> {
    const log = new MemoryStream();
    const redis = openFleetRedis({ url: new Secret(server.url), maxReconnectDelayMs: 50 });
    const quota = new FleetQuota({
      redis,
      label: 'redis://test',
      apiKey: KEY,
      daemonId: name,
      size,
      leaseMs: LEASE,
      clock,
      random: createRandom(name),
      log: createLogger({ destination: log, clock }),
    });
    const gate = quota.gate('main', 60);
    const m = { quota, gate, log };
    members.push(m);
    await quota.whenShared();
    return m;
  }

  /** Past the first epoch's settling, takes 19 polls (its share) and 3 exits (the headroom), all ended. */
  async function holdAboveShare(m: Member, clock: ManualClock): Promise<void> {
    slotOf(await m.gate.acquire(Priority.PollMarket)).end();
    await clock.advance(SETTLING + 1);
    const held = [...(await fill(m.gate, Priority.PollMarket)), ...(await fill(m.gate, Priority.Exit))];
    expect(held).toHaveLength(22);
    for (const slot of held) slot.end();
  }

  /** Takes slots of `priority` until refused; returns them. */
  async function fill(gate: SharedGate, priority: Priority): Promise<SharedSlot[]> {
    const slots: SharedSlot[] = [];
    for (;;) {
      const grant = await gate.acquire(priority);
      if (!grant.admitted) return slots;
      slots.push(grant.slot);
    }
  }

  it('holds polls to the share and lets order work into the headroom; a daemon that loses Redis above its share waits until it is back under', async () => {
    const clock = new ManualClock();
    const a = await member(clock, 'a');
    // The very first call starts the epoch: settle first (order work may not pass the share while settling).
    slotOf(await a.gate.acquire(Priority.PollMarket)).end();
    await clock.advance(SETTLING + 1);

    // Polls stop at the share (19: b and c keep theirs, 3 are order work's), order work goes to 22.
    const polls = await fill(a.gate, Priority.PollMarket);
    expect(polls).toHaveLength(19);
    const orders = await fill(a.gate, Priority.Exit);
    expect(orders).toHaveLength(3);
    const ended = [...polls, ...orders];
    const t0 = clock.now();
    for (const slot of ended) {
      slot.end();
      await clock.advance(1_000);
    }
    // The last end's write reaches Redis before it dies (an end is fire-and-forget).
    await expect
      .poll(async () => (await probe.zrange(quotaKeys(quotaKeyId(KEY), 'main').daemonPrefix + 'a', 0, -1, 'WITHSCORES')).at(-1))
      .toBe(String(t0 + 21_000 + WINDOW));

    const lost = a.quota.events.next('lost');
    await server.kill();
    await lost;
    // 22 own entries, a share of 19: nothing until the 4th oldest (ended at t0 + 3 s) leaves the window.
    const refused = await a.gate.acquire(Priority.Exit);
    expect(refused).toEqual({ admitted: false, retryInMs: t0 + 3_000 + WINDOW - clock.now() });
    await clock.advance(t0 + 3_000 + WINDOW - clock.now() - 1);
    expect((await a.gate.acquire(Priority.Exit)).admitted).toBe(false);
    await clock.advance(1);
    slotOf(await a.gate.acquire(Priority.Exit)).end();
    expect((await a.gate.acquire(Priority.Exit)).admitted).toBe(false);
    expect(a.log.lines().map((l) => [l['level'], l['msg']])).toEqual([
      ['warn', "shared quota lost: connection closed; keeping to this daemon's share (19 of 60 per 60 s on main) until Redis is back"],
    ]);
  });

  it('a Redis emptied under a live connection (FLUSHALL, no reconnect) settles on what the daemon knows it holds', async () => {
    const clock = new ManualClock();
    const a = await member(clock, 'a');
    // Above its share of 19 when Redis loses everything.
    await holdAboveShare(a, clock);
    await probe.flushall();
    // Redis now counts nothing for `a` and starts a new epoch; the daemon's own record still says 22.
    // Before it passed its own count to the script, this admitted 19 more at once.
    expect((await a.gate.acquire(Priority.Exit)).admitted).toBe(false);
    expect((await a.gate.acquire(Priority.PollMarket)).admitted).toBe(false);
    expect(await probe.hget(quotaKeys(quotaKeyId(KEY), 'main').epoch, 'start')).toBe(String(clock.now()));
  });

  it('a restarted daemon waits for Redis before its first request, and counts what its previous process sent', async () => {
    const clock = new ManualClock();
    const first = await member(clock, 'a');
    await holdAboveShare(first, clock);
    await expect.poll(async () => probe.zcard(quotaKeys(quotaKeyId(KEY), 'main').daemonPrefix + 'a')).toBe(22);
    first.quota.close();

    // The same wallet's next process: its first ask, made before its connection is ready, waits for it
    // and is judged with the 22 its previous process left in the window (an empty record said 0).
    const log = new MemoryStream();
    const again = new FleetQuota({
      redis: openFleetRedis({ url: new Secret(server.url), maxReconnectDelayMs: 50 }),
      label: 'redis://test',
      apiKey: KEY,
      daemonId: 'a',
      size: 3,
      leaseMs: LEASE,
      clock,
      random: createRandom('a2'),
      log: createLogger({ destination: log, clock }),
    });
    const gate = again.gate('main', 60);
    members.push({ quota: again, gate, log });
    expect(again.mode).toBe('starting');
    expect((await gate.acquire(Priority.PollMarket)).admitted).toBe(false);
    expect(again.mode).toBe('shared');
  });

  it('keeps every daemon to its share while an empty Redis settles, then lets order work into the headroom again', async () => {
    const clock = new ManualClock();
    const a = await member(clock, 'a');
    slotOf(await a.gate.acquire(Priority.PollMarket)).end();
    await clock.advance(SETTLING + WINDOW);

    const lost = a.quota.events.next('lost');
    await server.kill();
    await lost;
    const restored = a.quota.events.next('restored');
    await server.restart();
    expect(await restored).toEqual({ reseeded: 0 });
    expect(await probe.hget(quotaKeys(quotaKeyId(KEY), 'main').epoch, 'start')).toBe(String(clock.now()));

    // Settling, polls keep the share's last slot for order work, which takes it.
    const settlingPolls = await fill(a.gate, Priority.PollMarket);
    expect(settlingPolls).toHaveLength(18);
    const settling = [...settlingPolls, ...(await fill(a.gate, Priority.Exit))];
    expect(settling).toHaveLength(19);
    for (const slot of settling) slot.end();
    await clock.advance(SETTLING);
    expect(await fill(a.gate, Priority.Exit)).toHaveLength(22);
    expect(a.log.lines().map((l) => l['msg'])).toEqual([
      "shared quota lost: connection closed; keeping to this daemon's share (19 of 60 per 60 s on main) until Redis is back",
      "shared quota restored on redis://test: re-seeded 0 of this daemon's entries",
    ]);
  });

  it('writes back the entries a daemon made while Redis was gone before it shares again', async () => {
    const clock = new ManualClock();
    const a = await member(clock, 'a');
    const lost = a.quota.events.next('lost');
    await server.kill();
    await lost;
    // Alone, polls keep one slot of the share for order work: 18 polls, then an exit still goes.
    const local = await fill(a.gate, Priority.PollState);
    expect(local).toHaveLength(18);
    const exit = await fill(a.gate, Priority.Exit);
    expect(exit).toHaveLength(1);
    local[0]?.end();
    const restored = a.quota.events.next('restored');
    await server.restart();
    expect(await restored).toEqual({ reseeded: 19 });
    const scores = (await probe.zrange(quotaKeys(quotaKeyId(KEY), 'main').daemonPrefix + 'a', 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1);
    // One ended (end + window), 18 in flight (start + lease + window).
    expect(scores.map(Number).sort()).toEqual([clock.now() + WINDOW, ...Array<number>(18).fill(clock.now() + LEASE + WINDOW)]);
  });

  it('falls back when a command times out on a live connection, and shares again once Redis answers', async () => {
    const clock = new ManualClock();
    const log = new MemoryStream();
    const redis = openFleetRedis({ url: new Secret(server.url), maxReconnectDelayMs: 50, commandTimeoutMs: 100 });
    const quota = new FleetQuota({
      redis,
      label: 'redis://test',
      apiKey: KEY,
      daemonId: 'a',
      size: 3,
      leaseMs: LEASE,
      clock,
      random: createRandom('a'),
      log: createLogger({ destination: log, clock }),
    });
    members.push({ quota, gate: quota.gate('main', 60), log });
    const gate = quota.gate('execute', 600);
    await quota.whenShared();
    // Redis stops answering for 600 ms, the connection stays up: no `close`, no `ready`.
    await probe.client('PAUSE', 600, 'ALL');
    const lost = quota.events.next('lost');
    slotOf(await gate.acquire(Priority.Place)).end();
    expect(await lost).toEqual({ reason: 'command timed out' });
    await expect.poll(async () => (await probe.ping()) === 'PONG').toBe(true);
    // A local decision a second later sees the connection ready and tries Redis again.
    await clock.advance(1_000);
    const restored = quota.events.next('restored');
    slotOf(await gate.acquire(Priority.Place)).end();
    expect((await restored).reseeded).toBeGreaterThanOrEqual(1);
    expect(quota.shared).toBe(true);
    expect(log.lines().map((l) => String(l['msg']).slice(0, 30))).toEqual(['shared quota lost: command tim', 'shared quota restored on redis']);
  });

  it('warns once when more daemons share the key than fleet.size says, and still admits', async () => {
    const clock = new ManualClock();
    const fleet = [];
    for (const name of ['a', 'b', 'c', 'd']) fleet.push(await member(clock, name));
    for (const m of fleet) slotOf(await m.gate.acquire(Priority.PollMarket));
    for (const m of fleet) slotOf(await m.gate.acquire(Priority.PollMarket));
    // Each daemon says it once (all four are registered from their first contact), however often it asks.
    for (const m of fleet) {
      expect(m.log.lines().map((l) => l['msg'])).toEqual([
        "4 daemons share this API key's quota but fleet.size is 3: set fleet.size to the number of daemons, or the fleet can exceed the quota while Redis is unreachable",
      ]);
    }
  });

  it('forgets a daemon silent for longer than the longest lease (5 minutes) and a window, with its entries', async () => {
    const clock = new ManualClock();
    const a = await member(clock, 'a');
    const b = await member(clock, 'b');
    slotOf(await b.gate.acquire(Priority.PollMarket)).end();
    b.quota.close();
    const keys = quotaKeys(quotaKeyId(KEY), 'main');
    // Not at this daemon's own lease and window: another's lease may be longer (api.timeout up to 5 minutes).
    await clock.advance(LEASE + WINDOW + 1);
    slotOf(await a.gate.acquire(Priority.PollMarket));
    expect(await probe.zscore(keys.members, 'b')).not.toBeNull();
    await clock.advance(300_000 - LEASE - 1);
    slotOf(await a.gate.acquire(Priority.PollMarket));
    expect(await probe.zscore(keys.members, 'b')).not.toBeNull();
    await clock.advance(1);
    slotOf(await a.gate.acquire(Priority.PollMarket));
    expect(await probe.zscore(keys.members, 'b')).toBeNull();
    expect(await probe.exists(keys.daemonPrefix + 'b')).toBe(0);
  });
});
