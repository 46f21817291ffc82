/**
 * The Trigger orders the mirror holds and the events of their lives, for `jupbot audit orders`:
 * the `order.*` actions (placed, adopted, cancelled, expired, completed), confirmed PATCHes, renewals
 * (a cancel that planned a replacement) and fills, each keyed by the order's id.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';
import { TriggerOrderRow } from './triggerOrderRow.js';

const OrderRow = TriggerOrderRow.pick({
  id: true,
  family: true,
  order_type: true,
  state: true,
  strategy: true,
  intent_id: true,
  adopted: true,
  input_mint: true,
  input_decimals: true,
  output_mint: true,
  output_decimals: true,
  input_amount: true,
  remaining_input_amount: true,
  output_amount: true,
  trigger_price_usd: true,
  expires_at: true,
  created_at: true,
  updated_at: true,
});
export type OrderRecord = z.output<typeof OrderRow>;

const EventRow = z.object({
  order_id: z.string(),
  at: z.number().int(),
  event: z.string(),
  detail: z
    .union([z.string(), z.number()])
    .nullable()
    .transform((v) => (v === null ? null : String(v))),
});
export type OrderEventRecord = z.output<typeof EventRow>;

/** Every mirrored order, oldest first; `strategy` narrows to one strategy's. */
export function listOrders(db: Db, strategy?: string): OrderRecord[] {
  const sql = `SELECT id, family, order_type, state, strategy, intent_id, adopted, input_mint, input_decimals, output_mint, output_decimals,
                      input_amount, remaining_input_amount, output_amount, trigger_price_usd, expires_at, created_at, updated_at
               FROM trigger_orders ${strategy === undefined ? '' : 'WHERE strategy = ?'} ORDER BY created_at, id`;
  return parseRows(OrderRow, db.prepare(sql).all(...(strategy === undefined ? [] : [strategy])), 'orders');
}

/**
 * Every recorded event of every order, oldest first. `detail` is what the event says beyond its name.
 * Events of one instant are in the order they happen to an order — placed or adopted, patched, filled,
 * its end, then its renewal (the withdrawal that planned a replacement, confirmed) — not in the order they were recorded: a sync pass records an order's end
 * before the fills it read with it, and a backtest's clock puts a DCA's first round in the instant
 * the order was placed and its last in the instant it completed.
 */
export function listOrderEvents(db: Db): OrderEventRecord[] {
  const sql = `
    SELECT json_extract(data, '$.orderId') AS order_id, at, substr(kind, 7) AS event, json_extract(data, '$.via') AS detail,
           CASE kind WHEN 'order.placed' THEN 0 WHEN 'order.adopted' THEN 0
                     WHEN 'order.cancelled' THEN 4 WHEN 'order.expired' THEN 4 WHEN 'order.completed' THEN 4 WHEN 'order.gone' THEN 5
                     ELSE 1 END AS step, id AS seq
      FROM actions WHERE kind LIKE 'order.%' AND kind <> 'order.id' AND json_extract(data, '$.orderId') IS NOT NULL
    UNION ALL
    SELECT json_extract(params, '$.orderId'), updated_at, 'patched',
           coalesce(json_extract(params, '$.slPriceUsd'), json_extract(params, '$.triggerPriceUsd'), json_extract(params, '$.tpPriceUsd')), 1, rowid
      FROM intents WHERE kind = 'patch-vault-order' AND state = 'confirmed'
    UNION ALL
    SELECT json_extract(params, '$.orderId'), updated_at, 'renewed', id || '#place', 5, rowid
      FROM intents WHERE kind = 'renew-vault-order' AND state = 'confirmed'
    UNION ALL
    SELECT trigger_order_id, at, 'filled', out_amount, 2, id FROM fills WHERE trigger_order_id IS NOT NULL
    ORDER BY at, order_id, step, seq`;
  return parseRows(EventRow, db.prepare(sql).all(), 'order events');
}
