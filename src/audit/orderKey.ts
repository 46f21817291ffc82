/**
 * Which `trigger_orders` rows are one order. The Trigger API lists an OCO as two legs, each with an
 * id of its own, sharing one deposit: our own share the placing intent, an adopted one its deposit
 * signature, and both the mints, the amount and the expiry. Every other order is its own row.
 */
import type { TriggerRecord } from '../store/reportRecords.js';

export function orderKey(
  row: Pick<TriggerRecord, 'id' | 'order_type' | 'intent_id' | 'deposit_signature' | 'input_mint' | 'input_amount' | 'expires_at'>,
): string {
  if (row.order_type !== 'oco' && row.order_type !== 'otoco') return `id:${row.id}`;
  return [row.intent_id ?? row.deposit_signature ?? row.id, row.input_mint, row.input_amount, row.expires_at ?? ''].join('|');
}
