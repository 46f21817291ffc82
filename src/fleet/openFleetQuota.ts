/**
 * The daemon's shared quota, from its config: one Redis connection (fleetRedis.ts) and the
 * FleetQuota over it. The engine loads this module only when `fleet.redis` is set, so a daemon
 * without a fleet never loads ioredis.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../ops/log.js';
import type { Random } from '../random.js';
import type { Secret } from '../secret.js';
import { openFleetRedis } from './fleetRedis.js';
import { redisLabel } from './redisLabel.js';
import { FleetQuota } from './sharedQuota.js';

export interface OpenFleetQuotaOptions {
  readonly url: Secret;
  readonly apiKey: string | undefined;
  /** Stable per daemon: its mode and the wallet's public key. */
  readonly daemonId: string;
  readonly size: number;
  /** The request timeout (api.timeout); 0 (none) counts an exchange in flight for a whole window. */
  readonly timeoutMs: number;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: Logger;
  /** Told each time the quota becomes shared (true) or is lost (false): the metrics. */
  readonly onShared?: ((shared: boolean) => void) | undefined;
}

export function openFleetQuota(options: OpenFleetQuotaOptions): FleetQuota {
  const label = redisLabel(options.url);
  const quota = new FleetQuota({
    redis: openFleetRedis({ url: options.url }),
    label,
    apiKey: options.apiKey,
    daemonId: options.daemonId,
    size: options.size,
    leaseMs: options.timeoutMs > 0 ? options.timeoutMs : 60_000,
    clock: options.clock,
    random: options.random,
    log: options.log,
  });
  const onShared = options.onShared;
  if (onShared) {
    quota.events.on('lost', () => onShared(false));
    quota.events.on('restored', () => onShared(true));
  }
  options.log.info({ redis: label, size: options.size }, `rate limits shared by a fleet of ${options.size} on ${label}`);
  return quota;
}
