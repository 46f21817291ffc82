/**
 * What a preflight vouches for: the parts of a live config that decide which money trades where.
 * A pass holds for the config it checked as long as these are the same; the gate compares them at
 * every live start (startGate.ts).
 *
 * Chosen narrowly on purpose. The wallet (whose money), the data directory (whose journal), the
 * strategies directory (which set of strategies: an example directory by mistake, say) and the two
 * endpoints (where orders go) are things a person changes rarely and must check again when they do.
 * A strategy file edited, added or removed, a poll interval, the log level or a webhook is routine
 * and needs no new preflight: the daemon checks strategies itself as they change. The RPC counts by
 * its origin alone, since its path and query often carry a key that is rotated.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config/config.js';
import { canonicalJson } from '../store/canonicalJson.js';

export interface StartFingerprint {
  readonly wallet: string;
  readonly data_dir: string;
  readonly strategies_dir: string;
  readonly api: string;
  readonly rpc: string;
}

/** The fingerprint's fields in the words of the config, for "what changed" lines. */
export const FINGERPRINT_WORDS: Readonly<Record<keyof StartFingerprint, string>> = {
  wallet: 'the wallet',
  data_dir: 'data_dir',
  strategies_dir: 'strategies_dir',
  api: 'api.base_url',
  rpc: 'the rpc.url host',
};

/** The RPC's origin (scheme, host, port): what is safe to record of a URL that may carry a key. */
export function rpcOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unparsable URL';
  }
}

export function startFingerprint(config: Pick<Config, 'data_dir' | 'strategies_dir' | 'api' | 'rpc'>, wallet: string): StartFingerprint {
  return { wallet, data_dir: config.data_dir, strategies_dir: config.strategies_dir, api: config.api.base_url, rpc: rpcOrigin(config.rpc.url) };
}

/** sha256 of the fingerprint's canonical JSON, hex. */
export function fingerprintHash(fingerprint: StartFingerprint): string {
  return createHash('sha256')
    .update(canonicalJson({ ...fingerprint }))
    .digest('hex');
}

/** The fields whose values differ, in the config's words. */
export function changedFields(before: Partial<StartFingerprint>, now: StartFingerprint): string[] {
  return (Object.keys(FINGERPRINT_WORDS) as (keyof StartFingerprint)[]).filter((key) => before[key] !== now[key]).map((key) => FINGERPRINT_WORDS[key]);
}
