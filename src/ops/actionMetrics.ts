/**
 * The executor's and the engine's metrics, read off the audit log as it is written: every intent
 * state change, fill and recorded failure is an action, so counting actions
 * keeps `/metrics` in step with the database by construction — nothing can be counted that was not
 * recorded, or recorded and not counted.
 */
import type { AuditLog } from '../store/audit.js';
import { intentCountsByState } from '../store/actionQueries.js';
import type { Db } from '../store/db.js';
import type { Metrics } from './metrics.js';

type Data = Record<string, unknown>;
const text = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

/** Where a recorded failure comes from, by action kind. */
const FAILURES: Readonly<Record<string, string>> = {
  'intent.failed': 'executor',
  'intent.error': 'executor',
  'intent.outcome_unknown': 'executor',
  'guard.refused': 'guard',
  error: 'engine',
};

/** Seeds the intents-by-state gauge from the journal, then follows the audit log; returns the unsubscribe. */
export function meterActions(options: {
  readonly audit: AuditLog;
  readonly db: Db;
  readonly metrics: Pick<Metrics, 'intentStateChanged' | 'setIntentCounts' | 'fillRecorded' | 'errorRecorded' | 'strategyDegraded'>;
}): () => void {
  const { metrics } = options;
  metrics.setIntentCounts(intentCountsByState(options.db));
  return options.audit.appended.on('action', ({ input }) => {
    const data = (input.data ?? {}) as Data;
    if (input.kind === 'intent.planned') metrics.intentStateChanged('planned');
    else if (input.kind.startsWith('intent.') && typeof data.to === 'string' && typeof data.from === 'string' && data.to !== data.from)
      metrics.intentStateChanged(data.to, data.from);
    if (input.kind === 'fill') metrics.fillRecorded(text(data.source, 'unknown'));
    if ((input.kind === 'strategy.degraded' || input.kind === 'strategy.recovered') && input.strategy)
      metrics.strategyDegraded(input.strategy, input.kind === 'strategy.degraded');
    const source = FAILURES[input.kind];
    if (source !== undefined) metrics.errorRecorded(source, text(data.code, text(data.reason, text(data.during, input.kind))));
  });
}
