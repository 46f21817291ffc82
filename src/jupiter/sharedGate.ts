/**
 * What the limiter asks when several daemons share one API key's quota: a gate that admits a request
 * against the whole fleet's window, or says how long to wait. Only the shape lives here, so
 * src/jupiter stays free of Redis: the fleet's implementation (src/fleet/sharedQuota.ts) is injected
 * through the client's options, and without it the limiter runs exactly its own local path.
 */
import type { Bucket } from './bucket.js';

/** A slot the fleet granted: `end()` once the exchange is over (idempotent). */
export interface SharedSlot {
  end(): void;
}

/** The gate's answer: a slot, or how long until asking again may succeed. */
export type SharedGrant = { readonly admitted: true; readonly slot: SharedSlot } | { readonly admitted: false; readonly retryInMs: number };

/** One bucket's fleet-wide gate. `acquire` never rejects: when the fleet is unreachable it decides locally. */
export interface SharedGate {
  acquire(priority: number): Promise<SharedGrant>;
}

/** The fleet's quota for one API key: a gate per bucket, built once the bucket's quota is known. */
export interface SharedQuota {
  gate(bucket: Bucket, quota: number): SharedGate;
  /** Lets go of the fleet's connection; gates answer locally from then on. Idempotent. */
  close(): void;
}
