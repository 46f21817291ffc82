/**
 * Seals: how the rows the audit figures are made of (fills, intents, the mirror of Trigger orders)
 * come under the hash chain. Every write to one of those rows appends, in the same transaction, an
 * action whose `data.sealed` holds the row's digest; `audit verify` recomputes every row's digest
 * and compares it with the last one the chain holds for that row. An edited row no longer matches,
 * a deleted row is missing, an inserted row has no seal: each is named, by table and key.
 *
 * A row's digest is the lowercase hex SHA-256 of the canonical JSON (keys sorted, no whitespace,
 * the encoding the chain uses for `data`) of an object holding every column of the row by name,
 * its value as stored: TEXT a string, INTEGER a number, BLOB its bytes as lowercase hex; a NULL
 * column is left out, so a column added by a later migration (NULL in old rows) leaves the seals
 * of old rows valid. docs/audit.md shows how to recompute it without jupbot.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';
import type { Db } from './db.js';
import { StoreError } from './errors.js';
import { statement } from './statementCache.js';

/** The sealed tables, each keyed by its `id` column. */
export const SEALED_TABLES = ['fills', 'intents', 'trigger_orders'] as const;
export type SealedTable = (typeof SEALED_TABLES)[number];

/** A row to seal: its table and key (the `id` column; a fill's integer id as decimal text). */
export interface RowRef {
  readonly table: SealedTable;
  readonly key: string | number | bigint;
}

/** What an action records of a row: its table, its key as text, and its digest. */
export interface RowSeal {
  readonly table: SealedTable;
  readonly key: string;
  readonly sha256: string;
}

/** A row's digest, from the row as SQLite returns it (column name → value). */
export function rowDigest(row: Readonly<Record<string, unknown>>): string {
  const present: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === null || value === undefined) continue;
    present[column] = Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value;
  }
  return hash('sha256', canonicalJson(present), 'hex');
}

/** Reads each row and returns its seal. A row that does not exist is a bug in the writer: thrown. */
export function sealRows(db: Db, refs: readonly RowRef[]): RowSeal[] {
  return refs.map(({ table, key }) => {
    const text = String(key);
    const row = statement(db, `SELECT * FROM ${table} WHERE id = ?`).get(table === 'fills' ? Number(text) : text) as Record<string, unknown> | undefined;
    if (row === undefined) {
      throw new StoreError('STORE_ACTION_INVALID', `audit action: cannot seal ${table} row ${text}: no such row`, { details: { table, key: text } });
    }
    return { table, key: text, sha256: rowDigest(row) };
  });
}
