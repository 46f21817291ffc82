/**
 * Prometheus metrics on a dedicated prom-client Registry (never the global one, so two daemons in one
 * test process do not collide). Every metric is listed with its labels in docs/operations.md "Metrics".
 *
 * Sources:
 * - the Jupiter client's events (`attachClient`): requests, durations, 429s, rate-limit waits, retries;
 *   queue depth is read from the client's limiters at scrape time;
 * - feeds (`attachFeed`): age, freshness and consecutive failures computed at scrape time from the
 *   feed's state, failures counted from its `failed` events;
 * - the notifier (`notification`): sent, failed and dropped webhook posts;
 * - the ops server (`opsRefused`): connections and requests it turned away under load;
 * - the executor (later): `intentStateChanged`, `setIntentCounts`, `fillRecorded`, `errorRecorded`.
 *   Until it calls them those series simply do not exist; nothing is faked.
 *
 * Labels are bounded: routes are path templates, codes come from the error catalogue, feed names and
 * intent states are small fixed sets. No mint, order id or amount ever becomes a label.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The Prometheus text format served on /metrics. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The part of a Jupiter client that metrics read (structural, so tests can pass a stub). */
export interface MeteredClient {
  readonly events: {
    on(
      name: 'request',
      fn: (e: { method: string; route: string; bucket: string; status: number | null; durationMs: number; code: string | null }) => void,
    ): () => void;
    on(name: 'ratelimited', fn: (e: { bucket: string; waitMs: number; reason: string }) => void): () => void;
    on(name: 'retry', fn: (e: { method: string; route: string; code: string }) => void): () => void;
  };
  limiter(bucket: 'main' | 'execute'): { readonly size: number };
}

/** The part of a feed that metrics read. */
export interface MeteredFeed {
  readonly name: string;
  state(): { readonly ageMs: number | null; readonly fresh: boolean; readonly consecutiveFailures: number; readonly paused?: string | null };
  readonly events: { on(name: 'failed', fn: (e: { code: string }) => void): () => void };
}

export type NotificationResult = 'sent' | 'failed' | 'dropped';

export interface Metrics {
  readonly registry: Registry;
  readonly contentType: string;
  /** The exposition text (what /metrics answers). */
  scrape(): Promise<string>;
  /** Counts the client's requests, 429s, waits and retries; reads its queue depth at scrape. Returns a detach function. */
  attachClient(client: MeteredClient): () => void;
  /** Reports a feed's age, freshness and failures. Returns a detach function. */
  attachFeed(feed: MeteredFeed): () => void;
  /** An intent moved to `state` (from `from`, when it existed before). For the executor. */
  readonly intentStateChanged: (state: string, from?: string) => void;
  /** Sets the number of intents in each state at once (after reconciliation at start). */
  readonly setIntentCounts: (counts: Readonly<Record<string, number>>) => void;
  /** A fill was recorded (`kind`: price-order, dca, swap, prediction-sell, claim, …). For the executor. */
  readonly fillRecorded: (kind: string) => void;
  /** A failure was recorded (`source`: executor, reconcile, guard, session, …; `code`: the error code). */
  readonly errorRecorded: (source: string, code: string) => void;
  /** A webhook post ended (`webhook`: its kind, slack|discord|generic). For the notifier. */
  readonly notification: (webhook: string, result: NotificationResult) => void;
  /** The ops server turned a connection or request away (opsServer.ts `OpsRefusal`). */
  readonly opsRefused: (reason: string) => void;
  /** A strategy became degraded (true) or recovered (false). */
  readonly strategyDegraded: (strategy: string, degraded: boolean) => void;
  /** The fleet's shared quota became usable (true) or was lost (false). Never called without a fleet. */
  readonly fleetQuotaShared: (shared: boolean) => void;
}

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop lag, GC). @default true */
  defaultMetrics?: boolean;
  /** Metric name prefix. @default 'jupbot_' */
  prefix?: string;
}

/** Seconds, for metrics, from milliseconds. */
const sec = (ms: number): number => ms / 1000;

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const prefix = options.prefix ?? 'jupbot_';
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix });
  const registers = [registry];

  const clients = new Set<MeteredClient>();
  const feeds = new Set<MeteredFeed>();

  const requests = new Counter({
    name: `${prefix}jupiter_requests_total`,
    help: 'Jupiter HTTP exchanges by method, route template and status (status "none": no HTTP answer, see code).',
    labelNames: ['method', 'route', 'status', 'code'] as const,
    registers,
  });
  const duration = new Histogram({
    name: `${prefix}jupiter_request_duration_seconds`,
    help: 'Duration of one Jupiter HTTP exchange (one attempt), queue wait excluded.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30],
    registers,
  });
  const tooMany = new Counter({
    name: `${prefix}jupiter_429_total`,
    help: 'HTTP 429 answers from Jupiter, by bucket and route.',
    labelNames: ['bucket', 'route'] as const,
    registers,
  });
  const waits = new Counter({
    name: `${prefix}jupiter_ratelimit_waits_total`,
    help: 'Times a bucket had to wait before sending, by reason (window: our own quota; server-remaining; 429).',
    labelNames: ['bucket', 'reason'] as const,
    registers,
  });
  const waitSeconds = new Counter({
    name: `${prefix}jupiter_ratelimit_wait_seconds_total`,
    help: 'Total announced rate-limit wait, by bucket and reason.',
    labelNames: ['bucket', 'reason'] as const,
    registers,
  });
  const retries = new Counter({
    name: `${prefix}jupiter_retries_total`,
    help: 'Read retries, by route and the error code that caused them.',
    labelNames: ['route', 'code'] as const,
    registers,
  });
  new Gauge({
    name: `${prefix}jupiter_queue_depth`,
    help: 'Requests waiting for a rate-limit slot, per bucket (read at scrape).',
    labelNames: ['bucket'] as const,
    registers,
    collect() {
      this.reset();
      if (clients.size === 0) return;
      for (const bucket of ['main', 'execute'] as const) {
        let size = 0;
        for (const client of clients) size += client.limiter(bucket).size;
        this.set({ bucket }, size);
      }
    },
  });

  new Gauge({
    name: `${prefix}feed_age_seconds`,
    help: 'Seconds since the feed last polled successfully (+Inf before its first success), computed at scrape.',
    labelNames: ['feed'] as const,
    registers,
    collect() {
      this.reset();
      for (const feed of feeds) {
        const { ageMs } = feed.state();
        this.set({ feed: feed.name }, ageMs === null ? Number.POSITIVE_INFINITY : sec(ageMs));
      }
    },
  });
  new Gauge({
    name: `${prefix}feed_fresh`,
    help: '1 while the feed is younger than 3 poll intervals, or paused (its API area is off or unused), as /readyz requires; else 0.',
    labelNames: ['feed'] as const,
    registers,
    collect() {
      this.reset();
      for (const feed of feeds) {
        const { fresh, paused } = feed.state();
        this.set({ feed: feed.name }, fresh || (paused ?? null) !== null ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: `${prefix}feed_consecutive_failures`,
    help: 'Failed polls since the feed last succeeded.',
    labelNames: ['feed'] as const,
    registers,
    collect() {
      this.reset();
      for (const feed of feeds) this.set({ feed: feed.name }, feed.state().consecutiveFailures);
    },
  });
  const feedFailures = new Counter({
    name: `${prefix}feed_failures_total`,
    help: 'Failed feed polls, by feed and error code.',
    labelNames: ['feed', 'code'] as const,
    registers,
  });

  const degraded = new Gauge({
    name: `${prefix}strategy_degraded`,
    help: '1 while a strategy is degraded: one of its decisions failed several times in a row (its rule keeps trying if it protects a position).',
    labelNames: ['strategy'] as const,
    registers,
  });

  const intents = new Gauge({
    name: `${prefix}intents`,
    help: 'Intents by journal state (reported by the executor).',
    labelNames: ['state'] as const,
    registers,
  });
  const intentTransitions = new Counter({
    name: `${prefix}intent_transitions_total`,
    help: 'Intent state changes, by the state entered (reported by the executor).',
    labelNames: ['state'] as const,
    registers,
  });
  const fills = new Counter({
    name: `${prefix}fills_total`,
    help: 'Fills recorded, by kind (reported by the executor and reconciliation).',
    labelNames: ['kind'] as const,
    registers,
  });
  const errors = new Counter({
    name: `${prefix}errors_total`,
    help: 'Failures recorded, by source and error code.',
    labelNames: ['source', 'code'] as const,
    registers,
  });
  const notifications = new Counter({
    name: `${prefix}notifications_total`,
    help: 'Webhook notifications by webhook kind and result (sent, failed after retries, dropped: queue full).',
    labelNames: ['webhook', 'result'] as const,
    registers,
  });

  const opsRefused = new Counter({
    name: `${prefix}ops_refused_total`,
    help: 'Ops server connections closed unanswered (reason "connections": over the limit) and requests answered 503 (reason "busy": too many waiting).',
    labelNames: ['reason'] as const,
    registers,
  });

  // Registered at the first report, so a daemon without a fleet exports neither family.
  let fleet: { shared: Gauge; transitions: Counter<'to'> } | undefined;
  const fleetMetrics = (): NonNullable<typeof fleet> =>
    (fleet ??= {
      shared: new Gauge({
        name: `${prefix}fleet_quota_shared`,
        help: '1 while the rate limits are shared with the fleet through Redis, 0 while this daemon keeps to its own share (Redis unreachable, or not yet reached).',
        registers,
      }),
      transitions: new Counter({
        name: `${prefix}fleet_quota_transitions_total`,
        help: 'Times the shared quota was lost (to="local") or became shared (to="shared").',
        labelNames: ['to'] as const,
        registers,
      }),
    });

  return {
    registry,
    contentType: METRICS_CONTENT_TYPE,
    scrape: () => registry.metrics(),
    strategyDegraded: (strategy, on) => degraded.set({ strategy }, on ? 1 : 0),
    fleetQuotaShared: (shared) => {
      const { shared: gauge, transitions } = fleetMetrics();
      gauge.set(shared ? 1 : 0);
      transitions.inc({ to: shared ? 'shared' : 'local' });
    },
    attachClient(client) {
      clients.add(client);
      const offs = [
        client.events.on('request', (e) => {
          const status = e.status === null ? 'none' : String(e.status);
          requests.inc({ method: e.method, route: e.route, status, code: e.code ?? '' });
          duration.observe({ method: e.method, route: e.route }, sec(e.durationMs));
          if (e.status === 429) tooMany.inc({ bucket: e.bucket, route: e.route });
        }),
        client.events.on('ratelimited', (e) => {
          waits.inc({ bucket: e.bucket, reason: e.reason });
          waitSeconds.inc({ bucket: e.bucket, reason: e.reason }, sec(Math.max(0, e.waitMs)));
        }),
        client.events.on('retry', (e) => retries.inc({ route: e.route, code: e.code })),
      ];
      return () => {
        clients.delete(client);
        for (const off of offs) off();
      };
    },
    attachFeed(feed) {
      feeds.add(feed);
      const off = feed.events.on('failed', (e) => feedFailures.inc({ feed: feed.name, code: e.code }));
      return () => {
        feeds.delete(feed);
        off();
      };
    },
    intentStateChanged: (state, from) => {
      intentTransitions.inc({ state });
      intents.inc({ state });
      if (from !== undefined) intents.dec({ state: from });
    },
    setIntentCounts: (counts) => {
      intents.reset();
      for (const [state, n] of Object.entries(counts)) intents.set({ state }, n);
    },
    fillRecorded: (kind) => fills.inc({ kind }),
    errorRecorded: (source, code) => errors.inc({ source, code }),
    notification: (webhook, result) => notifications.inc({ webhook, result }),
    opsRefused: (reason) => opsRefused.inc({ reason }),
  };
}
