/**
 * The daemon's Jupiter client with and without `fleet.redis`: with it, every request also takes a
 * slot in the fleet's Redis (under the wallet's id, never the API key) and stopping the client closes
 * the connection; without it, nothing reaches Redis. And src/jupiter never learns about Redis.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/clock.js';
import type { Config } from '../../../src/config/config.js';
import { createEngineClient } from '../../../src/engine/engineClient.js';
import { Priority } from '../../../src/jupiter/limiter.js';
import { createLogger } from '../../../src/ops/log.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { Redactor } from '../../../src/ops/redact.js';
import { createRandom } from '../../../src/random.js';
import { Secret } from '../../../src/secret.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';

const KEY = 'engine-client-fleet-key-8d1f2a';
const WALLET = 'Fq1rRzZ5Xyxq4rUvK5dSxzR1pG8rJkqH7n3YHhUq9bCE';

function config(redis: string | null): Pick<Config, 'api' | 'fleet'> {
  return {
    api: { base_url: 'https://api.jup.test', key: new Secret(KEY), requests_per_second: 1, timeout: 10_000 },
    fleet: { redis: redis === null ? null : new Secret(redis), size: 2, name: 'default', heartbeat: 15_000 },
  } as unknown as Pick<Config, 'api' | 'fleet'>;
}

const answer = (): Promise<Response> => Promise.resolve(Response.json({ ok: true }));

describe('src/jupiter stays free of Redis', () => {
  it('imports neither ioredis nor the fleet', () => {
    const dir = join(import.meta.dirname, '../../../src/jupiter');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toMatch(/from '(ioredis|\.\.\/fleet\/[^']*)'/);
  });

  it('the engine loads the fleet, and ioredis with it, only when fleet.redis is set', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../src/engine/engineClient.ts'), 'utf8');
    expect(text).not.toMatch(/^import .*(ioredis|fleet)/m);
    expect(text).toContain("await import('../fleet/openFleetQuota.js')");
  });
});

describe('the fleet quota on /metrics', () => {
  it('exists only once a fleet reports, and follows its transitions', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    expect(await metrics.scrape()).not.toContain('fleet_quota');
    metrics.fleetQuotaShared(true);
    metrics.fleetQuotaShared(false);
    const text = await metrics.scrape();
    expect(text).toContain('jupbot_fleet_quota_shared 0\n');
    expect(text).toContain('jupbot_fleet_quota_transitions_total{to="shared"} 1\n');
    expect(text).toContain('jupbot_fleet_quota_transitions_total{to="local"} 1\n');
  });
});

describe.skipIf(!redisPresent)('the engine client in a fleet', () => {
  let server: RedisServer;
  let probe: Redis;
  beforeAll(async () => {
    server = await startRedis();
    probe = new Redis(server.url);
  });
  afterAll(async () => {
    probe.disconnect();
    await server.stop();
  });
  beforeEach(async () => {
    await probe.flushall();
  });

  async function client(
    redis: string | null,
    onFleetQuota?: (shared: boolean) => void,
  ): Promise<{ request: () => Promise<unknown>; close: () => void; log: MemoryStream }> {
    const log = new MemoryStream();
    const clock = new ManualClock();
    const c = await createEngineClient({
      config: config(redis),
      paper: null,
      clock,
      random: createRandom('engine-client'),
      log: createLogger({ destination: log, clock }),
      redactor: new Redactor(),
      daemonId: WALLET,
      network: answer,
      onFleetQuota,
    });
    const schema = z.looseObject({ ok: z.boolean() });
    return {
      request: () => c.request({ method: 'GET', path: '/tokens/v2/search', route: '/tokens/v2/search', schema, priority: Priority.PollMarket }),
      close: () => c.close(),
      log,
    };
  }

  it('takes each request slot in Redis under the wallet, and closes the connection with the client', async () => {
    const before = Number((await probe.info('clients')).match(/connected_clients:(\d+)/)?.[1]);
    const told: boolean[] = [];
    const c = await client(server.url, (shared) => told.push(shared));
    // The first requests may go before the connection is up: they keep to the daemon's share and are written to Redis once it is.
    await c.request();
    await c.request();
    await expect.poll(async () => (await probe.keys('*')).length).toBe(4);
    const keys = (await probe.keys('*')).sort();
    // Both buckets register the daemon; only main has entries.
    expect(keys).toEqual([
      expect.stringMatching(/^jupbot:q:\{[0-9a-f]{16}\}:epoch$/),
      expect.stringMatching(/^jupbot:q:\{[0-9a-f]{16}\}:execute:m$/),
      expect.stringMatching(new RegExp(`^jupbot:q:\\{[0-9a-f]{16}\\}:main:d:${WALLET}$`)),
      expect.stringMatching(/^jupbot:q:\{[0-9a-f]{16}\}:main:m$/),
    ]);
    const entries = await probe.zrange(keys[2] as string, 0, -1);
    expect(told).toEqual([true]);
    expect(entries).toHaveLength(2);
    expect(c.log.lines().map((l) => l['msg'])).toEqual([`rate limits shared by a fleet of 2 on ${server.url}`]);
    c.close();
    await expect.poll(async () => Number((await probe.info('clients')).match(/connected_clients:(\d+)/)?.[1])).toBe(before);
  });

  it('without fleet.redis, nothing reaches Redis and nothing is logged', async () => {
    const c = await client(null);
    await c.request();
    expect(await probe.keys('*')).toEqual([]);
    expect(c.log.text).toBe('');
    c.close();
  });
});
