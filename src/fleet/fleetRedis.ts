/**
 * The fleet's Redis connection: one ioredis client per daemon, set to fail fast rather than wait.
 *
 * Why these options: a request that waits for a rate-limit slot must never wait on Redis. With the
 * offline queue off, a command sent while the connection is down fails at once (the limiter then
 * falls back to its own share of the quota); a command that gets no answer fails after
 * `commandTimeoutMs`. ioredis keeps reconnecting in the background, and its `ready` event is how the
 * fleet learns Redis is back. The URL may carry a password: it stays inside the {@link Secret} and
 * the client, and only its label (redisLabel.ts: host, port, database) is ever logged.
 */
import { Redis } from 'ioredis';
import type { Secret } from '../secret.js';

export interface FleetRedisOptions {
  /** The Redis URL (`redis://` or `rediss://`), possibly with a password. */
  readonly url: Secret;
  /** Milliseconds before an unanswered command fails. @default 1000 */
  readonly commandTimeoutMs?: number;
  /** Milliseconds before a connection attempt gives up. @default 2000 */
  readonly connectTimeoutMs?: number;
  /** The longest pause between reconnection attempts. @default 2000 */
  readonly maxReconnectDelayMs?: number;
}

/** Opens a client that connects in the background; `ready` fires each time it is usable again. */
export function openFleetRedis(options: FleetRedisOptions): Redis {
  const maxDelay = options.maxReconnectDelayMs ?? 2_000;
  return new Redis(options.url.reveal(), {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    // Keep trying for as long as the daemon runs: a fleet outlives any one Redis restart.
    retryStrategy: (times: number) => Math.min(100 * times, maxDelay),
    // A `READONLY` replica after a failover: reconnect, the primary may be elsewhere now.
    reconnectOnError: (error: Error) => error.message.startsWith('READONLY'),
    lazyConnect: false,
  });
}
