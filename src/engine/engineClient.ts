/**
 * The one rate-limited Jupiter client every call of the daemon goes through: paper mode's simulated
 * world with the paper key, else `api.base_url` with the configured key, at `api.requests_per_second`.
 * With `fleet.redis` set, its buckets share the key's quota with the rest of the fleet
 * (src/fleet/sharedQuota.ts); that module, and Redis's client with it, is loaded only then.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { createJupiterClient, type JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import type { Redactor } from '../ops/redact.js';
import { PAPER_API_KEY, type PaperWorld } from '../paper/paperWorld.js';
import type { Random } from '../random.js';

export interface EngineClientOptions {
  readonly config: Pick<Config, 'api' | 'fleet'>;
  readonly paper: Pick<PaperWorld, 'url'> | null;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: Logger;
  readonly redactor: Redactor;
  /** The daemon's id in the fleet's quota: its mode and wallet's public key (one daemon per wallet and mode). */
  readonly daemonId: string;
  /** Told when the fleet's shared quota is gained (true) or lost (false); only with `fleet.redis`. */
  readonly onFleetQuota?: ((shared: boolean) => void) | undefined;
  /** How it reaches the server. @default globalThis.fetch */
  readonly network?: typeof globalThis.fetch | undefined;
}

export async function createEngineClient(options: EngineClientOptions): Promise<JupiterClient> {
  const { config, paper } = options;
  const apiKey = paper ? PAPER_API_KEY : config.api.key?.reveal();
  const redis = config.fleet.redis;
  const sharedQuota =
    redis === null
      ? undefined
      : (await import('../fleet/openFleetQuota.js')).openFleetQuota({
          url: redis,
          apiKey,
          daemonId: options.daemonId,
          size: config.fleet.size,
          timeoutMs: config.api.timeout,
          clock: options.clock,
          random: options.random,
          log: options.log,
          onShared: options.onFleetQuota,
        });
  try {
    return createJupiterClient({
      baseUrl: paper?.url ?? config.api.base_url,
      apiKey,
      requestsPerSecond: config.api.requests_per_second,
      clock: options.clock,
      random: options.random,
      logger: options.log,
      redactor: options.redactor,
      timeoutMs: config.api.timeout,
      ...(options.network ? { fetch: options.network } : {}),
      ...(sharedQuota ? { sharedQuota } : {}),
    });
  } catch (error) {
    // The client closes the quota; without a client, its Redis connection is this function's to close.
    sharedQuota?.close();
    throw error;
  }
}
