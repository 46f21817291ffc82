/**
 * What the HTML report reads beyond fills and P&L: the modes the daemon said it ran in, each
 * intent's own reason, the open orders with every trigger column (an OCO's legs are grouped by the
 * report), the kept prices, and the newest instant anything was recorded. Read-only queries.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRow, parseRows } from './parseRows.js';
import { BaseUnits, TriggerOrderRow } from './triggerOrderRow.js';
import { LIVE_ORDER_SQL } from './triggerOrders.js';

const ModeRow = z.object({ mode: z.string().nullable() });

/**
 * The `mode` every `daemon.started` action recorded (`paper`, `live`, `rehearsal`), oldest first,
 * each once; null for a start that did not record one.
 */
export function recordedModes(db: Db): (string | null)[] {
  const sql = `SELECT json_extract(data, '$.mode') AS mode, min(id) AS first FROM actions WHERE kind = 'daemon.started'
               GROUP BY json_extract(data, '$.mode') ORDER BY first`;
  return parseRows(ModeRow, db.prepare(sql).all(), 'recorded modes').map((row) => row.mode);
}

const ReasonRow = z.object({ intent_id: z.string(), reason: z.string().nullable(), rule: z.string().nullable() });

/** Each intent's reason, in its own words (its `intent.planned` action), and the rule that fired it. */
export function plannedReasons(db: Db): Map<string, { readonly reason: string | null; readonly rule: string | null }> {
  const sql = `SELECT a.intent_id, json_extract(a.data, '$.reason') AS reason, i.rule
               FROM actions a LEFT JOIN intents i ON i.id = a.intent_id
               WHERE a.kind = 'intent.planned' AND a.intent_id IS NOT NULL ORDER BY a.id`;
  const out = new Map<string, { reason: string | null; rule: string | null }>();
  for (const row of parseRows(ReasonRow, db.prepare(sql).all(), 'planned reasons')) out.set(row.intent_id, { reason: row.reason, rule: row.rule });
  return out;
}

const TriggerRow = TriggerOrderRow.pick({
  id: true,
  intent_id: true,
  strategy: true,
  adopted: true,
  family: true,
  order_type: true,
  state: true,
  input_mint: true,
  input_decimals: true,
  output_mint: true,
  output_decimals: true,
  input_amount: true,
  remaining_input_amount: true,
  trigger_mint: true,
  trigger_condition: true,
  trigger_price_usd: true,
  tp_price_usd: true,
  sl_price_usd: true,
  trailing_bps: true,
  expires_at: true,
  deposit_signature: true,
  created_at: true,
});
export type TriggerRecord = z.output<typeof TriggerRow>;

/** The orders that may still fill or hold funds, every trigger column included, oldest first. */
export function liveTriggerRecords(db: Db): TriggerRecord[] {
  const sql = `SELECT id, intent_id, strategy, adopted, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals,
                      input_amount, remaining_input_amount, trigger_mint, trigger_condition, trigger_price_usd, tp_price_usd, sl_price_usd,
                      trailing_bps, expires_at, deposit_signature, created_at
               FROM trigger_orders WHERE state IN (${LIVE_ORDER_SQL}) ORDER BY created_at, id`;
  return parseRows(TriggerRow, db.prepare(sql).all(), 'live trigger orders');
}

const LegRow = TriggerOrderRow.pick({ id: true, order_type: true, trigger_condition: true, input_mint: true, trigger_mint: true });

/** Every price order's trigger side, by id: which leg of an order a vault fill came from. */
export function orderLegs(db: Db): Map<string, z.output<typeof LegRow>> {
  const rows = parseRows(
    LegRow,
    db.prepare("SELECT id, order_type, trigger_condition, input_mint, trigger_mint FROM trigger_orders WHERE family = 'price'").all(),
    'order legs',
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Every kept price, by mint, each as `[at, usd]` oldest first. Read as plain arrays, one mint at a
 * time: a 90-day history of a few tokens is a few hundred thousand rows, read on every rendering of
 * the live page, and the mint's text need not be made again for each. Each value's form is checked
 * where it is parsed (parseFixedRounded refuses anything but a plain decimal).
 */
export function keptPriceRows(db: Db): Map<string, [number, string][]> {
  const mints = parseRows(z.string(), db.prepare('SELECT DISTINCT mint FROM price_samples ORDER BY mint').pluck().all(), 'kept price mints');
  const read = db.prepare('SELECT at, usd FROM price_samples WHERE mint = ? ORDER BY at').raw();
  const out = new Map<string, [number, string][]>();
  for (const mint of mints) {
    const rows = read.all(mint) as unknown[][];
    for (const row of rows) if (typeof row[0] !== 'number' || typeof row[1] !== 'string') parseRow(z.tuple([z.number(), z.string()]), row, 'kept prices');
    out.set(mint, rows as [number, string][]);
  }
  return out;
}

const NewestRow = z.object({ at: z.number().int().nullable() });

/** The newest instant the database records anything at (an action, a kept price, a fill), by the daemon's clock. */
export function newestRecordAt(db: Db): number | null {
  const sql = `SELECT max(at) AS at FROM (SELECT max(at) AS at FROM actions UNION ALL SELECT max(at) FROM price_samples UNION ALL SELECT max(at) FROM fills)`;
  return parseRow(NewestRow, db.prepare(sql).get(), 'newest record').at;
}

const VaultRow = TriggerOrderRow.pick({
  id: true,
  intent_id: true,
  deposit_signature: true,
  order_type: true,
  input_mint: true,
  input_decimals: true,
  input_amount: true,
  output_mint: true,
  expires_at: true,
  created_at: true,
}).extend({ live: z.union([z.literal(0), z.literal(1)]), ended_at: z.number().int().nullable() });
export type VaultOrderRecord = z.output<typeof VaultRow>;

/**
 * Every mirrored order with when it began holding its deposit (its creation) and, once it ended,
 * when: its ending action (`order.cancelled`, `expired`, `completed`, `gone`), else its last fill,
 * else when the mirror last read it. Oldest first.
 */
export function vaultOrderRecords(db: Db): VaultOrderRecord[] {
  const sql = `
    SELECT o.id, o.intent_id, o.deposit_signature, o.order_type, CASE WHEN o.state IN (${LIVE_ORDER_SQL}) THEN 1 ELSE 0 END AS live,
           o.input_mint, o.input_decimals, o.input_amount, o.output_mint, o.expires_at, o.created_at,
           CASE WHEN o.state IN (${LIVE_ORDER_SQL}) THEN NULL ELSE coalesce(e.at, f.at, o.last_synced_at) END AS ended_at
    FROM trigger_orders o
    LEFT JOIN (SELECT json_extract(data, '$.orderId') AS order_id, max(at) AS at FROM actions
               WHERE kind IN ('order.cancelled', 'order.expired', 'order.completed', 'order.gone') GROUP BY 1) e ON e.order_id = o.id
    LEFT JOIN (SELECT trigger_order_id, max(at) AS at FROM fills WHERE trigger_order_id IS NOT NULL GROUP BY 1) f ON f.trigger_order_id = o.id
    ORDER BY o.created_at, o.id`;
  return parseRows(VaultRow, db.prepare(sql).all(), 'vault orders');
}

const OrderFillRow = z.object({ order_id: z.string(), at: z.number().int(), in_amount: BaseUnits });

/** What each fill of a vault order took from it, oldest first. */
export function orderFillRecords(db: Db): z.output<typeof OrderFillRow>[] {
  const sql = 'SELECT trigger_order_id AS order_id, at, in_amount FROM fills WHERE trigger_order_id IS NOT NULL ORDER BY at, id';
  return parseRows(OrderFillRow, db.prepare(sql).all(), 'vault order fills');
}
