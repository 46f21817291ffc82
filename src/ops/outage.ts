/**
 * "Down longer than a threshold" alerts, deduplicated: a component (a feed, the Trigger login, the
 * RPC) that reports `down()` and is still down `thresholdMs` later (on the injected Clock) raises
 * ONE `down` notification for that outage, however often it fails meanwhile; the next `up()` ends the
 * outage and, if it was alerted, sends one `recovered`. A blip shorter than the threshold sends nothing.
 * A feed that pauses (its API area refused the key, or nothing needs it: engine/areas/) is not down:
 * its outage is dropped without a word, and the area's own notice says what is off.
 */
import type { Clock } from '../clock.js';
import type { Notification } from './notification.js';

export interface OutageState {
  readonly component: string;
  /** Wall time the outage began, UTC epoch ms. */
  readonly since: number;
  readonly downForMs: number;
  readonly reason: string;
  readonly alerted: boolean;
}

export interface OutageMonitorOptions {
  readonly clock: Clock;
  /** Where alerts go (a Notifier's notify, bound). Must not throw (the Notifier's never does). */
  readonly notify: (notification: Notification) => void;
  /** `notify.down_after` from the config. */
  readonly thresholdMs: number;
}

/** The part of a feed the monitor watches (structural: engine feeds satisfy it). */
export interface WatchedFeed {
  readonly name: string;
  readonly events: {
    on(name: 'failed', fn: (e: { code: string; message: string; paused?: string | null }) => void): () => void;
    on(name: 'updated', fn: (e: unknown) => void): () => void;
    on(name: 'paused', fn: (e: unknown) => void): () => void;
  };
}

export interface OutageMonitor {
  /** The component failed (again). Starts an outage if none is running; otherwise only updates its reason. */
  down(component: string, reason: string): void;
  /** The component works. Ends its outage; sends `recovered` if `down` was sent. */
  up(component: string): void;
  /** The component is no longer expected to work (a paused feed): ends its outage and sends nothing. */
  clear(component: string): void;
  /** Reports a feed as `feed:<name>`: down on `failed`, up on `updated`, cleared when it pauses. Returns the unsubscribe function. */
  watchFeed(feed: WatchedFeed): () => void;
  /** Outages running now. */
  current(): OutageState[];
  /** Cancels pending threshold timers; nothing more is sent. */
  close(): void;
}

interface Outage {
  readonly since: number;
  readonly sinceMonotonic: number;
  reason: string;
  alerted: boolean;
  readonly timer: AbortController;
}

export function createOutageMonitor(options: OutageMonitorOptions): OutageMonitor {
  const { clock, notify, thresholdMs } = options;
  const outages = new Map<string, Outage>();
  let closed = false;
  const downFor = (o: Outage): number => clock.monotonic() - o.sinceMonotonic;

  const monitor: OutageMonitor = {
    down(component, reason) {
      if (closed) return;
      const existing = outages.get(component);
      if (existing) {
        existing.reason = reason;
        return;
      }
      const outage: Outage = { since: clock.now(), sinceMonotonic: clock.monotonic(), reason, alerted: false, timer: new AbortController() };
      outages.set(component, outage);
      clock.sleep(thresholdMs, outage.timer.signal).then(
        () => {
          if (closed || outages.get(component) !== outage) return;
          outage.alerted = true;
          notify({ type: 'down', component, since: outage.since, downForMs: downFor(outage), reason: outage.reason });
        },
        () => undefined,
      );
    },
    up(component) {
      const outage = outages.get(component);
      if (!outage) return;
      outages.delete(component);
      outage.timer.abort();
      if (outage.alerted && !closed) notify({ type: 'recovered', component, since: outage.since, downForMs: downFor(outage) });
    },
    clear(component) {
      const outage = outages.get(component);
      if (!outage) return;
      outages.delete(component);
      outage.timer.abort();
    },
    watchFeed(feed) {
      const component = `feed:${feed.name}`;
      const offs = [
        feed.events.on('failed', (e) => ((e.paused ?? null) === null ? monitor.down(component, `${e.code}: ${e.message}`) : monitor.clear(component))),
        feed.events.on('updated', () => monitor.up(component)),
        feed.events.on('paused', () => monitor.clear(component)),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
    current() {
      return [...outages].map(([component, o]) => ({ component, since: o.since, downForMs: downFor(o), reason: o.reason, alerted: o.alerted }));
    },
    close() {
      closed = true;
      for (const o of outages.values()) o.timer.abort();
      outages.clear();
    },
  };
  return monitor;
}
