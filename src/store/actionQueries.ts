import { z } from 'zod';
import type { Db } from './db.js';
import { parseRow, parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

/** One row of the log, typed for callers (amount as bigint, camelCase names). */
export interface ActionRecord {
  readonly id: number;
  readonly at: number;
  readonly kind: string;
  readonly strategy: string | null;
  readonly intentId: string | null;
  readonly mint: string | null;
  readonly amount: bigint | null;
  readonly decimals: number | null;
  readonly signature: string | null;
  /** The stored canonical JSON text. */
  readonly data: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** Filters of {@link iterateActions}; all optional and combined with AND. */
export interface ActionFilter {
  /** Only actions at or after this UTC epoch ms. */
  readonly since?: number | undefined;
  /** Only actions strictly before this UTC epoch ms. */
  readonly until?: number | undefined;
  readonly kind?: string | undefined;
  readonly strategy?: string | undefined;
  /** Only the most recent `limit` matching actions (still returned oldest first). */
  readonly limit?: number | undefined;
}

const COLUMNS = 'id, at, kind, strategy, intent_id, mint, amount, decimals, signature, data, prev_hash, hash';

const ActionRow = z.object({
  id: z.number().int().positive(),
  at: z.number().int(),
  kind: z.string(),
  strategy: z.string().nullable(),
  intent_id: z.string().nullable(),
  mint: z.string().nullable(),
  amount: z
    .string()
    .regex(/^-?\d+$/)
    .nullable(),
  decimals: z.number().int().nullable(),
  signature: z.string().nullable(),
  data: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});

function toRecord(raw: unknown): ActionRecord {
  const row = parseRow(ActionRow, raw, 'action');
  return {
    id: row.id,
    at: row.at,
    kind: row.kind,
    strategy: row.strategy,
    intentId: row.intent_id,
    mint: row.mint,
    amount: row.amount === null ? null : BigInt(row.amount),
    decimals: row.decimals,
    signature: row.signature,
    data: row.data,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * Streams the actions matching `filter` in id order. Read-only: works on a connection opened
 * with `readonly: true`, which is how `jupbot audit` reads a live daemon's database.
 */
export function* iterateActions(db: Db, filter: ActionFilter = {}): Generator<ActionRecord> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const condition = (sql: string, value: string | number | undefined): void => {
    if (value === undefined) return;
    where.push(sql);
    params.push(value);
  };
  condition('at >= ?', filter.since);
  condition('at < ?', filter.until);
  condition('kind = ?', filter.kind);
  condition('strategy = ?', filter.strategy);
  const clause = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  let sql = `SELECT ${COLUMNS} FROM actions${clause} ORDER BY id`;
  if (filter.limit !== undefined) {
    if (!Number.isSafeInteger(filter.limit) || filter.limit < 1) {
      throw new RangeError(`limit must be a positive integer, got ${filter.limit}`);
    }
    sql = `SELECT * FROM (SELECT ${COLUMNS} FROM actions${clause} ORDER BY id DESC LIMIT ?) ORDER BY id`;
    params.push(filter.limit);
  }
  for (const row of db.prepare(sql).iterate(...params)) yield toRecord(row);
}

/** Whether an action of `kind` was ever recorded for `intentId` (a deferral is recorded once, across restarts too). */
export function hasAction(db: Db, kind: string, intentId: string): boolean {
  return statement(db, 'SELECT 1 FROM actions WHERE kind = ? AND intent_id = ? LIMIT 1').get(kind, intentId) !== undefined;
}

/** Whether the log holds any action at all (paper mode starts a new database over a used one). */
export function hasAnyAction(db: Db): boolean {
  return db.prepare('SELECT 1 FROM actions LIMIT 1').get() !== undefined;
}

/** The instant of the latest action, if any. */
export function lastActionAt(db: Db): number | undefined {
  return parseRow(z.object({ at: z.number().int().nullable() }), db.prepare('SELECT max(at) AS at FROM actions').get(), 'last action').at ?? undefined;
}

const StateCountRow = z.object({ state: z.string(), n: z.number().int().nonnegative() });

/** How many intents are in each state now. */
export function intentCountsByState(db: Db): Record<string, number> {
  const rows = parseRows(StateCountRow, db.prepare('SELECT state, count(*) AS n FROM intents GROUP BY state').all(), 'intent counts');
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
