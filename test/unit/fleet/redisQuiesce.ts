/**
 * Waiting for the daemons' Redis round trips, which the in-process network cannot see: one PING on
 * a connection of our own. Redis serves its clients from one event loop, in the order it reads
 * them, so by the time our PING comes back the commands the daemons wrote before it have been
 * answered too and their answers are on their way into this process (the driver then lets the
 * daemons go idle again, and repeats while that changed anything). Without this wait the stepping
 * clock would move on while a limiter waits for Redis, and a request would seem to wait for a slot
 * for as long as the clock jumped. While Redis is down the PING fails at once: nothing to wait for.
 */
import { openFleetRedis } from '../../../src/fleet/fleetRedis.js';
import { Secret } from '../../../src/secret.js';

export interface RedisQuiesce {
  quiesce(): Promise<void>;
  close(): void;
}

export function redisQuiesce(url: string): RedisQuiesce {
  const redis = openFleetRedis({ url: new Secret(url), maxReconnectDelayMs: 50 });
  redis.on('error', () => undefined);
  return {
    async quiesce() {
      await redis.ping().catch(() => undefined);
    },
    close: () => redis.disconnect(),
  };
}
