/**
 * Webhook notifications (Slack, Discord, or a generic JSON POST) for fills, sells, guard refusals,
 * orders, lifecycle, and outages (see outage.ts): their delivery. What each notification is and
 * says, and the body each kind of webhook gets, are notification.ts's.
 *
 * Trading must never wait for, or fail because of, a notification:
 * - `notify()` returns at once and never throws; posts go through one bounded queue per webhook,
 *   so a dead Slack hook does not delay the Discord one;
 * - each post has a timeout and a bounded retry (429, 5xx, network errors, timeouts; backoff), both
 *   in real time (`realTimeOf(clock)`: paper mode's faster clock does not shorten them); other 4xx
 *   are final (a deleted hook stays deleted);
 * - a full queue drops the notification, counted (`jupbot_notifications_total{result="dropped"}`)
 *   and logged.
 *
 * Webhook URLs carry tokens: they are revealed only as fetch's first argument, registered with the
 * Redactor when one is given, and never logged or put in an error or event. A webhook is named by
 * its position and kind (`#0 slack`). Failure reasons are classified (`timeout`, `network ECONNREFUSED`,
 * `http 500`), never the underlying error text, which could quote the URL.
 */
import { type Clock, realTimeOf } from '../clock.js';
import type { NotifyEvent, WebhookKind } from '../config/schema.js';
import type { Secret } from '../secret.js';
import { TypedEmitter } from '../typedEmitter.js';
import type { Logger } from './log.js';
import type { NotificationResult } from './metrics.js';
import type { Redactor } from './redact.js';
import { NOTIFY_CATEGORY, webhookPayload, type Notification, type NotificationType } from './notification.js';

/** A webhook as the config gives it. */
export interface WebhookTarget {
  readonly url: Secret;
  readonly kind: WebhookKind;
  readonly events: readonly NotifyEvent[];
}

export interface NotifierEvents {
  delivered: { webhook: string; type: NotificationType; attempts: number };
  failed: { webhook: string; type: NotificationType; attempts: number; reason: string };
  dropped: { webhook: string; type: NotificationType };
}

export interface NotifierOptions {
  readonly webhooks: readonly WebhookTarget[];
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  /** @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Registers each URL, and scrubs every payload before it leaves. */
  readonly redactor?: Redactor | undefined;
  /** Counts sent / failed / dropped (`Metrics.notification`). */
  readonly onResult?: ((webhook: WebhookKind, result: NotificationResult) => void) | undefined;
  /** Real time, for the timeouts and backoffs. @default realTimeOf(clock) */
  readonly timer?: Clock | undefined;
  /** Per attempt, in real time; 0 disables. @default 10000 */
  readonly timeoutMs?: number;
  /** Attempts per notification, first included. @default 3 */
  readonly maxAttempts?: number;
  /** First retry delay; doubles each retry. @default 2000 */
  readonly backoffMs?: number;
  /** Notifications waiting per webhook; beyond it new ones are dropped. @default 100 */
  readonly queueSize?: number;
  /** Shown in messages. @default 'jupbot' */
  readonly source?: string;
}

export interface Notifier {
  readonly events: TypedEmitter<NotifierEvents>;
  /** Queues the notification for every webhook that wants its category. Returns at once; never throws. */
  notify(notification: Notification): void;
  /** Resolves once every queue is empty and nothing is in flight (tests, graceful stop). */
  idle(): Promise<void>;
  /** Stops: in-flight posts and waits are aborted (`failed`, reason `closed`), queued ones dropped (`dropped`). Later notify() calls are ignored. */
  close(): void;
}

// ---------------------------------------------------------------------------------------------------
// Delivery

interface Delivery {
  readonly notification: Notification;
  readonly at: number;
}

interface Queue {
  readonly label: string;
  readonly target: WebhookTarget;
  items: Delivery[];
  running: boolean;
}

class Timeout extends Error {}

/** A failure reason fit for logs: never the error's text (it could quote the URL). */
function networkFailureLabel(error: unknown): string {
  if (error instanceof Timeout) return 'timeout';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' && /^[A-Z_]+$/.test(cause.code) ? ` ${cause.code}` : '';
  return `network${code}`;
}

const sleepQuietly = (clock: Clock, ms: number, signal: AbortSignal): Promise<void> => clock.sleep(ms, signal).catch(() => undefined);

export function createNotifier(options: NotifierOptions): Notifier {
  const { clock, log, redactor, onResult } = options;
  const realTime = options.timer ?? realTimeOf(clock);
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const backoffMs = options.backoffMs ?? 2_000;
  const queueSize = Math.max(1, options.queueSize ?? 100);
  const source = options.source ?? 'jupbot';
  const events = new TypedEmitter<NotifierEvents>();
  const stop = new AbortController();
  let idleWaiters: (() => void)[] = [];

  const queues: Queue[] = options.webhooks.map((target, i) => {
    try {
      redactor?.add(target.url.reveal());
    } catch {
      // Too short to register (the config requires a URL, so this is a test stub); it is never logged anyway.
    }
    return { label: `#${i} ${target.kind}`, target, items: [], running: false };
  });

  const report = (q: Queue, result: NotificationResult): void => {
    try {
      onResult?.(q.target.kind, result);
    } catch {
      // Metrics must not break delivery.
    }
  };

  const checkIdle = (): void => {
    if (queues.some((q) => q.running || q.items.length > 0)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  /** One POST; resolves with the HTTP status, throws Timeout or a network error. */
  const post = async (q: Queue, body: string): Promise<number> => {
    const request = new AbortController();
    const timer = new AbortController();
    const abortRequest = (): void => request.abort();
    stop.signal.addEventListener('abort', abortRequest, { once: true });
    let timedOut = false;
    if (timeoutMs > 0) {
      void realTime.sleep(timeoutMs, timer.signal).then(
        () => {
          timedOut = true;
          request.abort();
        },
        () => undefined,
      );
    }
    try {
      const res = await fetchFn(q.target.url.reveal(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': source },
        body,
        signal: request.signal,
      });
      // Read (and discard) the body so the connection is released; bounded by the same timeout.
      await res.arrayBuffer().catch(() => undefined);
      if (timedOut) throw new Timeout();
      return res.status;
    } catch (error) {
      throw timedOut ? new Timeout() : error;
    } finally {
      timer.abort();
      stop.signal.removeEventListener('abort', abortRequest);
    }
  };

  const deliver = async (q: Queue, d: Delivery): Promise<void> => {
    const payload = webhookPayload(q.target.kind, d.notification, d.at, source);
    const body = redactor ? JSON.stringify(redactor.scrub(payload)) : JSON.stringify(payload);
    let reason = 'unknown';
    let attempts = 0;
    for (let attempt = 1; attempt <= maxAttempts && !stop.signal.aborted; attempt++) {
      attempts = attempt;
      let retryable: boolean;
      try {
        const status = await post(q, body);
        if (status >= 200 && status < 300) {
          report(q, 'sent');
          events.emit('delivered', { webhook: q.label, type: d.notification.type, attempts });
          return;
        }
        reason = `http ${status}`;
        retryable = status === 429 || status >= 500;
      } catch (error) {
        reason = networkFailureLabel(error);
        retryable = true;
      }
      if (!retryable || attempt === maxAttempts || stop.signal.aborted) break;
      await sleepQuietly(realTime, backoffMs * 2 ** (attempt - 1), stop.signal);
    }
    if (stop.signal.aborted) reason = 'closed';
    report(q, 'failed');
    log?.warn(
      { webhook: q.label, notification: d.notification.type, attempts, reason },
      `webhook ${q.label}: ${d.notification.type} notification not delivered after ${attempts} attempt(s) (${reason}); given up, the audit log keeps the event`,
    );
    events.emit('failed', { webhook: q.label, type: d.notification.type, attempts, reason });
  };

  const run = async (q: Queue): Promise<void> => {
    q.running = true;
    try {
      for (let d = q.items.shift(); d; d = q.items.shift()) {
        try {
          await deliver(q, d);
        } catch (error) {
          // deliver() catches everything it expects; this is the last net.
          log?.error(
            { webhook: q.label, err: error instanceof Error ? error.name : 'unknown' },
            `webhook ${q.label}: the notifier failed on one notification; it is dropped and the next one is sent as usual`,
          );
        }
      }
    } finally {
      q.running = false;
      checkIdle();
    }
  };

  return {
    events,
    notify(notification) {
      try {
        if (stop.signal.aborted) return;
        const category = NOTIFY_CATEGORY[notification.type];
        const at = clock.now();
        for (const q of queues) {
          if (!q.target.events.includes(category)) continue;
          if (q.items.length >= queueSize) {
            report(q, 'dropped');
            log?.warn(
              { webhook: q.label, notification: notification.type, queueSize },
              `webhook ${q.label}: ${queueSize} notifications already waiting, this ${notification.type} notification is dropped; the audit log keeps the event`,
            );
            events.emit('dropped', { webhook: q.label, type: notification.type });
            continue;
          }
          q.items.push({ notification, at });
          if (!q.running) void run(q);
        }
      } catch (error) {
        log?.error(
          { err: error instanceof Error ? error.name : 'unknown' },
          'a notification could not be queued; it is dropped, the audit log keeps the event',
        );
      }
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      });
    },
    close() {
      stop.abort();
      for (const q of queues) {
        for (const d of q.items) {
          report(q, 'dropped');
          events.emit('dropped', { webhook: q.label, type: d.notification.type });
        }
        q.items = [];
      }
      checkIdle();
    },
  };
}
