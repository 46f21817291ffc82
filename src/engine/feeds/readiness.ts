/**
 * Feeds as /readyz checks and /status documents: a feed is ready while its last success is younger
 * than 3 intervals (a feed that never succeeded is not ready). A failing feed that still has a fresh
 * value stays ready: trading on a 20 s old price with a 10 s interval is fine, on a 40 s old one not.
 * A paused feed (its API area is off for this key, or no loaded strategy needs it) is ready, and says
 * why it sends nothing: what is off is the operator's to fix or accept, not a reason to restart.
 */
import type { ReadinessCheck } from '../../ops/opsServer.js';
import { FRESH_INTERVALS, type FeedState } from './poller.js';

/** The part of a feed that health and metrics read. */
export interface FeedStatusSource {
  readonly name: string;
  state(): Omit<FeedState<unknown>, 'value'> & { value?: unknown };
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

/** One readiness check per feed, named `feed:<name>`. */
export function feedReadinessChecks(feeds: readonly FeedStatusSource[]): ReadinessCheck[] {
  return feeds.map((feed) => ({
    name: `feed:${feed.name}`,
    probe() {
      const s = feed.state();
      if (s.paused !== null) return { ok: true, detail: `paused: ${s.paused}` };
      if (s.fresh) return { ok: true };
      const last = s.lastError ? `; last error ${s.lastError.code}: ${s.lastError.message}` : '';
      const age = s.ageMs === null ? 'no successful poll yet' : `last success ${seconds(s.ageMs)} ago`;
      return { ok: false, detail: `${age} (limit ${FRESH_INTERVALS} × ${seconds(s.intervalMs)})${last}` };
    },
  }));
}

/** A JSON-safe summary per feed for /status (no values: they can be large). */
export function feedStatus(feeds: readonly FeedStatusSource[]): Record<string, unknown>[] {
  return feeds.map((feed) => {
    const { value: _value, ...rest } = feed.state();
    return rest;
  });
}
