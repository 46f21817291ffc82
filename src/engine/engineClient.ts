/**
 * The one rate-limited Jupiter client every call of the daemon goes through: paper mode's simulated
 * world with the paper key, else `api.base_url` with the configured key, at `api.requests_per_second`.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { createJupiterClient, type JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import type { Redactor } from '../ops/redact.js';
import { PAPER_API_KEY, type PaperWorld } from '../paper/paperWorld.js';
import type { Random } from '../random.js';

export interface EngineClientOptions {
  readonly config: Pick<Config, 'api'>;
  readonly paper: Pick<PaperWorld, 'url'> | null;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: Logger;
  readonly redactor: Redactor;
  /** How it reaches the server. @default globalThis.fetch */
  readonly network?: typeof globalThis.fetch | undefined;
}

export function createEngineClient(options: EngineClientOptions): JupiterClient {
  const { config, paper } = options;
  return createJupiterClient({
    baseUrl: paper?.url ?? config.api.base_url,
    apiKey: paper ? PAPER_API_KEY : config.api.key?.reveal(),
    requestsPerSecond: config.api.requests_per_second,
    clock: options.clock,
    random: options.random,
    logger: options.log,
    redactor: options.redactor,
    timeoutMs: config.api.timeout,
    ...(options.network ? { fetch: options.network } : {}),
  });
}
