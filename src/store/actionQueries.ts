import type { Db } from './db.js';

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

function toRecord(row: Record<string, unknown>): ActionRecord {
  return {
    id: row.id as number,
    at: row.at as number,
    kind: row.kind as string,
    strategy: row.strategy as string | null,
    intentId: row.intent_id as string | null,
    mint: row.mint as string | null,
    amount: row.amount === null ? null : BigInt(row.amount as string),
    decimals: row.decimals as number | null,
    signature: row.signature as string | null,
    data: row.data as string,
    prevHash: row.prev_hash as string,
    hash: row.hash as string,
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
  for (const row of db.prepare(sql).iterate(...params)) yield toRecord(row as Record<string, unknown>);
}
