/**
 * The write-ahead intent journal over `intents`. Every state change is one
 * SQLite transaction that updates the row and appends its audit action, so the journal and the
 * hash-chained log can never disagree: either both happened or neither did. The transitions are
 * also enforced by the schema's triggers; this module only ever asks for legal ones.
 *
 * Rows are parsed with zod, never cast: a row a newer or damaged writer left is an error, not a guess.
 */
import { deletePendingFill, duePendingFills, insertPendingFill, type PendingFill, rescheduleFill } from './pendingFills.js';
import { statement } from './statementCache.js';
import type { Clock } from '../clock.js';
import type { AuditLog } from './audit.js';
import { canonicalJson } from './canonicalJson.js';
import type { Db } from './db.js';
import { StoreError } from './errors.js';
import { type FillInput, recordFill } from './fills.js';
import { type INTENT_STATES, type IntentRow, parseIntentRow } from './intentRow.js';
import { z } from 'zod';
import { parseOptionalRow, parseRow } from './parseRows.js';

export { INTENT_STATES, type IntentRow, type IntentState } from './intentRow.js';
export type { FillInput } from './fills.js';

/** The non-final states: what reconciliation must resolve. */
export const PENDING_STATES = ['planned', 'signed', 'sent', 'expired'] as const satisfies readonly (typeof INTENT_STATES)[number][];

export interface PlanInput {
  readonly id: string;
  readonly kind: string;
  readonly strategy?: string | null | undefined;
  /** A `strategy_versions.version` (integer), when the strategy's text was recorded there. */
  readonly strategyVersion?: number | null | undefined;
  readonly rule?: string | null | undefined;
  /** What to do, amounts as bigint or base-unit strings. Immutable once planned. */
  readonly params: object;
  /** The snapshot that fired the intent: the `intent.planned` audit row carries it ("why?"). */
  readonly evidence?: object | undefined;
  readonly reason?: string | undefined;
}

export interface SignedRecord {
  /** The signed transaction's wire bytes, exactly as they will be (re-)sent. */
  readonly bytes: Uint8Array;
  readonly signature: string;
  readonly blockhash: string;
  /** The transaction cannot land once block height passes this. */
  readonly lastValidBlockHeight: number;
  readonly requestId?: string | null | undefined;
  /** Context for the audit row (the quote, the guard summary). */
  readonly data?: object | undefined;
}

/** Trigger V2 ids of an intent (undefined: unchanged). */
export interface TriggerIds {
  readonly depositRequestId?: string | undefined;
  readonly cancelRequestId?: string | undefined;
  readonly orderId?: string | undefined;
}

export interface Failure {
  readonly code: string;
  readonly message: string;
  readonly data?: object | undefined;
}

/** Journal operations; each returns the row as committed. */
const CodeCountRow = z.object({ count: z.number().int(), lastAt: z.number().int().nullable() });
const CountRow = z.object({ n: z.number().int().nonnegative() });
const IdRow = z.object({ id: z.string() });

export class Journal {
  readonly #db: Db;
  readonly #audit: AuditLog;
  readonly #clock: Clock;

  constructor(db: Db, audit: AuditLog, clock: Clock) {
    this.#db = db;
    this.#audit = audit;
    this.#clock = clock;
  }

  get(id: string): IntentRow | undefined {
    const raw = statement(this.#db, 'SELECT * FROM intents WHERE id = ?').get(id);
    return raw === undefined ? undefined : parseIntentRow(raw);
  }

  require(id: string): IntentRow {
    const row = this.get(id);
    if (!row) throw new StoreError('STORE_INTENT_UNKNOWN', `intent ${id} is not in the journal`, { details: { intentId: id } });
    return row;
  }

  /**
   * Inserts the intent in state `planned` with its `intent.planned` action, unless a row with this id
   * exists: then that row is returned unchanged (`created: false`). Deciding the same thing twice
   * therefore never makes a second intent, even across restarts.
   */
  plan(input: PlanInput): { row: IntentRow; created: boolean } {
    const params = canonicalJson(input.params);
    return this.#db.transaction(() => {
      const existing = this.get(input.id);
      if (existing) return { row: existing, created: false };
      const now = this.#clock.now();
      statement(
        this.#db,
        `INSERT INTO intents (id, strategy, strategy_version, rule, kind, params, state, attempts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'planned', 0, ?, ?)`,
      ).run(input.id, input.strategy ?? null, input.strategyVersion ?? null, input.rule ?? null, input.kind, params, now, now);
      this.#audit.append({
        kind: 'intent.planned',
        strategy: input.strategy ?? null,
        intentId: input.id,
        data: { kind: input.kind, params: JSON.parse(params) as object, evidence: input.evidence ?? {}, reason: input.reason ?? null },
        seal: [{ table: 'intents', key: input.id }],
      });
      return { row: this.require(input.id), created: true };
    })();
  }

  /** planned → signed: the bytes, signature and lifetime are durable before anything is sent. attempts + 1. */
  recordSigned(id: string, signed: SignedRecord): IntentRow {
    return this.#transition(id, 'signed', {
      set: {
        signed_tx: Buffer.from(signed.bytes),
        signature: signed.signature,
        blockhash: signed.blockhash,
        last_valid_block_height: signed.lastValidBlockHeight,
        request_id: signed.requestId ?? null,
        error_code: null,
        error_message: null,
      },
      bumpAttempts: true,
      action: (row) => ({
        kind: 'intent.signed',
        signature: signed.signature,
        data: {
          attempt: row.attempts + 1,
          blockhash: signed.blockhash,
          lastValidBlockHeight: signed.lastValidBlockHeight,
          requestId: signed.requestId ?? null,
          ...signed.data,
        },
      }),
    });
  }

  /** signed → sent (or planned → sent for calls without a transaction). */
  markSent(id: string, data: object = {}): IntentRow {
    return this.#transition(id, 'sent', { action: (row) => ({ kind: 'intent.sent', signature: row.signature, data }) });
  }

  /**
   * signed | sent → confirmed, with the fills it produced, all in one transaction. A `successor` (a
   * renewal's replacement, planned once its cancel is through) is planned in that same transaction:
   * there is no instant where this intent is done and the next one is not journaled. Idempotent by
   * the successor's id, like {@link plan}.
   */
  markConfirmed(id: string, data: object = {}, fills: readonly FillInput[] = [], successor?: PlanInput): IntentRow {
    return this.#transition(id, 'confirmed', {
      action: (row) => ({ kind: 'intent.confirmed', signature: row.signature, data: successor ? { ...data, successor: successor.id } : data }),
      after: (row) => {
        for (const fill of fills) this.#fill(row, fill);
        // Landed, amounts unknown: a pending fill, in this same transaction, so it cannot go missing.
        const unknown = (data as { fillUnknown?: unknown }).fillUnknown;
        if (fills.length === 0 && typeof unknown === 'string') insertPendingFill(this.#db, row.id, this.#clock.now(), unknown);
        if (successor) this.plan(successor);
      },
    });
  }

  /** Landed transactions whose fill is unknown and due for another look at `now`. */
  duePendingFills(now: number): PendingFill[] {
    return duePendingFills(this.#db, now);
  }

  /** Another look found nothing: the next one at `nextAt`. */
  reschedulePendingFill(id: string, nextAt: number, reason: string): void {
    rescheduleFill(this.#db, id, nextAt, reason);
  }

  /**
   * A pending fill's amounts, learned at last: recorded and the pending row removed, in one
   * transaction (`fill.recovered` says how). Returns how many fills were new.
   */
  resolvePendingFill(id: string, fills: readonly FillInput[], data: object): number {
    const row = this.require(id);
    return this.#db.transaction(() => {
      const added = fills.reduce((n, fill) => n + (this.#fill(row, fill) ? 1 : 0), 0);
      deletePendingFill(this.#db, id);
      this.#audit.append({ kind: 'fill.recovered', strategy: row.strategy, intentId: id, signature: row.signature, data: { fills: added, ...data } });
      return added;
    })();
  }

  /** Any non-final state → failed. Final: a failed intent is never retried. */
  markFailed(id: string, failure: Failure): IntentRow {
    return this.#transition(id, 'failed', {
      set: { error_code: failure.code, error_message: failure.message.slice(0, 500) },
      action: (row) => ({ kind: 'intent.failed', signature: row.signature, data: { code: failure.code, message: failure.message, ...failure.data } }),
    });
  }

  /** planned → cancelled (never sent; e.g. too stale to act on after a restart). */
  markCancelled(id: string, failure: Failure): IntentRow {
    return this.#transition(id, 'cancelled', {
      set: { error_code: failure.code, error_message: failure.message.slice(0, 500) },
      action: () => ({ kind: 'intent.cancelled', data: { code: failure.code, message: failure.message, ...failure.data } }),
    });
  }

  /**
   * signed | sent → expired. Only for a transaction that provably never landed: block height past
   * its lastValidBlockHeight *and* its signature unknown. The caller proves it; the data records how.
   */
  markExpired(id: string, data: object): IntentRow {
    return this.#transition(id, 'expired', { action: (row) => ({ kind: 'intent.expired', signature: row.signature, data }) });
  }

  /** expired → planned: a new attempt may quote and sign again. The dead transaction is forgotten here; its audit rows keep it. */
  rearm(id: string, data: object = {}): IntentRow {
    return this.#transition(id, 'planned', {
      set: { signed_tx: null, signature: null, blockhash: null, last_valid_block_height: null, request_id: null },
      action: (row) => ({ kind: 'intent.rearmed', data: { previousSignature: row.signature, attempts: row.attempts, ...data } }),
    });
  }

  /**
   * Records Trigger V2 ids on the row (no state change) with the action that explains them, in one
   * transaction: a deposit's `requestId` and unsigned bytes before they are signed, a cancel's
   * `requestId` before the withdrawal is signed, the order id as soon as it is known. A restart
   * resumes from these (Trigger needs them again after a restart). Only the given ids change.
   */
  recordTriggerIds(id: string, ids: TriggerIds, kind: string, data: object = {}): IntentRow {
    const set = Object.entries({ deposit_request_id: ids.depositRequestId, cancel_request_id: ids.cancelRequestId, order_id: ids.orderId }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    );
    return this.#db.transaction(() => {
      const row = this.require(id);
      const columns = ['updated_at = ?', ...set.map(([c]) => `${c} = ?`)];
      statement(this.#db, `UPDATE intents SET ${columns.join(', ')} WHERE id = ?`).run(this.#clock.now(), ...set.map(([, v]) => v), id);
      this.#audit.append({
        kind,
        strategy: row.strategy,
        intentId: id,
        signature: row.signature,
        data: { ...ids, ...data },
        seal: [{ table: 'intents', key: id }],
      });
      return this.require(id);
    })();
  }

  /**
   * The chain's id of a signed intent's transaction, learned after signing (someone signed after us:
   * the row held only our own signature). The row takes the id; the action keeps both.
   */
  recordTransactionId(id: string, transactionId: string, data: object): IntentRow {
    return this.#db.transaction(() => {
      const row = this.require(id);
      statement(this.#db, 'UPDATE intents SET signature = ?, updated_at = ? WHERE id = ?').run(transactionId, this.#clock.now(), id);
      this.#audit.append({
        kind: 'intent.transaction_id',
        strategy: row.strategy,
        intentId: id,
        signature: transactionId,
        data: { ownSignature: row.signature, ...data },
        seal: [{ table: 'intents', key: id }],
      });
      return this.require(id);
    })();
  }

  /** An action about an intent that does not change its state (a re-send, an error to retry later). */
  note(id: string, kind: string, data: object, signature?: string | null): void {
    const row = this.require(id);
    this.#db.transaction(() => {
      statement(this.#db, 'UPDATE intents SET updated_at = ? WHERE id = ?').run(this.#clock.now(), id);
      this.#audit.append({ kind, strategy: row.strategy, intentId: id, signature: signature ?? row.signature, data, seal: [{ table: 'intents', key: id }] });
    })();
  }

  /** How many `kind` actions of intent `id` carry `code` in their data, and the instant of the latest. */
  codeCount(id: string, kind: string, code: string): { readonly count: number; readonly lastAt: number | null } {
    return parseRow(
      CodeCountRow,
      statement(this.#db, "SELECT count(*) AS count, max(at) AS lastAt FROM actions WHERE intent_id = ? AND kind = ? AND json_extract(data, '$.code') = ?").get(
        id,
        kind,
        code,
      ),
      'action count',
    );
  }

  /** Records fills of an intent; each (signature, idx) at most once ever. Returns how many were new. */
  recordFills(id: string, fills: readonly FillInput[]): number {
    const row = this.require(id);
    return this.#db.transaction(() => fills.reduce((n, fill) => n + (this.#fill(row, fill) ? 1 : 0), 0))();
  }

  /** Non-final intents, oldest first: what reconciliation resolves. Uses the partial index. */
  pending(): IntentRow[] {
    // The states written into the statement, not bound: SQLite uses a partial index only when it can
    // see at prepare time that the query's WHERE implies the index's.
    const rows = statement(this.#db, `SELECT * FROM intents WHERE state IN (${PENDING_STATES.map((s) => `'${s}'`).join(', ')}) ORDER BY updated_at, id`).all();
    return rows.map(parseIntentRow);
  }

  /** How many fills an intent has (tests and status). */
  fillCount(id: string): number {
    return parseRow(CountRow, statement(this.#db, 'SELECT count(*) AS n FROM fills WHERE intent_id = ?').get(id), 'fill count').n;
  }

  #fill(row: IntentRow, fill: FillInput): boolean {
    return recordFill(this.#db, this.#audit, fill, { intentId: row.id, strategy: row.strategy }, this.#clock.now());
  }

  #transition(
    id: string,
    to: IntentRow['state'],
    spec: {
      set?: Record<string, string | number | Buffer | null>;
      bumpAttempts?: boolean;
      action: (row: IntentRow) => { kind: string; signature?: string | null; data: object };
      after?: (row: IntentRow) => void;
    },
  ): IntentRow {
    return this.#db.transaction(() => {
      const before = this.require(id);
      const set = Object.entries(spec.set ?? {});
      const columns = ['state = ?', 'updated_at = ?', ...set.map(([c]) => `${c} = ?`), ...(spec.bumpAttempts ? ['attempts = attempts + 1'] : [])];
      // The trigger refuses an illegal transition with an ABORT; surfaced as a StoreError naming both states.
      try {
        statement(this.#db, `UPDATE intents SET ${columns.join(', ')} WHERE id = ?`).run(to, this.#clock.now(), ...set.map(([, v]) => v), id);
      } catch (error) {
        // Two intents whose transactions came out byte-identical (two equal vault deposits crafted
        // in one slot) share a signature: only one can exist. Nothing was sent; the second is signed
        // again on its next pass, with a newer blockhash.
        if (error instanceof Error && /UNIQUE constraint failed: intents\.signature/.test(error.message)) {
          const holder = parseOptionalRow(
            IdRow,
            statement(this.#db, 'SELECT id FROM intents WHERE signature = ?').get(spec.set?.signature ?? null),
            'signature holder',
          );
          throw new StoreError(
            'STORE_SIGNATURE_TAKEN',
            `intent ${id}: its signed transaction is identical to intent ${holder?.id ?? '?'}'s; not recorded, it will be signed again`,
            { cause: error, details: { intentId: id, other: holder?.id ?? null } },
          );
        }
        throw new StoreError('STORE_INTENT_TRANSITION', `intent ${id}: cannot go from ${before.state} to ${to}`, {
          cause: error,
          details: { intentId: id, from: before.state, to },
        });
      }
      const action = spec.action(before);
      this.#audit.append({
        kind: action.kind,
        strategy: before.strategy,
        intentId: id,
        signature: action.signature ?? null,
        data: { from: before.state, to, ...action.data },
        seal: [{ table: 'intents', key: id }],
      });
      const after = this.require(id);
      spec.after?.(after);
      return after;
    })();
  }
}
