/**
 * The executor: intents become guarded, signed calls under the write-ahead discipline (rule 1).
 *
 *   planned  ── handler.prepare (quote, risk, guard, sign) ──► journal.recordSigned  (bytes durable)
 *   signed   ── journal.markSent, then handler.submit(first) ──► confirmed | failed | still in flight
 *   sent     ── the chain decides (inFlight.ts): landed → confirmed/failed; provably dead → expired;
 *               else re-send the SAME bytes (never re-sign)
 *   expired  ── attempts left → rearm (planned) → a new quote and a new signature
 *
 * A call handler (handler.ts: an unsigned HTTP call such as a PATCH) takes a shorter path:
 *
 *   planned  ── journal.markSent (write-ahead: the row says sent BEFORE the call), handler.call
 *               ──► confirmed | failed | still sent (answer lost: 5xx, timeout)
 *   sent     ── handler.settle reads the API's state: done → confirmed; impossible → failed;
 *               not visible → the call again, when the handler says repeating it is harmless
 *
 * A confirmation may carry a successor (a renewal's replacement): the journal plans it in the same
 * transaction, and this drive goes on to drive it (reconciliation resumes it after a crash).
 *
 * Each step reads the row back from the journal, so a new executor on the same database (after a
 * crash) continues exactly where the old one stopped. Calls for one intent id are serialised in
 * process; a second `execute` of the same id joins the first instead of acting twice. Across ids,
 * preparing (build, guard, sign) and submitting take turns (walletTurn.ts).
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import { GuardRefusal } from '../../solana/guardRefusal.js';
import { IdenticalBytesError } from '../../solana/guardedSigner.js';
import { StoreError } from '../../store/errors.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { FINAL_INTENT_STATES } from '../../store/intentRow.js';
import type { FillInput, IntentRow, Journal, PlanInput } from '../../store/journal.js';
import { TypedEmitter } from '../../typedEmitter.js';
import { IntentRefusedError, IntentWaitingError } from './errors.js';
import type { ExecutorEvents } from './events.js';
import {
  type CallHandler,
  type CallResult,
  type HandlerContext,
  type IntentHandler,
  isCallHandler,
  type SignedRow,
  type SigningHandler,
  type SubmitResult,
  type Successor,
} from './handler.js';
import { resolveInFlight, resolveUnidentified } from './inFlight.js';
import { createTransactionFinder, pendingTransactionId } from './transactionId.js';
import { type IntentRoutes, planOf } from './intentKind.js';
import { createWalletTurn } from './walletTurn.js';
import { createIntake, type Intake } from './intake.js';
import type { AuditLog } from '../../store/audit.js';
import type { Db } from '../../store/db.js';

export interface ExecutorOptions {
  readonly journal: Journal;
  /** The journal's database and audit log: what the intake reads (attempts, ended orders) and records (deferrals). */
  readonly db: Db;
  readonly audit: AuditLog;
  readonly rpc: SolanaRpc;
  readonly clock: Clock;
  readonly handlers: readonly IntentHandler[];
  /** How each decided intent kind becomes a journal entry (kindSet.ts builds them with the handlers); every other kind is deferred. */
  readonly routes?: IntentRoutes | undefined;
  readonly log?: Logger | undefined;
  /** Transactions that may be signed for one intent (a new one only after the last provably expired). @default 3 */
  readonly maxAttempts?: number | undefined;
  /** Sends of the same bytes (or calls of a call handler) within one `drive`, the first included. @default 2 */
  readonly sendsPerDrive?: number | undefined;
}

export interface Executor extends Intake {
  readonly events: TypedEmitter<ExecutorEvents>;
  /** Journals the intent (idempotent by id) without acting. */
  plan(input: PlanInput): IntentRow;
  /** Journals the intent, then drives it as far as it can go now. Planning an existing id acts on the existing row. */
  execute(input: PlanInput): Promise<IntentRow>;
  /** Drives a journaled intent as far as it can go now; resolves with the row as committed. */
  drive(id: string): Promise<IntentRow>;
  /**
   * Looks again for the fills of landed transactions whose amounts were not known (`pending_fills`),
   * those due now; records what it finds. Returns how many it resolved.
   */
  recoverFills(): Promise<number>;
  /** Stops: no new call is started; the journal keeps whatever is in flight for reconciliation. */
  stop(): void;
  readonly stopped: boolean;
}

const FINAL = FINAL_INTENT_STATES;
/** The first wait before a landed transaction's unknown fill is looked for again; it doubles up to the next. */
const FIRST_FILL_WAIT_MS = 30_000;
const MAX_FILL_WAIT_MS = 30 * 60_000;

export function createExecutor(options: ExecutorOptions): Executor {
  const { journal, rpc, log } = options;
  const maxAttempts = options.maxAttempts ?? 3;
  const sendsPerDrive = options.sendsPerDrive ?? 2;
  const events = new TypedEmitter<ExecutorEvents>();
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const running = new Map<string, Promise<IntentRow>>();
  /** Successors journaled by a confirmation in the current drive of an id, driven right after it. */
  const chained = new Map<string, string>();
  const stopper = new AbortController();
  const context: HandlerContext = { signal: stopper.signal };
  const finder = createTransactionFinder(rpc);
  /** Building and checking a transaction, and submitting one, take turns (walletTurn.ts): ours never lands during our own check. */
  const turn = createWalletTurn();

  /** Records the chain's id of a row's transaction when an answer names it and the row does not know it yet. */
  const identify = (row: SignedRow, transactionId: string | undefined, via: string): SignedRow => {
    if (transactionId === undefined || transactionId === row.signature || pendingTransactionId(row) === null) return row;
    return journal.recordTransactionId(row.id, transactionId, { via }) as SignedRow;
  };

  const fail = (id: string, code: string, message: string, data: object = {}): IntentRow => {
    const row = journal.markFailed(id, { code, message, data });
    // The audit reporter says it to the operator (with what happens next), from the intent.failed row.
    log?.debug({ intentId: id, code }, `intent failed: ${message}`);
    events.emit('failed', { row, code });
    return row;
  };

  const transient = (row: IntentRow, error: unknown): IntentRow => {
    if (error instanceof IntentWaitingError) {
      journal.note(row.id, 'intent.waiting', { state: row.state, code: error.code, message: error.message });
      log?.info(
        { strategy: row.strategy, intentId: row.id, code: error.code, state: row.state },
        `${row.strategy ?? 'no strategy'}: ${row.kind} waiting: ${error.message}`,
      );
      return journal.require(row.id);
    }
    const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EXECUTOR_ERROR';
    const message = errorMessage(error);
    journal.note(row.id, 'intent.error', { state: row.state, code, message });
    log?.warn(
      { strategy: row.strategy, intentId: row.id, code, state: row.state },
      `${row.strategy ?? 'no strategy'}: ${row.kind} step failed (${code}): ${message}; tried again on a later pass`,
    );
    const after = journal.require(row.id);
    events.emit('error', { row: after, code, message });
    return after;
  };

  /** Confirms with the report's fills, planning its successor in the same transaction. */
  const settled = (id: string, data: object, fills: readonly FillInput[], next: Successor): IntentRow => {
    const successor = next.successor;
    const confirmed = journal.markConfirmed(id, data, fills, successor);
    events.emit('confirmed', { row: confirmed, fills: journal.fillCount(id) });
    if (successor) {
      chained.set(id, successor.id);
      events.emit('planned', { row: journal.require(successor.id) });
    }
    return confirmed;
  };

  const confirm = async (row: SignedRow, handler: SigningHandler, result?: Extract<SubmitResult, { kind: 'confirmed' }>): Promise<IntentRow> => {
    const report = result ?? (await handler.landed(row, context));
    identify(row, report.transactionId, result ? 'answer' : 'landed');
    const fillUnknown = 'fillUnknown' in report ? report.fillUnknown : undefined;
    return settled(row.id, { ...report.data, ...(fillUnknown ? { fillUnknown } : {}) }, report.fills, report);
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
      if (isCallHandler(handler)) return callStep(row, handler);

      if (row.state === 'planned') {
        // Backing off (a cancel the API answered 404): nothing is asked, nothing is written.
        const notBefore = handler.notBefore?.(row) ?? null;
        if (notBefore !== null && notBefore > options.clock.now()) return row;
        if (row.attempts >= maxAttempts) return fail(id, 'ATTEMPTS_EXHAUSTED', `${row.attempts} attempts used`);
        let signed;
        try {
          signed = await turn.run(() => handler.prepare(row, { ...context, note: (kind, data) => journal.note(id, kind, data) }));
        } catch (error) {
          // Nothing was signed. Two equal intents in one slot build identical bytes: the second waits for
          // the next pass, when its blockhash is newer. A refusal about the moment (the node unreachable) is tried again.
          if (error instanceof IdenticalBytesError || (error instanceof GuardRefusal && error.reason === 'SIMULATION_ALREADY_PROCESSED'))
            return transient(
              row,
              new IntentWaitingError('IDENTICAL_BYTES', 'another intent signed or landed identical bytes in this slot; built again at the next pass'),
            );
          if (error instanceof GuardRefusal && error.transient) return transient(row, error);
          if (error instanceof GuardRefusal) return fail(id, 'GUARD_REFUSED', error.message, { reason: error.reason });
          if (error instanceof IntentRefusedError) return fail(id, error.code, error.message, error.details);
          return transient(row, error);
        }
        // Persisted even if we are stopping now: durable bytes are harmless, unrecorded ones are not.
        let signedRow: IntentRow;
        try {
          signedRow = journal.recordSigned(id, signed);
        } catch (error) {
          // Identical bytes to another intent's: nothing was sent; sign again on the next pass.
          if (error instanceof StoreError && error.code === 'STORE_SIGNATURE_TAKEN') return transient(row, error);
          throw error;
        }
        events.emit('signed', { row: signedRow });
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

      // sent: the chain decides, by the transaction's id; a row that does not know it yet (someone
      // signs after us) finds its transaction on chain by our signature in it first.
      let inFlight;
      try {
        const unidentified = pendingTransactionId(signedRow);
        if (unidentified !== null) {
          const found = await resolveUnidentified(rpc, finder, unidentified, signedRow.lastValidBlockHeight, row.createdAt);
          if (found.kind === 'found') {
            identify(signedRow, found.transactionId, 'chain');
            continue;
          }
          inFlight = found;
        } else {
          inFlight = await resolveInFlight(rpc, signedRow.signature, signedRow.lastValidBlockHeight);
        }
      } catch (error) {
        return transient(row, error);
      }
      if (inFlight.kind === 'landed') {
        try {
          return await confirm(signedRow, handler);
        } catch (error) {
          // Landed, yet what it asked for provably did not happen (a keeper failed the order it opened).
          if (error instanceof IntentRefusedError) return fail(id, error.code, error.message, error.details);
          return transient(row, error);
        }
      }
      if (inFlight.kind === 'landed-failed')
        return fail(id, 'LANDED_FAILED', 'the transaction landed and failed on chain', { err: JSON.stringify(inFlight.status.err) });
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

  /**
   * The unsigned path: planned → sent before the call (a crash after it leaves a `sent` row, which
   * the handler settles by reading the API's state); sent → settle, and the call again only when
   * the handler says it is harmless. An unknown answer leaves the row `sent` for the next pass.
   */
  async function callStep(first: IntentRow, handler: CallHandler): Promise<IntentRow> {
    let calls = 0;
    let row = first;
    for (;;) {
      if (FINAL.has(row.state) || stopper.signal.aborted) return row;
      if (row.state === 'planned') {
        row = journal.markSent(row.id, { mode: 'call' });
        events.emit('sent', { row, mode: 'first' });
        // An unknown answer is settled on a later pass, not by calling again at once.
        return outcome(row, await callOnce(row, handler), 'first');
      }
      if (row.state !== 'sent') return transient(row, new Error(`a call intent cannot be in state ${row.state}`));
      let settledAs;
      try {
        settledAs = await handler.settle(row, context);
      } catch (error) {
        return transient(row, error);
      }
      if (settledAs.kind !== 'repeat') return outcome(row, settledAs, 'settle');
      if (calls >= sendsPerDrive || stopper.signal.aborted) return row;
      calls += 1;
      journal.note(row.id, 'intent.recalled', { reason: settledAs.reason });
      events.emit('sent', { row: journal.require(row.id), mode: 'resend' });
      row = outcome(row, await callOnce(row, handler), 'resend');
    }
  }

  async function callOnce(row: IntentRow, handler: CallHandler): Promise<CallResult> {
    try {
      return await handler.call(row, { ...context, note: (kind, data) => journal.note(row.id, kind, data) });
    } catch (error) {
      // Refused before anything was sent (params): final. Anything else may have reached the API.
      if (error instanceof IntentRefusedError) return { kind: 'failed', code: error.code, message: error.message, data: error.details };
      return { kind: 'unknown', code: 'CALL_ERROR', message: errorMessage(error), data: {} };
    }
  }

  function outcome(row: IntentRow, result: CallResult, mode: 'first' | 'resend' | 'settle'): IntentRow {
    if (result.kind === 'confirmed') return settled(row.id, { ...result.data, mode }, result.fills ?? [], result);
    if (result.kind === 'failed') return fail(row.id, result.code, result.message, { ...result.data, mode });
    journal.note(row.id, 'intent.outcome_unknown', { mode, code: result.code, message: result.message, ...result.data });
    const after = journal.require(row.id);
    events.emit('error', { row: after, code: result.code, message: result.message });
    return after;
  }

  /** Submits; returns the final row when the answer settles the intent, undefined to let the chain decide. */
  async function submit(row: SignedRow, handler: SigningHandler, mode: 'first' | 'resend'): Promise<IntentRow | undefined> {
    let result: SubmitResult;
    try {
      // Under way once the row says sent (rule 7): it waits for its turn even when stopping.
      result = await turn.run(() => handler.submit(row, mode, context));
    } catch (error) {
      result = { kind: 'unknown', code: 'SUBMIT_ERROR', message: errorMessage(error), data: {} };
    }
    if (result.kind === 'confirmed') return confirm(row, handler, result);
    if (result.kind === 'failed') {
      identify(row, result.transactionId, 'answer');
      return fail(row.id, result.code, result.message, result.data);
    }
    journal.note(row.id, result.kind === 'unknown' ? 'intent.outcome_unknown' : 'intent.rejected', {
      mode,
      code: result.code,
      message: result.message,
      ...result.data,
    });
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
    const run = step(id)
      .then(async (row) => {
        const next = chained.get(id);
        chained.delete(id);
        // The successor right away (a renewal's replacement: the position is unprotected until it is
        // placed). Its own failures are its row's; an error here leaves it to reconciliation.
        if (next !== undefined && !stopper.signal.aborted) {
          await drive(next).catch((error: unknown) =>
            log?.error({ intentId: next, after: id, err: error }, `driving the successor failed: ${errorMessage(error)}`),
          );
        }
        return row;
      })
      .finally(() => running.delete(id));
    running.set(id, run);
    return run;
  }

  function journalOnce(input: PlanInput): { row: IntentRow; created: boolean } {
    const planned = journal.plan(input);
    if (planned.created) events.emit('planned', { row: planned.row });
    return planned;
  }

  const routes = options.routes ?? new Map();

  async function recoverFills(): Promise<number> {
    let resolved = 0;
    for (const pending of journal.duePendingFills(options.clock.now())) {
      if (stopper.signal.aborted) break;
      const handler = handlers.get(pending.kind);
      const row = journal.require(pending.intentId);
      if (!handler || isCallHandler(handler) || row.signedTx === null || row.signature === null || row.lastValidBlockHeight === null) {
        journal.reschedulePendingFill(pending.intentId, options.clock.now() + MAX_FILL_WAIT_MS, 'no handler reads fills of this kind here');
        continue;
      }
      let report;
      try {
        report = await handler.landed(row as SignedRow, context);
      } catch (error) {
        report = { data: {}, fills: [], fillUnknown: errorMessage(error) };
      }
      if (report.fills.length > 0) {
        journal.resolvePendingFill(pending.intentId, report.fills, { after: pending.attempts + 1, since: pending.since, ...report.data });
        resolved += 1;
        continue;
      }
      // Backoff: 30 s, doubling, then every half hour; the row stays visible meanwhile.
      const wait = Math.min(FIRST_FILL_WAIT_MS * 2 ** pending.attempts, MAX_FILL_WAIT_MS);
      journal.reschedulePendingFill(pending.intentId, options.clock.now() + wait, report.fillUnknown ?? 'no fill found');
    }
    return resolved;
  }

  const intake = createIntake({
    journal,
    db: options.db,
    audit: options.audit,
    clock: options.clock,
    log,
    planOf: (intent) => planOf(routes, intent),
    handles: (kind) => routes.has(kind),
    plan: journalOnce,
    drive,
    stopped: () => stopper.signal.aborted,
  });

  return {
    ...intake,
    events,
    plan: (input) => journalOnce(input).row,
    execute: (input) => drive(journalOnce(input).row.id),
    drive,
    recoverFills,
    stop() {
      stopper.abort();
    },
    get stopped() {
      return stopper.signal.aborted;
    },
  };
}
