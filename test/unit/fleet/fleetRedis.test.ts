/**
 * The fleet's Redis client against a real redis-server: it fails fast while Redis is gone (no
 * command waits in an offline queue), reconnects by itself once Redis is back, and never shows the
 * URL's password in what it logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFleetRedis } from '../../../src/fleet/fleetRedis.js';
import { redisLabel } from '../../../src/fleet/redisLabel.js';
import { Secret } from '../../../src/secret.js';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';

describe('redisLabel', () => {
  it('shows the scheme, host, port and database, never the user or password', () => {
    expect(redisLabel(new Secret('redis://jupbot:hunter2-secret@10.0.0.5:6380/2'))).toBe('redis://10.0.0.5:6380/2');
    expect(redisLabel(new Secret('rediss://cache.internal'))).toBe('rediss://cache.internal:6379/0');
  });
});

describe.skipIf(!redisPresent)('the fleet Redis client, on a real redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('fails a command at once while Redis is down, and is ready again after a restart', async () => {
    const redis = openFleetRedis({ url: new Secret(server.url), maxReconnectDelayMs: 50 });
    redis.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      expect(await redis.set('k', 'v')).toBe('OK');
      await server.kill();
      await new Promise<void>((resolve) => redis.once('close', () => resolve()));
      await expect(redis.get('k')).rejects.toThrow(/Stream isn't writeable and enableOfflineQueue options is false/);
      await server.restart();
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      // The restarted server is empty: nothing outlives a Redis without persistence.
      expect(await redis.get('k')).toBeNull();
    } finally {
      redis.disconnect();
    }
  });
});
