/**
 * A feed's outages in the audit log: the first failed poll of a run (`feed.failed`, with the error
 * code and message) and the poll that ends it (`feed.recovered`, with how many polls failed and for
 * how long). One pair per outage, whatever its length: an auditor can line up every 429 storm, 5xx
 * burst or RPC outage with what the strategies did (or held) meanwhile, without the log's noise.
 */
import type { Clock } from '../clock.js';
import type { AuditLog } from '../store/audit.js';

export interface AuditedFeed {
  readonly name: string;
  readonly events: {
    on(name: 'failed', fn: (e: { code: string; message: string; consecutiveFailures: number }) => void): () => void;
    on(name: 'updated', fn: (e: { at: number }) => void): () => void;
  };
}

/** Returns the detach function. */
export function auditFeed(feed: AuditedFeed, audit: AuditLog, clock: Clock): () => void {
  let since: number | null = null;
  let failures = 0;
  const offFailed = feed.events.on('failed', (e) => {
    failures = e.consecutiveFailures;
    if (e.consecutiveFailures !== 1) return;
    since = clock.now();
    audit.append({ kind: 'feed.failed', data: { feed: feed.name, code: e.code, message: e.message } });
  });
  const offUpdated = feed.events.on('updated', () => {
    if (since === null) return;
    audit.append({ kind: 'feed.recovered', data: { feed: feed.name, failedPolls: failures, downMs: clock.now() - since } });
    since = null;
    failures = 0;
  });
  return () => {
    offFailed();
    offUpdated();
  };
}
