/**
 * The vault orders of our strategies as the database knows them, for the decide loop: the live
 * mirrored orders (one per placing intent), the placements journaled but not yet mirrored, and the
 * orders whose funds are left in the vault (expired, or a withdrawal nobody completes).
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';
import { readSinceJournalChange } from './tableVersions.js';
import { LIVE_ORDER_SQL } from './triggerOrders.js';

const LiveOrderRow = z.object({
  id: z.string(),
  strategy: z.string(),
  rule: z.string(),
  family: z.enum(['price', 'dca']),
  order_type: z.enum(['single', 'oco', 'otoco', 'time_based', 'price_conditional']),
  state: z.string(),
  expires_at: z.number().int().nullable(),
  trigger_price_usd: z.string().nullable(),
  trailing_bps: z.number().int().nullable(),
  input_amount: z.string().regex(/^\d+$/),
  remaining_input_amount: z.string().regex(/^\d+$/).nullable(),
  slippage_bps: z.number().int().nullable(),
  tp_slippage_bps: z.number().int().nullable(),
  sl_slippage_bps: z.number().int().nullable(),
});
export type LiveOrderRow = z.output<typeof LiveOrderRow>;

const PendingPlacementRow = z.object({
  id: z.string(),
  strategy: z.string(),
  rule: z.string(),
  kind: z.enum(['place-vault-order', 'place-dca-vault-order']),
  params: z.string().transform((text, ctx): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'params is not a JSON object' });
    return z.NEVER;
  }),
});
export type PendingPlacementRow = z.output<typeof PendingPlacementRow>;

const StrandedOrderRow = z.object({
  id: z.string(),
  strategy: z.string(),
  state: z.enum(['expired', 'pending_withdraw']),
  input_mint: z.string(),
  remaining: z.string(),
});
export type StrandedOrderRow = z.output<typeof StrandedOrderRow>;

/**
 * A slippage field as we last set it on order `o`: the latest confirmed PATCH of ours that set it,
 * else the placing intent's `i` params; null when neither did.
 */
const lastSet = (field: 'slippageBps' | 'tpSlippageBps' | 'slSlippageBps'): string => `coalesce(
    (SELECT json_extract(p.params, '$.${field}') FROM intents p
     WHERE p.kind = 'patch-vault-order' AND p.state = 'confirmed' AND p.strategy = o.strategy
       AND json_extract(p.params, '$.orderId') = o.id AND json_extract(p.params, '$.${field}') IS NOT NULL
     ORDER BY p.updated_at DESC, p.rowid DESC LIMIT 1),
    json_extract(i.params, '$.${field}'))`;

/**
 * Orders of ours that may still fill, one per placing intent: an OCO's two legs share one deposit
 * and one intent, so only the leg the intent recorded as its order (`intents.order_id`) is listed.
 * With each the slippage we last gave it and its legs (decide() PATCHes an order whose rule now asks
 * for other).
 */
export function liveOrderRows(db: Db): LiveOrderRow[] {
  const sql = `
  SELECT o.id, o.strategy, i.rule, o.family, o.order_type, o.state, o.expires_at, o.trigger_price_usd, o.trailing_bps,
         o.input_amount, o.remaining_input_amount,
         ${lastSet('slippageBps')} AS slippage_bps, ${lastSet('tpSlippageBps')} AS tp_slippage_bps, ${lastSet('slSlippageBps')} AS sl_slippage_bps
  FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
  WHERE o.adopted = 0 AND o.strategy IS NOT NULL AND i.rule IS NOT NULL
    AND o.state IN (${LIVE_ORDER_SQL})
  ORDER BY o.created_at, o.id`;
  return parseRows(LiveOrderRow, statement(db, sql).all(), 'live vault orders');
}

/** Placements journaled and not finished (planned, signed, sent, or expired and retrying). */
export function pendingPlacementRows(db: Db): PendingPlacementRow[] {
  const sql = `
  SELECT i.id, i.strategy, i.rule, i.kind, i.params FROM intents i
  WHERE i.state IN ('planned', 'signed', 'sent', 'expired') AND i.kind IN ('place-vault-order', 'place-dca-vault-order')
    AND i.strategy IS NOT NULL AND i.rule IS NOT NULL
  ORDER BY i.created_at, i.id`;
  return parseRows(PendingPlacementRow, statement(db, sql).all(), 'pending vault placements');
}

/**
 * Price orders of ours that still hold funds in the vault with nothing bringing them back, oldest
 * expiry first (only the intent's recorded leg): expired ones, and ones being withdrawn
 * (`pending_withdraw`) that no withdrawal of ours (a cancel or a renewal) is still working on or has
 * done (every one naming the order failed or was cancelled, or there was none).
 */
export function strandedOrdersWithFunds(db: Db): readonly StrandedOrderRow[] {
  const sql = `
  SELECT o.id, o.strategy, o.state, o.input_mint, coalesce(o.remaining_input_amount, o.input_amount) AS remaining
  FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
  WHERE o.family = 'price' AND o.adopted = 0 AND o.strategy IS NOT NULL
    AND coalesce(o.remaining_input_amount, o.input_amount) <> '0'
    AND (o.state = 'expired' OR (o.state = 'pending_withdraw' AND NOT EXISTS (
      SELECT 1 FROM intents c
      WHERE c.kind IN ('cancel-vault-order', 'renew-vault-order') AND json_extract(c.params, '$.orderId') = o.id AND c.state NOT IN ('failed', 'cancelled'))))
  ORDER BY o.expires_at, o.id`;
  // Asked on every tick; the answer changes only with the journal or the mirror.
  return readSinceJournalChange(db, 'stranded vault orders', () => parseRows(StrandedOrderRow, statement(db, sql).all(), 'stranded vault orders'));
}
