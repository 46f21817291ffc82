/**
 * The prediction API a CLI command asks (`markets search`, `events`, and the id checks of `validate`
 * and `plan`), as the config says: live mode, `api.base_url` with the key from `api.key_env` (or
 * keyless with `api.keyless: true`); paper mode, the embedded simulator in process
 * (paper/paperWorldView.ts, loaded only then). One try per call, no retries: a person is waiting,
 * and the failure is theirs to read.
 */
import type { Config } from '../config/config.js';
import { ApiError, ParamsError, TransportError } from '../jupiter/errors.js';
import { createJupiterClient, type JupiterClient } from '../jupiter/transport.js';
import { PAPER_API_KEY } from '../paper/paperWorld.js';
import { createRandom } from '../random.js';
import type { CliContext } from './context.js';

export type PredictionApi =
  | {
      readonly ok: true;
      readonly client: JupiterClient;
      /** Where the answers come from, for messages: the API root, or which paper world. */
      readonly where: string;
      readonly mode: Config['mode'];
      close(): void;
    }
  | { readonly ok: false; readonly reason: string };

export async function openPredictionApi(config: Config, ctx: CliContext): Promise<PredictionApi> {
  if (config.mode === 'paper') {
    // Loaded here, not at the top: the daemon's live path never carries the simulator.
    const { openPaperWorldView } = await import('../paper/paperWorldView.js');
    const view = openPaperWorldView(config, ctx.clock);
    return opened(config, ctx, { baseUrl: view.baseUrl, apiKey: PAPER_API_KEY, requestsPerSecond: 1_000, fetch: view.fetch }, view.description);
  }
  const key = config.api.key?.reveal();
  if (key === undefined && !config.api.keyless)
    return { ok: false, reason: `${config.api.key_env} is not set: ${config.mode} mode asks ${config.api.base_url} with that key (or set api.keyless: true)` };
  return opened(
    config,
    ctx,
    { baseUrl: config.api.base_url, apiKey: key, requestsPerSecond: config.api.requests_per_second, ...(ctx.network ? { fetch: ctx.network } : {}) },
    config.api.base_url,
  );
}

function opened(
  config: Config,
  ctx: CliContext,
  target: { baseUrl: string; apiKey: string | undefined; requestsPerSecond: number; fetch?: typeof globalThis.fetch },
  where: string,
): PredictionApi {
  const client = createJupiterClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    requestsPerSecond: target.requestsPerSecond,
    clock: ctx.clock,
    random: createRandom(),
    timeoutMs: config.api.timeout,
    maxReadAttempts: 1,
    ...(target.fetch ? { fetch: target.fetch } : {}),
  });
  return { ok: true, client, where, mode: config.mode, close: () => client.close() };
}

/** One line for a failed call: where it asked and Jupiter's (or the network's) answer; undefined for anything else. */
export function apiFailure(error: unknown, where: string): string | undefined {
  if (error instanceof ApiError || error instanceof TransportError || error instanceof ParamsError) return `could not ask ${where}: ${error.message}`;
  return undefined;
}
