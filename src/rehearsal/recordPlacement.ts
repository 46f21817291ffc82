/**
 * The end of a rehearsed placement, price or DCA alike, inside the transaction that wrote its order
 * row: the deposit's base fee counted, the order id on the intent and `order.placed` as live records
 * them, and the confirmation the executor journals.
 */
import type { CallResult } from '../engine/executor/handler.js';
import type { Db } from '../store/db.js';
import type { IntentRow, Journal } from '../store/journal.js';
import { recordCost } from './ledger.js';
import { SIGNATURE_FEE_LAMPORTS } from './rehearsalFunds.js';

export function recordPlacement(db: Db, journal: Journal, row: IntentRow, orderId: string, summary: Record<string, unknown>, now: number): CallResult {
  recordCost(db, row.id, SIGNATURE_FEE_LAMPORTS, now);
  journal.recordTriggerIds(row.id, { orderId }, 'order.id', { source: 'rehearsal', rehearsal: true });
  journal.note(row.id, 'order.placed', { ...summary, params: row.params });
  return { kind: 'confirmed', data: { ...summary, via: 'rehearsal' } };
}
