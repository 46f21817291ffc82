/**
 * How a refusal to sign is made known, whatever was to be signed (a transaction, a login message):
 * one log line saying what was refused and why, and one `guard.refused` audit row. Both sides of the
 * signer share it so an operator reads every refusal in the same form.
 */
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import type { GuardRefusal, RefusalReason } from './guardRefusal.js';

export interface RefusalRecord {
  readonly refusal: GuardRefusal;
  /** What was offered, for the log line: `the swap transaction`, `the Trigger login message`. */
  readonly what: string;
  /** The intent for the audit row (`{ kind, … }`, amounts as strings). */
  readonly expectation: Record<string, unknown> & { readonly kind: string };
  readonly strategy?: string | null | undefined;
  readonly intentId?: string | null | undefined;
  /** Refusals the caller answers itself: logged at info rather than as a warning. */
  readonly handles?: readonly RefusalReason[] | undefined;
  /** What a refusal the caller does not answer ends. @default 'the intent' */
  readonly fails?: string | undefined;
}

/** Logs and audits `record.refusal`; the caller rethrows it. */
export function recordRefusal(sinks: { readonly audit?: AuditLog | undefined; readonly log?: Logger | undefined }, record: RefusalRecord): void {
  const { refusal, strategy } = record;
  const intentId = record.intentId ?? null;
  const handled = refusal.transient || (record.handles ?? []).includes(refusal.reason);
  sinks.log?.[handled ? 'info' : 'warn'](
    { strategy, code: refusal.code, reason: refusal.reason, intent: record.expectation.kind, intentId },
    `${strategy ?? 'no strategy'}: refused to sign ${record.what}: ${refusal.message}; nothing was signed${handled ? ', and it is built again' : ` and ${record.fails ?? 'the intent'} fails`}`,
  );
  sinks.audit?.append({
    kind: 'guard.refused',
    strategy: strategy ?? null,
    intentId,
    data: { reason: refusal.reason, expectation: record.expectation, details: refusal.details },
  });
}
