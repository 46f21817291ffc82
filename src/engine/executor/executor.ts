/**
 * The executor: intents become guarded, signed calls under the write-ahead discipline (rule 1).
 *
 *   planned  ── handler.prepare (quote, risk, guard, sign) ──► journal.recordSigned  (bytes durable)
 *   signed   ── journal.markSent, then handler.submit(first) ──► confirmed | failed | still in flight
 *   sent     ── the chain decides (inFlight.ts): landed → confirmed/failed; provably dead → expired;
 *               else re-send the SAME bytes (never re-sign)
 *   expired  ── attempts left → rearm (planned) → a new quote and a new signature
 *
 * Each step reads the row back from the journal, so a new executor on the same database (after a
 * crash) continues exactly where the old one stopped. Calls for one intent id are serialised in
 * process; a second `execute` of the same id joins the first instead of acting twice.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import { GuardRefusal } from '../../solana/guardRefusal.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { IntentRow, Journal, PlanInput } from '../../store/journal.js';
import { TypedEmitter } from '../../typedEmitter.js';
import { IntentRefusedError } from './errors.js';
import type { ExecutorEvents } from './events.js';
import type { HandlerContext, IntentHandler, SignedRow, SubmitResult } from './handler.js';
import { resolveInFlight } from './inFlight.js';

export interface ExecutorOptions {
  readonly journal: Journal;
  readonly rpc: SolanaRpc;
  readonly clock: Clock;
  readonly handlers: readonly IntentHandler[];
  readonly log?: Logger | undefined;
  /** Transactions that may be signed for one intent (a new one only after the last provably expired). @default 3 */
  readonly maxAttempts?: number | undefined;
  /** Sends of the same bytes within one `drive` (the first send included). @default 2 */
  readonly sendsPerDrive?: number | undefined;
}

export interface Executor {
  readonly events: TypedEmitter<ExecutorEvents>;
  /** Journals the intent (idempotent by id) without acting. */
  plan(input: PlanInput): IntentRow;
  /** Journals the intent, then drives it as far as it can go now. Planning an existing id acts on the existing row. */
  execute(input: PlanInput): Promise<IntentRow>;
  /** Drives a journaled intent as far as it can go now; resolves with the row as committed. */
  drive(id: string): Promise<IntentRow>;
  /** Stops: no new call is started; the journal keeps whatever is in flight for reconciliation. */
  stop(): void;
  readonly stopped: boolean;
}

const FINAL = new Set<IntentRow['state']>(['confirmed', 'failed', 'cancelled']);

export function createExecutor(options: ExecutorOptions): Executor {
  const { journal, rpc, log } = options;
  const maxAttempts = options.maxAttempts ?? 3;
  const sendsPerDrive = options.sendsPerDrive ?? 2;
  const events = new TypedEmitter<ExecutorEvents>();
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const running = new Map<string, Promise<IntentRow>>();
  const stopper = new AbortController();
  const context: HandlerContext = { signal: stopper.signal };

  const fail = (id: string, code: string, message: string, data: object = {}): IntentRow => {
    const row = journal.markFailed(id, { code, message, data });
    log?.warn({ intentId: id, code }, `intent failed: ${message}`);
    events.emit('failed', { row, code });
    return row;
  };

  const transient = (row: IntentRow, error: unknown): IntentRow => {
    const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EXECUTOR_ERROR';
    const message = errorMessage(error);
    journal.note(row.id, 'intent.error', { state: row.state, code, message });
    log?.warn({ intentId: row.id, code, state: row.state }, `intent step failed, will retry: ${message}`);
    const after = journal.require(row.id);
    events.emit('error', { row: after, code, message });
    return after;
  };

  const confirm = async (row: SignedRow, handler: IntentHandler, result?: Extract<SubmitResult, { kind: 'confirmed' }>): Promise<IntentRow> => {
    const report = result ?? (await handler.landed(row, context));
    const fillUnknown = 'fillUnknown' in report ? report.fillUnknown : undefined;
    const confirmed = journal.markConfirmed(row.id, { ...report.data, ...(fillUnknown ? { fillUnknown } : {}) }, report.fills);
    events.emit('confirmed', { row: confirmed, fills: journal.fillCount(row.id) });
    return confirmed;
  };

  async function step(id: string): Promise<IntentRow> {
    let sends = 0;
    for (;;) {
      const row = journal.require(id);
      if (FINAL.has(row.state) || stopper.signal.aborted) return row;
      if (row.state === 'expired') {
        // The schema lets an expired intent only be re-armed; with no attempt left it fails from planned.
        journal.rearm(id, { maxAttempts });
        continue;
      }

      const handler = handlers.get(row.kind);
      // Not failed: failing is final, and a handler for this kind may simply not be wired in this build.
      if (!handler) return transient(row, new IntentRefusedError('NO_HANDLER', `no handler for intent kind ${row.kind}; left pending`));

      if (row.state === 'planned') {
        if (row.attempts >= maxAttempts) return fail(id, 'ATTEMPTS_EXHAUSTED', `${row.attempts} attempts used`);
        let signed;
        try {
          signed = await handler.prepare(row, context);
        } catch (error) {
          if (error instanceof GuardRefusal) return fail(id, 'GUARD_REFUSED', error.message, { reason: error.reason });
          if (error instanceof IntentRefusedError) return fail(id, error.code, error.message, error.details);
          return transient(row, error);
        }
        // Persisted even if we are stopping now: durable bytes are harmless, unrecorded ones are not.
        events.emit('signed', { row: journal.recordSigned(id, signed) });
        continue;
      }

      const signedRow = row as SignedRow;
      if (row.state === 'signed') {
        events.emit('sent', { row: journal.markSent(id, { mode: 'first' }), mode: 'first' });
        sends += 1;
        const result = await submit(signedRow, handler, 'first');
        if (result !== undefined) return result;
        continue;
      }

      // sent: the chain decides.
      let inFlight;
      try {
        inFlight = await resolveInFlight(rpc, signedRow.signature, signedRow.lastValidBlockHeight);
      } catch (error) {
        return transient(row, error);
      }
      if (inFlight.kind === 'landed') {
        try {
          return await confirm(signedRow, handler);
        } catch (error) {
          return transient(row, error);
        }
      }
      if (inFlight.kind === 'landed-failed') return fail(id, 'LANDED_FAILED', 'the transaction landed and failed on chain', { err: JSON.stringify(inFlight.status.err) });
      if (inFlight.kind === 'expired') {
        const proof = { height: inFlight.height, lastValidBlockHeight: signedRow.lastValidBlockHeight, signatureStatus: null };
        if (row.attempts >= maxAttempts) return fail(id, 'ATTEMPTS_EXHAUSTED', `all ${row.attempts} attempts expired without landing`, proof);
        const expired = journal.markExpired(id, proof);
        events.emit('expired', { row: expired });
        continue;
      }
      // Still valid and not landed: the same bytes again, a bounded number of times per drive.
      if (sends >= sendsPerDrive || stopper.signal.aborted) return row;
      sends += 1;
      journal.note(id, 'intent.resent', { height: inFlight.height, lastValidBlockHeight: signedRow.lastValidBlockHeight });
      events.emit('sent', { row: journal.require(id), mode: 'resend' });
      const result = await submit(signedRow, handler, 'resend');
      if (result !== undefined) return result;
    }
  }

  /** Submits; returns the final row when the answer settles the intent, undefined to let the chain decide. */
  async function submit(row: SignedRow, handler: IntentHandler, mode: 'first' | 'resend'): Promise<IntentRow | undefined> {
    let result: SubmitResult;
    try {
      result = await handler.submit(row, mode, context);
    } catch (error) {
      result = { kind: 'unknown', code: 'SUBMIT_ERROR', message: errorMessage(error), data: {} };
    }
    if (result.kind === 'confirmed') return confirm(row, handler, result);
    if (result.kind === 'failed') return fail(row.id, result.code, result.message, result.data);
    journal.note(row.id, result.kind === 'unknown' ? 'intent.outcome_unknown' : 'intent.rejected', { mode, code: result.code, message: result.message, ...result.data });
    // Stopping: leave it to reconciliation rather than start new calls.
    if (stopper.signal.aborted) return journal.require(row.id);
    // Rejected by this call: another send now would get the same answer; the chain and time decide.
    if (result.kind === 'rejected') return checkOnce(row);
    return undefined;
  }

  /**
   * After a rejection: stop here unless the chain can already settle it (landed or expired), in which
   * case undefined lets the loop settle it — without another send.
   */
  async function checkOnce(row: SignedRow): Promise<IntentRow | undefined> {
    try {
      const inFlight = await resolveInFlight(rpc, row.signature, row.lastValidBlockHeight);
      return inFlight.kind === 'pending' ? journal.require(row.id) : undefined;
    } catch (error) {
      return transient(journal.require(row.id), error);
    }
  }

  function drive(id: string): Promise<IntentRow> {
    const current = running.get(id);
    if (current) return current;
    const run = step(id).finally(() => running.delete(id));
    running.set(id, run);
    return run;
  }

  function plan(input: PlanInput): IntentRow {
    const { row, created } = journal.plan(input);
    if (created) events.emit('planned', { row });
    return row;
  }

  return {
    events,
    plan,
    async execute(input) {
      const row = plan(input);
      return FINAL.has(row.state) ? row : drive(row.id);
    },
    drive,
    stop() {
      stopper.abort();
    },
    get stopped() {
      return stopper.signal.aborted;
    },
  };
}
