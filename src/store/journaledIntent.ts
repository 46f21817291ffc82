/**
 * One journaled intent with what its signing recorded (the `intent.signed` action's data: the quote
 * or build it was checked against), for auditors who re-check a transaction after the fact.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { type IntentRow, parseIntentRow } from './intentRow.js';

export interface JournaledIntent {
  readonly row: IntentRow;
  /** The data of the last `intent.signed` action, or null when it was never signed. */
  readonly signed: Readonly<Record<string, unknown>> | null;
}

const SignedData = z.object({ data: z.string() });

export function journaledIntent(db: Db, id: string): JournaledIntent | undefined {
  const raw = db.prepare('SELECT * FROM intents WHERE id = ?').get(id);
  if (raw === undefined) return undefined;
  const action = db.prepare("SELECT data FROM actions WHERE intent_id = ? AND kind = 'intent.signed' ORDER BY id DESC LIMIT 1").get(id);
  const parsed = action === undefined ? null : SignedData.parse(action);
  const data = parsed === null ? null : z.record(z.string(), z.unknown()).parse(JSON.parse(parsed.data));
  return { row: parseIntentRow(raw), signed: data };
}
