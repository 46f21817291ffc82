/**
 * `pending_fills` (migration 0007): landed transactions whose fill is not known yet. A row is written
 * with the confirmation that could not learn the amounts, and deleted with the fill that answers it,
 * so a landed trade is never silently absent: until its fill is known it is "fill pending".
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

export interface PendingFill {
  readonly intentId: string;
  readonly strategy: string | null;
  readonly signature: string | null;
  readonly kind: string;
  readonly since: number;
  readonly attempts: number;
  readonly nextAt: number;
  readonly reason: string;
}

const Row = z.object({
  intent_id: z.string(),
  strategy: z.string().nullable(),
  signature: z.string().nullable(),
  kind: z.string(),
  since: z.number().int(),
  attempts: z.number().int(),
  next_at: z.number().int(),
  reason: z.string(),
});

const SELECT =
  'SELECT p.intent_id, i.strategy, i.signature, i.kind, p.since, p.attempts, p.next_at, p.reason FROM pending_fills p JOIN intents i ON i.id = p.intent_id';

const parse = (rows: unknown[]): PendingFill[] =>
  parseRows(Row, rows, 'pending fills').map((r) => ({
    intentId: r.intent_id,
    strategy: r.strategy,
    signature: r.signature,
    kind: r.kind,
    since: r.since,
    attempts: r.attempts,
    nextAt: r.next_at,
    reason: r.reason,
  }));

/** Every pending fill, oldest first. */
export function listPendingFills(db: Db): PendingFill[] {
  return parse(statement(db, `${SELECT} ORDER BY p.since, p.intent_id`).all());
}

/** Pending fills due for another look at `now`. */
export function duePendingFills(db: Db, now: number): PendingFill[] {
  return parse(statement(db, `${SELECT} WHERE p.next_at <= ? ORDER BY p.next_at, p.intent_id`).all(now));
}

export function insertPendingFill(db: Db, intentId: string, now: number, reason: string): void {
  statement(db, 'INSERT OR IGNORE INTO pending_fills (intent_id, since, attempts, next_at, reason) VALUES (?, ?, 0, ?, ?)').run(intentId, now, now, reason);
}

export function rescheduleFill(db: Db, intentId: string, nextAt: number, reason: string): void {
  statement(db, 'UPDATE pending_fills SET attempts = attempts + 1, next_at = ?, reason = ? WHERE intent_id = ?').run(nextAt, reason, intentId);
}

export function deletePendingFill(db: Db, intentId: string): void {
  statement(db, 'DELETE FROM pending_fills WHERE intent_id = ?').run(intentId);
}
