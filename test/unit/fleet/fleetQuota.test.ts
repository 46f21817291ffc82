/**
 * The fleet's acceptance: three real daemons on one key, their limiters' windows shared in a real
 * Redis (`fleet.redis`, `fleet.size: 3`), against a gateway that enforces the key's quota. For ten
 * simulated minutes: no 429, at least 90 % of the quota used, and no poll of any daemon sent while
 * order work of any daemon waited for a slot (execute calls never wait at all). Then the same with
 * Redis killed at minute 4 and back at minute 6: still no 429, and each daemon says once that it
 * lost the shared quota and once that it has it again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';
import { fleetWorld, MIN, START, type FleetWorld } from './fleetWorld.js';
import { FLEET_CONFIG, FLEET_STRATEGIES, QUOTA } from './fleetStrategies.js';
import { isOrderWork, type LimiterTrace } from './limiterTrace.js';
import { redisQuiesce, type RedisQuiesce } from './redisQuiesce.js';

/** What a daemon logs when it loses the shared quota, and when it has it again. */
const LOST = 'shared quota lost';
const RESTORED = 'shared quota restored';

const SIZE = 3;
const MINUTES = 10;

let server: RedisServer;
let ping: RedisQuiesce;
let world: FleetWorld | undefined;
beforeEach(async () => {
  if (!redisPresent) return;
  server = await startRedis();
  ping = redisQuiesce(server.url);
});
afterEach(async () => {
  await world?.stop();
  world = undefined;
  ping?.close();
  await server?.stop();
});

async function fleet(label: string): Promise<FleetWorld> {
  world = await fleetWorld({
    label,
    size: SIZE,
    quotaPerMinute: QUOTA,
    strategies: FLEET_STRATEGIES,
    config: [...FLEET_CONFIG, `fleet: { redis: "${server.url}", size: ${SIZE} }`],
    quiesce: () => ping.quiesce(),
  });
  return world;
}

/** Main-bucket requests the gateway let through after the first minute, and the share of the quota that is. */
function used(w: FleetWorld): { perMinute: number[]; share: number } {
  const perMinute = w.gateway.admittedPerMinute('main', START + MIN, MINUTES - 1);
  return { perMinute, share: perMinute.reduce((a, b) => a + b, 0) / (QUOTA * (MINUTES - 1)) };
}

/** The priority property, every daemon against every daemon: described for a failure's message. */
function pollsPastOrderWork(trace: LimiterTrace, options: { sameDaemon?: boolean } = {}): string[] {
  return trace
    .pollsPastWaitingOrderWork()
    .filter(({ waiting, poll }) => !options.sameDaemon || waiting.daemon === poll.daemon)
    .map(
      ({ waiting, poll }) =>
        `daemon ${poll.daemon} sent ${poll.route} at ${poll.at - START} ms while daemon ${waiting.daemon}'s ${waiting.route} waited (${waiting.waitedMs} ms in all)`,
    );
}

describe.skipIf(!redisPresent)('three daemons on one key sharing its quota through Redis', () => {
  it('ten minutes: no 429, at least 90 % of the quota used, order work never waits behind a poll', async () => {
    const w = await fleet('shared');
    await w.drive(MINUTES * MIN);
    const counts = JSON.stringify(w.gateway.byBucketAndStatus());
    expect(w.gateway.tooMany(), counts).toBe(0);
    const { perMinute, share } = used(w);
    expect(share, `admitted per minute ${perMinute.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    expect(pollsPastOrderWork(w.trace)).toEqual([]);
    const executes = w.trace.dispatches((s) => s.bucket === 'execute');
    expect(executes.length).toBeGreaterThan(0);
    expect(executes.filter((s) => s.waitedMs > 0)).toEqual([]);
    // Every daemon traded and every daemon polled: none was starved by the others.
    for (const m of w.members) {
      expect(executes.some((s) => s.daemon === m.index)).toBe(true);
      expect(w.trace.dispatches((s) => s.daemon === m.index && !isOrderWork(s.priority)).length).toBeGreaterThan(0);
    }
    // Nothing went wrong, so nothing says so: not during the run, and not at the stop (Redis's connection closing).
    await w.stop();
    for (const m of w.members) {
      const complaints = m.out.lines().filter((line) => line.level === 'warn' || line.level === 'error');
      expect(
        complaints.map((line) => line.msg),
        `daemon ${m.index}`,
      ).toEqual([]);
    }
  }, 120_000);

  it('Redis killed at minute 4 and back at minute 6: still no 429, and each daemon says so once each way', async () => {
    const w = await fleet('outage');
    await w.drive(4 * MIN);
    await server.kill();
    // The daemons find Redis gone on their own connections: give them the instants to try.
    expect(await w.driveUntil(() => w.members.every((m) => m.said(LOST).length > 0), 1000, 2 * MIN)).toBe(true);
    await w.drive(START + 6 * MIN - w.clock.now());
    await server.restart();
    // Reconnecting is real time (ioredis backs off up to 2 s): drive on while it happens.
    expect(await w.driveUntil(() => w.members.every((m) => m.said(RESTORED).length > 0), 1000, 2 * MIN)).toBe(true);
    await w.drive(START + MINUTES * MIN - w.clock.now());
    expect(w.gateway.tooMany(), JSON.stringify(w.gateway.byBucketAndStatus())).toBe(0);
    // Alone, each daemon keeps to its share: the fleet still uses the quota.
    const { perMinute, share } = used(w);
    expect(share, `admitted per minute ${perMinute.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    expect(w.trace.dispatches((s) => s.bucket === 'execute' && s.waitedMs > 0)).toEqual([]);
    // Alone, each daemon keeps a slot of its share from its polls and its order work goes before its
    // own polls. Across daemons nothing can promise it while they cannot see each other: a burst of
    // one daemon's order work larger than that slot waits while another polls in its own share.
    expect(pollsPastOrderWork(w.trace, { sameDaemon: true })).toEqual([]);
    // Counted after the stop: closing the connection on the way out is not a loss.
    await w.stop();
    for (const m of w.members) {
      const [lost, ...moreLost] = m.said(LOST);
      const [restored, ...moreRestored] = m.said(RESTORED);
      expect([moreLost, moreRestored], `daemon ${m.index}`).toEqual([[], []]);
      expect(lost).toMatchObject({ level: 'warn', time: START + 4 * MIN });
      expect(restored?.level).toBe('info');
      expect(Number(restored?.time)).toBeGreaterThanOrEqual(START + 6 * MIN);
      // The log names Redis by its label, never by a URL that could carry a password.
      expect(m.out.text).not.toContain('redis://:');
    }
  }, 120_000);
});
