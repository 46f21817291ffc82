/**
 * The kinds of action jupbot writes to the audit log, for `jupbot audit actions --kind`: a kind
 * neither listed here nor present in the database is a typo, refused rather than answered with "no
 * actions match". A kind missing here is still accepted wherever the database holds it, so the list
 * only has to be complete for kinds a database may not have yet.
 */
import type { Db } from './db.js';

export const KNOWN_ACTION_KINDS: readonly string[] = [
  'area.off',
  'area.on',
  'audit.sealed',
  'basis.observed',
  'basis.set',
  'control.halted',
  'control.order-kept',
  'control.paused',
  'control.resumed',
  'control.strategy-resumed',
  'daemon.started',
  'daemon.stopped',
  'feed.failed',
  'feed.recovered',
  'fill',
  'fill.recovered',
  'guard.refused',
  'intent.cancelled',
  'intent.confirmed',
  'intent.deferred',
  'intent.error',
  'intent.expired',
  'intent.failed',
  'intent.outcome_unknown',
  'intent.planned',
  'intent.rearmed',
  'intent.recalled',
  'intent.rekinded',
  'intent.rejected',
  'intent.requoted',
  'intent.resent',
  'intent.sent',
  'intent.signed',
  'intent.transaction_id',
  'intent.waiting',
  'mirror.order',
  'order.adopted',
  'order.cancelled',
  'order.completed',
  'order.expired',
  'order.gone',
  'order.id',
  'order.placed',
  'order.updated',
  'prediction.built',
  'preflight.failed',
  'preflight.passed',
  'preflight.skipped',
  'protection.cleared',
  'protection.tripped',
  'reconcile.pass',
  'rehearsal.opened',
  'rehearsal.transaction',
  'strategy.armed',
  'strategy.degraded',
  'strategy.recovered',
  'strategy.rejected',
  'strategy.removed',
  'strategy.version',
  'wallet.balances',
  'wallet.foreign_activity',
];

/** The kinds the database's actions have, sorted. */
export function recordedActionKinds(db: Db): string[] {
  return (db.prepare('SELECT DISTINCT kind FROM actions ORDER BY kind').all() as { kind: string }[]).map((r) => r.kind);
}
