/**
 * The daemon's last webhook: sent, given a few seconds of real time to leave (never more: a stop must
 * end), then the notifier is closed.
 */
import { type Clock, realTimeOf } from '../clock.js';
import type { Notification } from './notification.js';
import type { Notifier } from './notify.js';

/** How long a stop waits for its own webhook. */
const NOTIFY_GRACE_MS = 5_000;

export async function notifyLast(notifier: Notifier, clock: Clock, notification: Notification): Promise<void> {
  notifier.notify(notification);
  const grace = new AbortController();
  await Promise.race([
    notifier.idle(),
    realTimeOf(clock)
      .sleep(NOTIFY_GRACE_MS, grace.signal)
      .catch(() => undefined),
  ]);
  grace.abort();
  notifier.close();
}
