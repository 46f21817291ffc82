/**
 * The executor's one door for decided intents: `take(strategy, intent)` answers what became of it,
 * so the decide loop only decides and hands over. It owns what lies between a decision and a
 * journal row:
 *
 * - the route: a kind this setup has no handler for (vault kinds without the Trigger login) is
 *   deferred, NOT journaled (a planned row would be resumed by reconciliation with nobody to finish
 *   it), and recorded once per intent id across restarts: a log line and an `intent.deferred` action;
 * - the attempt: the original, or its retry after a failure (attempts.ts), or nothing while the
 *   retry waits for its backoff or when the failure is final (said once per failed row);
 * - the drive: journaled (the journal's insert is what makes it idempotent: a repeated decision,
 *   a restart or a hot reload finds the row) and driven as far as it goes now.
 *
 * Whether balances may have moved (`touched`) is reported, so the caller reads them again before
 * deciding anything on them.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import { hasAction } from '../../store/actionQueries.js';
import type { AuditLog } from '../../store/audit.js';
import type { Db } from '../../store/db.js';
import { FINAL_INTENT_STATES } from '../../store/intentRow.js';
import type { IntentRow, Journal, PlanInput } from '../../store/journal.js';
import { strategyRecords } from '../../store/strategyRecords.js';
import type { CancelVaultOrderIntent, Intent, IntentKind } from '../../strategies/intents.js';
import { strandedWithdrawals } from './strandedWithdrawals.js';
import { nextAttempt, type NextAttempt, runInstantOf, runRetries, withoutRetry } from './attempts.js';

/** What became of a decided intent. */
export type Taken =
  /** No handler takes its kind here: not journaled. `recorded`: recorded now (the audit log had no record of this id). */
  | { readonly outcome: 'deferred'; readonly intentId: string; readonly kind: string; readonly reason: string; readonly recorded: boolean }
  /** Its last attempt failed and the next is not due yet. */
  | { readonly outcome: 'waiting'; readonly rule: string; readonly slot: string; readonly attempt: Extract<NextAttempt, { kind: 'wait' }> }
  /** Its last attempt failed for good (or used its retries): nothing is done. */
  | { readonly outcome: 'final'; readonly rule: string; readonly slot: string; readonly attempt: Extract<NextAttempt, { kind: 'final' }> }
  | {
      readonly outcome: 'done';
      readonly rule: string;
      /** The decision's original id (its retries carry `~rN`). */
      readonly slot: string;
      readonly attempt: Extract<NextAttempt, { kind: 'plan' }>;
      /** The row as the drive left it; null when driving it threw (recorded; reconciliation resumes it). */
      readonly row: IntentRow | null;
      /** The journal had no row of this id before. */
      readonly created: boolean;
      /** The executor drove it (false: the row was already final). */
      readonly driven: boolean;
      /** Something may have been sent or changed: balances must be read again before deciding on them. */
      readonly touched: boolean;
      /** It failed now: what the retry rules make of it. */
      readonly retry: NextAttempt | null;
    };

export interface TakeOptions {
  /** The rule protects a position (an exit, a withdrawal), so no failure disarms it (attempts.ts). @default true */
  readonly protective?: boolean | undefined;
}

export interface IntakeDeps {
  readonly journal: Journal;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  planOf(intent: Intent): PlanInput | undefined;
  handles(kind: IntentKind): boolean;
  /** Journals `input` (the journal's insert makes it idempotent: an existing id answers its row). */
  plan(input: PlanInput): { row: IntentRow; created: boolean };
  /** Drives a journaled row as far as it goes now (a drive already running for the id is joined). */
  drive(id: string): Promise<IntentRow>;
  /** Stopping: nothing new is journaled (what is already journaled is reconciliation's). */
  stopped(): boolean;
}

export interface Intake {
  take(strategy: string, intent: Intent, options?: TakeOptions): Promise<Taken>;
  /**
   * A DCA strategy's scheduled runs whose swap failed retryably while the run is still on time
   * (`onTimeMs` after its instant): each retry taken now. A run is decided once for its instant, so
   * nothing else would try it again.
   */
  retryRuns(strategy: string, onTimeMs: number): Promise<Taken[]>;
  /**
   * The withdrawals of funds our orders left in the vault with nothing on its way to bring them back
   * (strandedWithdrawals.ts), to take before anything is decided on balances; none when this setup
   * cannot cancel vault orders.
   */
  withdrawals(): CancelVaultOrderIntent[];
  /** Deferred intents by kind, recorded by this process. */
  deferred(): Readonly<Record<string, number>>;
}

const DEFER_REASON = 'no handler executes this intent kind in this setup (vault orders need the Trigger login): not journaled, not executed';

export function createIntake(deps: IntakeDeps): Intake {
  const { journal, db, audit, clock, log } = deps;
  const deferredIds = new Set<string>();
  const deferredByKind: Record<string, number> = {};
  const reportedFinal = new Set<string>();

  function defer(strategy: string, intent: Intent): Taken {
    const taken = { outcome: 'deferred', intentId: intent.id, kind: intent.kind, reason: DEFER_REASON, recorded: false } as const;
    if (deferredIds.has(intent.id)) return taken;
    deferredIds.add(intent.id);
    deferredByKind[intent.kind] = (deferredByKind[intent.kind] ?? 0) + 1;
    // Once per id across restarts too: the audit log already holds the first record.
    if (hasAction(db, 'intent.deferred', intent.id)) return taken;
    audit.append({
      kind: 'intent.deferred',
      strategy,
      intentId: intent.id,
      data: { kind: intent.kind, code: 'NO_HANDLER', reason: DEFER_REASON, intent: intent.reason, evidence: intent.evidence },
    });
    log?.warn({ strategy, intentId: intent.id, kind: intent.kind }, `${strategy}: ${intent.kind} deferred: ${DEFER_REASON} (${intent.reason})`);
    return { ...taken, recorded: true };
  }

  async function takeInput(strategy: string, input: PlanInput, protective: boolean): Promise<Taken> {
    const { ended } = strategyRecords(db, strategy);
    const isEnded = (row: IntentRow): boolean => ended.has(row.id);
    const slot = withoutRetry(input.id);
    const rule = input.rule ?? slot;
    const attempt = nextAttempt(journal, input, clock.now(), isEnded, protective);
    if (attempt.kind !== 'plan') {
      // A failed decision: said once per failed row, not every pass.
      if (!reportedFinal.has(attempt.last.id)) {
        reportedFinal.add(attempt.last.id);
        const why = attempt.kind === 'wait' ? `retrying after ${new Date(attempt.at).toISOString()}` : 'not retried';
        log?.warn(
          { strategy, intentId: attempt.last.id, code: attempt.last.errorCode },
          `${strategy}: ${attempt.last.state} intent (${attempt.last.errorCode ?? 'no code'}): ${why}`,
        );
      }
      return attempt.kind === 'wait' ? { outcome: 'waiting', rule, slot, attempt } : { outcome: 'final', rule, slot, attempt };
    }
    const { row: before, created } = deps.plan(attempt.input);
    if (FINAL_INTENT_STATES.has(before.state))
      return { outcome: 'done', rule, slot, attempt, row: before, created, driven: false, touched: false, retry: null };
    try {
      const after = await deps.drive(before.id);
      // Failed now: what the retry rules make of it (when it is tried again) is what the rule is doing.
      const retry = after.state === 'failed' || after.state === 'cancelled' ? nextAttempt(journal, input, clock.now(), isEnded, protective) : null;
      // Left exactly as it was (a handler backing off): nothing was sent, no balance moved.
      const touched = created || after.state !== before.state || after.updatedAt !== before.updatedAt;
      return { outcome: 'done', rule, slot, attempt, row: after, created, driven: true, touched, retry };
    } catch (error) {
      // The executor records its own failures; this is the database or a bug. Reconciliation retries.
      log?.error(
        { strategy, intentId: attempt.input.id, err: error },
        `${strategy}: executing intent failed: ${errorMessage(error)}; reconciliation picks it up`,
      );
      audit.append({ kind: 'error', strategy, intentId: attempt.input.id, data: { during: 'tick', message: errorMessage(error) } });
      return { outcome: 'done', rule, slot, attempt, row: null, created, driven: true, touched: true, retry: null };
    }
  }

  return {
    take(strategy, intent, options = {}) {
      const input = deps.planOf(intent);
      if (input === undefined) return Promise.resolve(defer(strategy, intent));
      return takeInput(strategy, input, options.protective ?? true);
    },
    async retryRuns(strategy, onTimeMs) {
      const out: Taken[] = [];
      for (const retry of runRetries(journal, strategyRecords(db, strategy).rows, onTimeMs, clock.now(), runInstantOf)) {
        if (deps.stopped()) break;
        out.push(await takeInput(strategy, retry, false));
      }
      return out;
    },
    withdrawals: () => (deps.handles('cancel-vault-order') ? strandedWithdrawals(db) : []),
    deferred: () => ({ ...deferredByKind }),
  };
}
