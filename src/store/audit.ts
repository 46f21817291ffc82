import type { Clock } from '../clock.js';
import { GENESIS_HASH, hashActionRow, toActionColumns, type ActionColumns, type ActionInput } from './actionRow.js';
import { actionsSequence, verifyAuditChain, type ChainAnchor, type VerifyResult } from './chainVerifier.js';
import { iterateActions, type ActionFilter, type ActionRecord } from './actionQueries.js';
import type { Db, Statement, Transaction } from './db.js';
import { sealRows, type SealedTable } from './rowSeal.js';
import { recordRekindedRows } from './rekindedRows.js';
import { BACKFILL_SEAL_KIND } from './rowVerifier.js';
import { TypedEmitter } from '../typedEmitter.js';
import { StoreError } from './errors.js';

/** Where the chain currently ends. */
export interface ChainHead {
  /** Id of the last row, 0 when the log is empty. */
  readonly id: number;
  /** Hash of the last row, the genesis hash (64 zeros) when the log is empty. */
  readonly hash: string;
}

/** What {@link AuditLog.append} wrote. */
export interface AppendedAction {
  readonly id: number;
  readonly at: number;
  readonly hash: string;
}

interface Head extends ChainHead {
  /** The id the next row must take: one past the highest id ever used (sqlite_sequence). */
  readonly nextId: number;
}

const CHAIN_HEAD_MOVED = 'chain head moved';
/** Seals per `audit.sealed` action: about 120 characters each, well under the data limit. */
const OLDER_ROWS_PER_ACTION = 2000;
const COLUMNS = 'id, at, kind, strategy, intent_id, mint, amount, decimals, signature, data, prev_hash, hash';

export type { ActionFilter, ActionRecord } from './actionQueries.js';

/**
 * The append-only, hash-chained audit log (table `actions`, defined in docs/audit.md).
 *
 * Each row's hash covers the previous row's hash and every column of the row, so editing,
 * deleting or inserting a row anywhere shows in {@link verify}. The head is cached; a trigger in
 * the database refuses a row that does not extend the real head, so a stale cache (another
 * writer, or an enclosing transaction that rolled back) costs one retry, never a forked chain.
 *
 * `append` may run inside a caller's transaction (better-sqlite3 nests it as a savepoint), which
 * is how an intent row and its audit row commit together.
 */
export class AuditLog {
  /**
   * Every action once written (after its commit or, inside an enclosing transaction, its savepoint's
   * release), for the operator's log lines and webhooks. Listeners must not throw or write actions.
   */
  readonly appended = new TypedEmitter<{ action: { readonly id: number; readonly input: ActionInput } }>();
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #insert: Statement;
  readonly #transaction: Transaction<(batch: readonly ActionColumns[], at: number) => { written: AppendedAction[]; head: Head }>;
  #head: Head;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#insert = db.prepare(`INSERT INTO actions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Built once: better-sqlite3 wraps a function in several closures per transaction() call.
    this.#transaction = db.transaction((batch: readonly ActionColumns[], at: number) => this.#insertBatch(batch, at));
    this.#head = this.#readHead();
    this.#sealOlderRows();
    // After the one-time seal above: an upgrade's changes are recorded as ordinary, later seals.
    recordRekindedRows(db, (action) => this.append(action));
  }

  /**
   * Rows written before this version sealed them (listed by migration 0009 in `unsealed_rows`) are
   * sealed once, by the first log opened for writing, in `audit.sealed` actions: before any row is
   * sealed as written, which is what `audit verify` requires of such an action.
   */
  #sealOlderRows(): void {
    const table = this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unsealed_rows'").get();
    if (table === undefined) return;
    // A listed row that is gone by now is left out: it cannot be sealed, and nothing says it existed.
    const rows = this.#db
      .prepare(
        `SELECT tbl, key FROM unsealed_rows u
          WHERE (tbl = 'fills' AND EXISTS (SELECT 1 FROM fills WHERE id = CAST(u.key AS INTEGER)))
             OR (tbl = 'intents' AND EXISTS (SELECT 1 FROM intents WHERE id = u.key))
             OR (tbl = 'trigger_orders' AND EXISTS (SELECT 1 FROM trigger_orders WHERE id = u.key))
          ORDER BY tbl, key`,
      )
      .all() as { tbl: SealedTable; key: string }[];
    if (rows.length === 0) {
      if (this.#db.prepare('SELECT 1 FROM unsealed_rows LIMIT 1').get() !== undefined) this.#db.prepare('DELETE FROM unsealed_rows').run();
      return;
    }
    this.#db.transaction(() => {
      const reason = 'written before this version of jupbot sealed rows as they are written';
      for (let i = 0; i < rows.length; i += OLDER_ROWS_PER_ACTION) {
        const batch = rows.slice(i, i + OLDER_ROWS_PER_ACTION).map((r) => ({ table: r.tbl, key: r.key }));
        this.append({ kind: BACKFILL_SEAL_KIND, data: { reason, rows: rows.length }, seal: batch });
      }
      this.#db.prepare('DELETE FROM unsealed_rows').run();
    })();
  }

  /** The last row as this log knows it. */
  get head(): ChainHead {
    return { id: this.#head.id, hash: this.#head.hash };
  }

  #readHead(): Head {
    const last = this.#db.prepare('SELECT id, hash FROM actions ORDER BY id DESC LIMIT 1').get() as { id: number; hash: string } | undefined;
    const sequence = actionsSequence(this.#db) ?? 0;
    return {
      id: last?.id ?? 0,
      hash: last?.hash ?? GENESIS_HASH,
      nextId: Math.max(sequence, last?.id ?? 0) + 1,
    };
  }

  /** Inserts a batch after the cached head; returns what was written and the new head. */
  #insertBatch(batch: readonly ActionColumns[], at: number): { written: AppendedAction[]; head: Head } {
    let { hash: prev, nextId: id } = this.#head;
    const written: AppendedAction[] = [];
    for (const columns of batch) {
      const hash = hashActionRow({ id, at, ...columns, prev_hash: prev });
      const { kind, strategy, intent_id, mint, amount, decimals, signature, data } = columns;
      this.#insert.run(id, at, kind, strategy, intent_id, mint, amount, decimals, signature, data, prev, hash);
      written.push({ id, at, hash });
      prev = hash;
      id += 1;
    }
    return { written, head: { id: id - 1, hash: prev, nextId: id } };
  }

  #write(batch: readonly ActionColumns[]): AppendedAction[] {
    const at = Math.floor(this.#clock.now());
    let result: { written: AppendedAction[]; head: Head };
    try {
      result = this.#transaction.immediate(batch, at);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes(CHAIN_HEAD_MOVED)) throw error;
      // Someone else extended (or an enclosing rollback undid) the chain: re-read the head once.
      this.#head = this.#readHead();
      result = this.#transaction.immediate(batch, at);
    }
    // Only after the commit (or savepoint release): a rolled-back write must not move the cache.
    this.#head = result.head;
    return result.written;
  }

  /**
   * Appends one action, stamped with the clock's time, and returns its id, time and hash.
   * Throws StoreError (STORE_ACTION_INVALID, STORE_ACTION_SECRET, STORE_CANONICAL_JSON) before
   * writing anything if the action is malformed.
   */
  append(action: ActionInput): AppendedAction {
    const [written] = this.#write([this.#columns(action)]) as [AppendedAction];
    this.#announce(written, action);
    return written;
  }

  /** Appends several actions in one transaction: all are written, or none. */
  appendMany(actions: readonly ActionInput[]): AppendedAction[] {
    const batch = actions.map((action) => this.#columns(action));
    const written = batch.length === 0 ? [] : this.#write(batch);
    written.forEach((row, i) => this.#announce(row, actions[i] as ActionInput));
    return written;
  }

  /** The stored columns, with the digest of every row the action seals in `data.sealed`. */
  #columns(action: ActionInput): ActionColumns {
    if (action.seal === undefined || action.seal.length === 0) return toActionColumns(action);
    if (action.data !== undefined && 'sealed' in action.data) {
      throw new StoreError('STORE_ACTION_INVALID', 'audit action: data.sealed is written by the audit log itself', { details: { field: 'data' } });
    }
    return toActionColumns({ ...action, data: { ...action.data, sealed: sealRows(this.#db, action.seal) } });
  }

  /** Listeners are isolated (TypedEmitter): a log line or a webhook never fails a write that happened. */
  #announce(written: AppendedAction, input: ActionInput): void {
    this.appended.emit('action', { id: written.id, input });
  }

  /** Streams matching actions in id order; see {@link iterateActions}. */
  iterate(filter: ActionFilter = {}): Generator<ActionRecord> {
    return iterateActions(this.#db, filter);
  }

  /** The matching actions as an array (use {@link iterate} for large results). */
  list(filter: ActionFilter = {}): ActionRecord[] {
    return [...this.iterate(filter)];
  }

  /** Checks the whole chain; see {@link verifyAuditChain}. */
  verify(options: { anchor?: ChainAnchor | undefined } = {}): VerifyResult {
    return verifyAuditChain(this.#db, options);
  }
}
