/** What the executor wrote, read back from the database: audit actions and fills. */
import type { Db } from '../../src/store/db.js';

/** Action kinds of the audit log for one intent, in order. */
export function actionKinds(db: Db, intentId: string): string[] {
  return (db.prepare('SELECT kind FROM actions WHERE intent_id = ? ORDER BY id').all(intentId) as { kind: string }[]).map((r) => r.kind);
}

/** Audit actions of one kind, in order. */
export function actions(db: Db, kind: string): Array<{ intent_id: string | null; data: string }> {
  return db.prepare('SELECT intent_id, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as Array<{ intent_id: string | null; data: string }>;
}

/** The fills recorded for one intent, in order. */
export function fills(
  db: Db,
  intentId: string,
): Array<{
  signature: string;
  idx: number;
  source: string;
  position_pubkey: string | null;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
  fee_amount: string | null;
}> {
  return db.prepare('SELECT * FROM fills WHERE intent_id = ? ORDER BY id').all(intentId) as never;
}

export function rows<T>(db: Db, sql: string, ...args: unknown[]): T[] {
  return db.prepare(sql).all(...args) as T[];
}
