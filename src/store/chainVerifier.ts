import { GENESIS_HASH, hashActionRow, parseActionRow } from './actionRow.js';
import type { Db } from './db.js';
import { z } from 'zod';
import { parseOptionalRow } from './parseRows.js';
import { type RowsResult, verifyRows } from './rowVerifier.js';

/**
 * Why the chain is broken at a row:
 * - `row_edited`: the row's contents no longer hash to its stored hash (or a column has a wrong type);
 * - `rows_missing`: ids jump: rows before this one were deleted;
 * - `link_broken`: no id gap, but prev_hash is not the previous row's hash: the previous row was
 *   rewritten with a recomputed hash, or this row's prev_hash was edited, or a row was inserted;
 * - `tail_deleted`: sqlite_sequence remembers ids beyond the last row: rows were deleted from the end;
 * - `sequence_tampered`: sqlite_sequence is missing or lower than the last id;
 * - `anchor_mismatch`: the row given as an external anchor is missing or has another hash.
 */
export type ChainBreakReason = 'row_edited' | 'rows_missing' | 'link_broken' | 'tail_deleted' | 'sequence_tampered' | 'anchor_mismatch';

export interface ChainBreak {
  /** The first row id at which the break shows (for tail_deleted: the first deleted id). */
  readonly id: number;
  readonly reason: ChainBreakReason;
  /** One line for a human. */
  readonly message: string;
}

export interface VerifyResult {
  /** The chain holds, and (when checked) the sealed tables are as the chain says. */
  readonly ok: boolean;
  /** Rows read. */
  readonly checked: number;
  /** Last row's id, 0 for an empty table. */
  readonly headId: number;
  /** Last row's stored hash, the genesis hash for an empty table. */
  readonly headHash: string;
  /** The break with the lowest id, if any. */
  readonly firstBreak?: ChainBreak;
  /** How many breaks were found in total (a row can count twice: missing rows before it and edited). */
  readonly breaks: number;
  /** sqlite_sequence for actions: the highest id ever used (undefined when it has no entry). */
  readonly sequence?: number;
  /** The sealed tables (fills, intents, trigger_orders) against the chain's seals; see rowVerifier.ts. */
  readonly rows?: RowsResult;
}

/**
 * The first thing wrong, in one line: a break in the chain first (the seals cannot be trusted
 * without it), else the first row that differs from its seal. Undefined when all is well.
 */
export function firstProblem(result: VerifyResult): string | undefined {
  const first = result.firstBreak;
  if (first !== undefined) return `audit chain broken at action ${first.id} (${first.reason}): ${first.message}`;
  const row = result.rows?.first;
  if (row !== undefined) return `${row.table} differ from the audit chain (${row.reason}): ${row.message}`;
  return undefined;
}

/** A row id and hash recorded outside the database (e.g. an earlier `audit verify` output). */
export interface ChainAnchor {
  readonly id: number;
  readonly hash: string;
}

/**
 * Checks rows of the actions table fed one by one in id order, keeping O(1) state, so both
 * `verify` and `export` can check a chain of any length while streaming it.
 */
export class ChainVerifier {
  #expectedId = 1;
  #expectedPrev = GENESIS_HASH;
  #checked = 0;
  #headId = 0;
  #headHash = GENESIS_HASH;
  #breaks = 0;
  #first: ChainBreak | undefined;
  #anchorSeen = false;
  readonly #anchor: ChainAnchor | undefined;

  constructor(options: { anchor?: ChainAnchor | undefined } = {}) {
    this.#anchor = options.anchor;
  }

  #report(id: number, reason: ChainBreakReason, message: string): void {
    this.#breaks += 1;
    if (this.#first === undefined || id < this.#first.id) this.#first = { id, reason, message };
  }

  /** Checks the next row (as read from SQLite). Rows must come in ascending id order. */
  check(raw: Readonly<Record<string, unknown>>): void {
    const row = parseActionRow(raw);
    if (typeof row === 'string') {
      const id = typeof raw.id === 'number' ? raw.id : this.#expectedId;
      this.#report(id, 'row_edited', `row ${id} was edited: ${row}`);
      this.#checked += 1;
      this.#expectedId = id + 1;
      this.#expectedPrev = typeof raw.hash === 'string' ? raw.hash : '';
      this.#headId = id;
      this.#headHash = this.#expectedPrev;
      return;
    }

    const { id } = row;
    if (id > this.#expectedId) {
      const range = id - 1 === this.#expectedId ? `row ${this.#expectedId} is` : `rows ${this.#expectedId}–${id - 1} are`;
      this.#report(id, 'rows_missing', `${range} missing before row ${id} (deleted)`);
    } else if (row.prev_hash !== this.#expectedPrev) {
      this.#report(
        id,
        'link_broken',
        id === 1
          ? 'row 1 does not start from the genesis hash'
          : `row ${id}'s prev_hash is not the hash of row ${id - 1}: row ${id - 1} was rewritten (hash recomputed) or a row was inserted`,
      );
    }
    if (hashActionRow(row) !== row.hash) {
      this.#report(id, 'row_edited', `row ${id} was edited: its hash does not match its contents`);
    }
    if (this.#anchor !== undefined && id === this.#anchor.id) {
      this.#anchorSeen = true;
      if (row.hash !== this.#anchor.hash) {
        this.#report(id, 'anchor_mismatch', `row ${id}'s hash ${row.hash} is not the anchored ${this.#anchor.hash}`);
      }
    }

    this.#checked += 1;
    this.#expectedId = id + 1;
    this.#expectedPrev = row.hash;
    this.#headId = id;
    this.#headHash = row.hash;
  }

  /**
   * Completes the check with the table's sqlite_sequence value (`undefined` when it has no entry),
   * which is how deleted tail rows show: AUTOINCREMENT remembers the highest id ever used.
   */
  finish(sequence: number | undefined): VerifyResult {
    const lastId = this.#expectedId - 1;
    if (sequence === undefined) {
      if (this.#checked > 0) this.#report(lastId, 'sequence_tampered', 'sqlite_sequence has no entry for actions although rows exist');
    } else if (sequence > lastId) {
      const range = sequence === lastId + 1 ? `row ${sequence} was` : `rows ${lastId + 1}–${sequence} were`;
      this.#report(lastId + 1, 'tail_deleted', `${range} deleted from the end of the log`);
    } else if (sequence < lastId) {
      this.#report(lastId, 'sequence_tampered', `sqlite_sequence (${sequence}) is below the last id ${lastId}`);
    }
    if (this.#anchor !== undefined && !this.#anchorSeen) {
      this.#report(this.#anchor.id, 'anchor_mismatch', `anchored row ${this.#anchor.id} is not in the log`);
    }
    return {
      ok: this.#breaks === 0,
      checked: this.#checked,
      headId: this.#headId,
      headHash: this.#headHash,
      ...(this.#first === undefined ? {} : { firstBreak: this.#first }),
      breaks: this.#breaks,
      ...(sequence === undefined ? {} : { sequence }),
    };
  }
}

const ROWS = 'SELECT id, at, kind, strategy, intent_id, mint, amount, decimals, signature, data, prev_hash, hash FROM actions ORDER BY id';
const SequenceRow = z.object({ seq: z.number().int() });
const SEQUENCE = "SELECT seq FROM sqlite_sequence WHERE name = 'actions'";

/** Reads the AUTOINCREMENT high-water mark of actions. */
export function actionsSequence(db: Db): number | undefined {
  return parseOptionalRow(SequenceRow, db.prepare(SEQUENCE).get(), 'actions sequence')?.seq;
}

/**
 * Walks the actions table in id order inside one read transaction, checking the chain and handing
 * each row (as read) to `visit`: streaming, so memory does not grow with the table, and
 * consistent, so a daemon appending meanwhile cannot make a sound log look broken. Then, in the
 * same transaction, checks fills, intents and trigger_orders against the chain's seals.
 */
export function walkAuditChain(
  db: Db,
  visit: (row: Readonly<Record<string, unknown>>) => void,
  options: { anchor?: ChainAnchor | undefined } = {},
): VerifyResult {
  return db.transaction((): VerifyResult => {
    const verifier = new ChainVerifier(options);
    for (const raw of db.prepare(ROWS).iterate()) {
      const row = raw as Record<string, unknown>;
      verifier.check(row);
      visit(row);
    }
    const chain = verifier.finish(actionsSequence(db));
    const rows = verifyRows(db);
    return { ...chain, ok: chain.ok && rows.ok, rows };
  })();
}

/** Checks the whole actions chain and the sealed tables; see {@link ChainVerifier} and rowVerifier.ts. */
export function verifyAuditChain(db: Db, options: { anchor?: ChainAnchor | undefined } = {}): VerifyResult {
  return walkAuditChain(db, () => undefined, options);
}
