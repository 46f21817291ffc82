/**
 * Where the fleet's shared quota lives in Redis. Every key of one API key carries the same hash tag,
 * `{<keyId>}`, so the scripts touch a single slot (a Redis Cluster runs them on one node). The key
 * itself never reaches Redis: keyId is the first 16 hex digits of its SHA-256, enough to keep two keys
 * apart and useless for recovering the key.
 */
import { createHash } from 'node:crypto';
import type { Bucket } from '../jupiter/bucket.js';

/** The id of an API key in Redis key names; `keyless` when requests carry no key. */
export function quotaKeyId(apiKey: string | undefined): string {
  if (apiKey === undefined) return 'keyless';
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

export interface QuotaKeys {
  /** zset: daemonId → the wall time it was last seen (the registered members). */
  readonly members: string;
  /** hash {start}: when the current epoch of this Redis's data began (missing: new or lost data). */
  readonly epoch: string;
  /** Prefix of each member's zset of window entries: `<daemonPrefix><daemonId>`. */
  readonly daemonPrefix: string;
}

/** `jupbot:q:{<keyId>}:<bucket>:…` (the epoch is per API key: data is lost for all buckets at once). */
export function quotaKeys(keyId: string, bucket: Bucket): QuotaKeys {
  const base = `jupbot:q:{${keyId}}`;
  return { members: `${base}:${bucket}:m`, epoch: `${base}:epoch`, daemonPrefix: `${base}:${bucket}:d:` };
}
