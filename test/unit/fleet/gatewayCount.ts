/**
 * What the simulator's gateway answered, counted where it answers: every Jupiter request of every
 * daemon of a fleet test, by bucket, status and instant. The daemons' own view (their limiters) is
 * what is being tested, so the count is taken on the wire, from the answers themselves.
 */
import type { Clock } from '../../../src/clock.js';
import { type Bucket, bucketFor } from '../../../src/jupiter/bucket.js';

export interface GatewayAnswer {
  /** Which daemon asked (its index in the fleet). */
  readonly daemon: number;
  readonly bucket: Bucket;
  readonly path: string;
  /** The answer's status; 0 when there was none (the caller gave up, or the connection dropped). */
  readonly status: number;
  /** The clock when the request reached the gateway. */
  readonly at: number;
}

/** The Solana RPC shares the simulator's origin but not its gateway: it is not counted. */
const RPC_PATHS = new Set(['/', '/rpc']);

export class GatewayCount {
  readonly answers: GatewayAnswer[] = [];

  constructor(private readonly clock: Clock) {}

  /** `fetch` as daemon `daemon` uses it, every gateway answer counted on the way back. */
  fetchFor(daemon: number, fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (RPC_PATHS.has(url.pathname)) return fetch(input, init);
      const at = this.clock.now();
      const record = (status: number): void => {
        this.answers.push({ daemon, bucket: bucketFor(url.pathname), path: url.pathname, status, at });
      };
      try {
        const response = await fetch(input, init);
        record(response.status);
        return response;
      } catch (error) {
        record(0);
        throw error;
      }
    };
  }

  /** Answers with a 429 (the gateway's refusals over quota), in `bucket` or in both. */
  tooMany(bucket?: Bucket): number {
    return this.answers.filter((a) => a.status === 429 && (bucket === undefined || a.bucket === bucket)).length;
  }

  /** Requests of `bucket` the gateway let through (any answer but a 429, or none), per minute from `from`. */
  admittedPerMinute(bucket: Bucket, from: number, minutes: number): number[] {
    const counts = Array.from({ length: minutes }, () => 0);
    for (const a of this.answers) {
      if (a.bucket !== bucket || a.status === 429 || a.status === 0 || a.at < from) continue;
      const minute = Math.floor((a.at - from) / 60_000);
      if (minute < minutes) counts[minute] = (counts[minute] ?? 0) + 1;
    }
    return counts;
  }

  /** `{ "main 200": n, "main 429": n, … }`: the whole count at a glance, for a failure's message and the report. */
  byBucketAndStatus(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const a of this.answers) out[`${a.bucket} ${a.status}`] = (out[`${a.bucket} ${a.status}`] ?? 0) + 1;
    return out;
  }
}
