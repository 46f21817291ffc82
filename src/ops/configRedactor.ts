import type { Config } from '../config/config.js';
import { Redactor } from './redact.js';

/**
 * A redactor holding every secret a config carries (the API key, the wallet's key, the webhook
 * URLs, whose paths are their tokens): a command registers them before it writes its first line, so
 * no log line, error or audit row it writes can quote one.
 */
export function configRedactor(config: Config): Redactor {
  const redactor = new Redactor();
  for (const secret of [config.api.key, config.wallet.keypair, ...config.notify.webhooks.map((w) => w.url)]) {
    const value = secret?.reveal() ?? '';
    // Shorter values are not secrets worth scrubbing (and would mangle ordinary text).
    if (value.length >= 8) redactor.add(value);
  }
  return redactor;
}
