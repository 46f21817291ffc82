/**
 * The second half of `audit verify`: the tables the audit figures are made of (fills, intents,
 * trigger_orders) against the seals in the chain (see rowSeal.ts). The chain says, for every row it
 * ever saw written, the digest of its last write; the tables must hold exactly those rows with
 * exactly those digests. Run inside the read transaction that walks the chain, so a daemon writing
 * meanwhile cannot make a sound database look tampered with.
 *
 * Why a row differs:
 * - `row_changed`: its digest is not the one its last seal recorded: edited outside jupbot;
 * - `row_deleted`: the chain sealed it, the table no longer has it;
 * - `row_unsealed`: the table has it, no seal names it: inserted outside jupbot;
 * - `sealed_late`: an `audit.sealed` action (the one-time seal of rows that predate sealing, written
 *   when a database is upgraded) comes after rows were already sealed as they were written: rows
 *   were slipped in to be sealed.
 */
import type { Db } from './db.js';
import { rowDigest, SEALED_TABLES, type SealedTable } from './rowSeal.js';

export type RowDifferenceReason = 'row_changed' | 'row_deleted' | 'row_unsealed' | 'sealed_late';

export interface RowDifference {
  readonly table: SealedTable;
  readonly key: string;
  readonly reason: RowDifferenceReason;
  /** The action whose seal the row fails (null for a row no seal names). */
  readonly actionId: number | null;
  /** One line for a human. */
  readonly message: string;
}

export interface RowsResult {
  readonly ok: boolean;
  /** Rows read, per table. */
  readonly checked: Readonly<Record<SealedTable, number>>;
  /** The difference whose seal comes first in the chain (unsealed rows after every sealed one). */
  readonly first?: RowDifference;
  readonly differences: number;
}

/** The kind of the one-time seal of rows written before sealing began. */
export const BACKFILL_SEAL_KIND = 'audit.sealed';

interface Expected {
  readonly sha256: string;
  readonly actionId: number;
}

const SEALS = `SELECT id, kind, json_extract(data, '$.sealed') AS sealed FROM actions
                WHERE instr(data, '"sealed":[') > 0 AND json_type(data, '$.sealed') = 'array' ORDER BY id`;

const isSealedTable = (value: unknown): value is SealedTable => (SEALED_TABLES as readonly unknown[]).includes(value);

const label = (table: SealedTable, key: string): string => (table === 'fills' ? `fills row ${key}` : `${table} row ${JSON.stringify(key)}`);

/** Compares the sealed tables with the chain's seals. */
export function verifyRows(db: Db): RowsResult {
  const expected = new Map<string, Expected>();
  const differences: RowDifference[] = [];
  let ordinarySeen = false;
  for (const raw of db.prepare(SEALS).iterate()) {
    const { id, kind, sealed } = raw as { id: number; kind: string; sealed: string };
    const backfill = kind === BACKFILL_SEAL_KIND;
    let entries: unknown;
    try {
      entries = JSON.parse(sealed);
    } catch {
      continue;
    }
    if (!Array.isArray(entries)) continue;
    if (backfill && ordinarySeen && entries.length > 0) {
      const first = entries[0] as { table?: unknown; key?: unknown };
      differences.push({
        table: isSealedTable(first.table) ? first.table : 'fills',
        key: String(first.key),
        reason: 'sealed_late',
        actionId: id,
        message: `action ${id} (${BACKFILL_SEAL_KIND}) seals rows as older than sealing, after rows were already sealed as written: rows were slipped in`,
      });
    }
    if (!backfill) ordinarySeen = true;
    for (const entry of entries as { table?: unknown; key?: unknown; sha256?: unknown }[]) {
      if (!isSealedTable(entry.table) || typeof entry.key !== 'string' || typeof entry.sha256 !== 'string') continue;
      expected.set(`${entry.table}\u0000${entry.key}`, { sha256: entry.sha256, actionId: id });
    }
  }

  const checked = { fills: 0, intents: 0, trigger_orders: 0 };
  for (const table of SEALED_TABLES) {
    for (const raw of db.prepare(`SELECT * FROM ${table} ORDER BY id`).iterate()) {
      const row = raw as Record<string, unknown>;
      checked[table] += 1;
      const key = String(row.id);
      const id = `${table}\u0000${key}`;
      const seal = expected.get(id);
      if (seal === undefined) {
        differences.push({
          table,
          key,
          reason: 'row_unsealed',
          actionId: null,
          message: `${label(table, key)} is in no seal of the chain: inserted outside jupbot`,
        });
        continue;
      }
      expected.delete(id);
      if (rowDigest(row) !== seal.sha256) {
        differences.push({
          table,
          key,
          reason: 'row_changed',
          actionId: seal.actionId,
          message: `${label(table, key)} is not as action ${seal.actionId} sealed it: edited outside jupbot`,
        });
      }
    }
  }
  for (const [id, seal] of expected) {
    const [table, key] = id.split('\u0000') as [SealedTable, string];
    differences.push({
      table,
      key,
      reason: 'row_deleted',
      actionId: seal.actionId,
      message: `${label(table, key)}, sealed by action ${seal.actionId}, is missing: deleted`,
    });
  }

  const order = (d: RowDifference): number => d.actionId ?? Number.MAX_SAFE_INTEGER;
  const first = differences.reduce<RowDifference | undefined>((best, d) => (best === undefined || order(d) < order(best) ? d : best), undefined);
  return { ok: differences.length === 0, checked, ...(first === undefined ? {} : { first }), differences: differences.length };
}
