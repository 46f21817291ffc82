/**
 * The simulated vault orders of a rehearsal, kept in `trigger_orders` like the mirror of live
 * orders, so the strategies' views, `jupbot audit orders` and the ledger read them the way they read
 * live ones. One row per simulated deposit: an OCO's two legs share it (`tp_price_usd`,
 * `sl_price_usd`); an OTOCO is one row until its parent fills, then its two children share a second
 * row holding what the parent bought. What Jupiter's keeper would keep to itself (a trailing order's
 * watermark, a DCA order's schedule) is in `raw`, with the create body live mode would have sent.
 *
 * Every write after the insert goes through {@link writeOrder}: it bumps `raw.rev` and only applies
 * if the row is still as it was read. The matcher reads a row, waits for a quote, then writes; a
 * cancel or a PATCH that landed meanwhile makes its write miss instead of being overwritten.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { canonicalJson } from '../store/canonicalJson.js';
import { parseOptionalRow, parseRows } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';
import { LIVE_ORDER_SQL, type OrderFamily, sealOrderRow } from '../store/triggerOrders.js';
import type { SlippageFields } from '../engine/executor/vault/vaultSlippage.js';
import { REHEARSAL_FILL_PREFIX } from './rehearsalFillId.js';

/** The `trigger_orders` limit on ids (0001_init.sql). */
const MAX_ORDER_ID = 128;

/**
 * The id of the order a rehearsed placement simulates: derived from the intent, so asking again
 * after a lost answer finds the row instead of making a second one. Never a Trigger UUID.
 */
export function rehearsalOrderId(intentId: string): string {
  const plain = `${REHEARSAL_FILL_PREFIX}${intentId}`;
  if (plain.length <= MAX_ORDER_ID) return plain;
  return `${REHEARSAL_FILL_PREFIX}${createHash('sha256').update(intentId).digest('hex')}`;
}

const DcaSchedule = z.strictObject({
  orderCount: z.number().int().min(1),
  intervalSeconds: z.number().int().positive(),
  /** When the next round is due (epoch ms). */
  nextFillAt: z.number().int().nonnegative(),
  roundsFilled: z.number().int().nonnegative(),
  minPriceUsd: z.string().nullable(),
  maxPriceUsd: z.string().nullable(),
});
export type DcaSchedule = z.output<typeof DcaSchedule>;

export const RehearsalRaw = z.strictObject({
  rehearsal: z.literal(true),
  note: z.string(),
  intentId: z.string(),
  /** Bumped by every write: the optimistic check of {@link writeOrder}. */
  rev: z.number().int().nonnegative(),
  /** `children`: the take-profit / stop-loss pair an OTOCO parent's fill opened. */
  phase: z.enum(['order', 'children']),
  parentId: z.string().nullable(),
  /** The slippage each leg carries, as live mode sends it (sentSlippage). */
  slippage: z.strictObject({
    slippageBps: z.number().int().optional(),
    tpSlippageBps: z.number().int().optional(),
    slSlippageBps: z.number().int().optional(),
  }),
  /** A trailing order's high (below) or low (above) watermark, decimal USD; null until first seen. */
  watermarkUsd: z.string().nullable(),
  /** Fills so far: each fill's id is numbered from it. */
  fills: z.number().int().nonnegative(),
  dca: DcaSchedule.nullable(),
  /** The create body live mode would have sent, without the deposit. */
  sent: z.record(z.string(), z.unknown()),
});
export type RehearsalRaw = z.output<typeof RehearsalRaw>;

const Digits = z.string().regex(/^\d+$/).transform(BigInt);
const OrderRow = z.object({
  id: z.string(),
  intent_id: z.string(),
  strategy: z.string().nullable(),
  adopted: z.union([z.literal(0), z.literal(1)]),
  family: z.enum(['price', 'dca']),
  order_type: z.enum(['single', 'oco', 'otoco', 'time_based', 'price_conditional']),
  state: z.string(),
  input_mint: z.string(),
  input_decimals: z.number().int(),
  output_mint: z.string(),
  output_decimals: z.number().int(),
  input_amount: Digits,
  remaining_input_amount: Digits.nullable(),
  input_used: Digits.nullable(),
  output_amount: Digits.nullable(),
  trigger_mint: z.string().nullable(),
  trigger_condition: z.enum(['above', 'below']).nullable(),
  trigger_price_usd: z.string().nullable(),
  tp_price_usd: z.string().nullable(),
  sl_price_usd: z.string().nullable(),
  slippage_bps: z.number().int().nullable(),
  trailing_bps: z.number().int().nullable(),
  expires_at: z.number().int().nullable(),
  raw: z.string(),
  created_at: z.number().int(),
});

export interface RehearsalOrder {
  readonly id: string;
  readonly intentId: string;
  readonly strategy: string | null;
  readonly adopted: boolean;
  readonly family: OrderFamily;
  readonly orderType: z.output<typeof OrderRow>['order_type'];
  readonly state: string;
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly outputDecimals: number;
  readonly inputAmount: bigint;
  /** What the order still holds (the deposit until a fill used some). */
  readonly remaining: bigint;
  readonly inputUsed: bigint;
  readonly outputAmount: bigint;
  readonly triggerMint: string | null;
  readonly condition: 'above' | 'below' | null;
  readonly triggerPriceUsd: string | null;
  readonly tpPriceUsd: string | null;
  readonly slPriceUsd: string | null;
  readonly trailingBps: number | null;
  readonly expiresAt: number | null;
  readonly createdAt: number;
  readonly raw: RehearsalRaw;
  /** The stored text of `raw`: what {@link writeOrder} checks the row against. */
  readonly rawText: string;
}

const COLUMNS = `id, intent_id, strategy, adopted, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals, input_amount,
  remaining_input_amount, input_used, output_amount, trigger_mint, trigger_condition, trigger_price_usd, tp_price_usd, sl_price_usd,
  slippage_bps, trailing_bps, expires_at, raw, created_at`;

function toOrder(row: z.output<typeof OrderRow>): RehearsalOrder {
  const raw = RehearsalRaw.parse(JSON.parse(row.raw));
  return {
    id: row.id,
    intentId: row.intent_id,
    strategy: row.strategy,
    adopted: row.adopted === 1,
    family: row.family,
    orderType: row.order_type,
    state: row.state,
    inputMint: row.input_mint,
    inputDecimals: row.input_decimals,
    outputMint: row.output_mint,
    outputDecimals: row.output_decimals,
    inputAmount: row.input_amount,
    remaining: row.remaining_input_amount ?? row.input_amount,
    inputUsed: row.input_used ?? 0n,
    outputAmount: row.output_amount ?? 0n,
    triggerMint: row.trigger_mint,
    condition: row.trigger_condition,
    triggerPriceUsd: row.trigger_price_usd,
    tpPriceUsd: row.tp_price_usd,
    slPriceUsd: row.sl_price_usd,
    trailingBps: row.trailing_bps,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    raw,
    rawText: row.raw,
  };
}

/** A rehearsal's order by id; undefined when there is none (or the row is not one a rehearsal wrote). */
export function readOrder(db: Db, id: string): RehearsalOrder | undefined {
  const row = parseOptionalRow(
    OrderRow,
    statement(db, `SELECT ${COLUMNS} FROM trigger_orders WHERE id = ? AND intent_id IS NOT NULL AND json_extract(raw, '$.rehearsal') = 1`).get(id),
    'rehearsal order',
  );
  return row && toOrder(row);
}

/** The rehearsal's orders that may still fill, oldest first. */
export function liveOrders(db: Db): RehearsalOrder[] {
  const sql = `SELECT ${COLUMNS} FROM trigger_orders
    WHERE state IN (${LIVE_ORDER_SQL}) AND intent_id IS NOT NULL AND json_extract(raw, '$.rehearsal') = 1 ORDER BY created_at, id`;
  return parseRows(OrderRow, statement(db, sql).all(), 'live rehearsal orders').map(toOrder);
}

/** A new simulated order, as a placement (or an OTOCO parent's fill) writes it. */
export interface NewOrder {
  readonly id: string;
  readonly intentId: string;
  readonly strategy: string | null;
  readonly family: OrderFamily;
  readonly orderType: RehearsalOrder['orderType'];
  readonly state: 'open' | 'active';
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly outputDecimals: number;
  readonly inputAmount: bigint;
  readonly triggerMint: string | null;
  readonly condition: 'above' | 'below' | null;
  readonly triggerPriceUsd: string | null;
  readonly tpPriceUsd: string | null;
  readonly slPriceUsd: string | null;
  readonly slippageBps: number | null;
  readonly trailingBps: number | null;
  readonly expiresAt: number | null;
  readonly raw: Omit<RehearsalRaw, 'rev' | 'rehearsal'>;
}

export function insertOrder(db: Db, audit: AuditLog, order: NewOrder, now: number): void {
  const raw = canonicalJson(RehearsalRaw.parse({ ...order.raw, rehearsal: true, rev: 0 }));
  statement(
    db,
    `INSERT INTO trigger_orders (id, intent_id, strategy, adopted, family, order_type, state, raw_state, input_mint, input_decimals, output_mint,
       output_decimals, input_amount, remaining_input_amount, input_used, output_amount, trigger_mint, trigger_condition, trigger_price_usd,
       tp_price_usd, sl_price_usd, slippage_bps, trailing_bps, expires_at, deposit_signature, raw, created_at, updated_at, first_seen_at, last_synced_at)
     VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
  ).run(
    order.id,
    order.intentId,
    order.strategy,
    order.family,
    order.orderType,
    order.state,
    order.state,
    order.inputMint,
    order.inputDecimals,
    order.outputMint,
    order.outputDecimals,
    order.inputAmount.toString(),
    order.inputAmount.toString(),
    order.triggerMint,
    order.condition,
    order.triggerPriceUsd,
    order.tpPriceUsd,
    order.slPriceUsd,
    order.slippageBps,
    order.trailingBps,
    order.expiresAt,
    raw,
    now,
    now,
    now,
    now,
  );
  sealOrderRow(db, audit, order.id);
}

/** What one write changes; absent fields are left as they are. */
export interface OrderChange {
  readonly state?: string;
  readonly remaining?: bigint;
  readonly inputUsed?: bigint;
  readonly outputAmount?: bigint;
  readonly triggerPriceUsd?: string;
  readonly tpPriceUsd?: string;
  readonly slPriceUsd?: string;
  readonly slippageBps?: number;
  readonly raw?: Partial<Omit<RehearsalRaw, 'rev' | 'rehearsal'>>;
}

/**
 * Applies `change` to `before`'s row if the row is still exactly as `before` was read (its `raw`,
 * whose `rev` every write bumps). False, and nothing written, when it changed meanwhile.
 */
export function writeOrder(db: Db, audit: AuditLog, before: RehearsalOrder, change: OrderChange, now: number): boolean {
  const raw = canonicalJson(RehearsalRaw.parse({ ...before.raw, ...change.raw, rev: before.raw.rev + 1 }));
  const set: [string, string | number | null][] = [
    ['raw', raw],
    ['updated_at', now],
    ['last_synced_at', now],
  ];
  if (change.state !== undefined) set.push(['state', change.state], ['raw_state', change.state]);
  if (change.remaining !== undefined) set.push(['remaining_input_amount', change.remaining.toString()]);
  if (change.inputUsed !== undefined) set.push(['input_used', change.inputUsed.toString()]);
  if (change.outputAmount !== undefined) set.push(['output_amount', change.outputAmount.toString()]);
  if (change.triggerPriceUsd !== undefined) set.push(['trigger_price_usd', change.triggerPriceUsd]);
  if (change.tpPriceUsd !== undefined) set.push(['tp_price_usd', change.tpPriceUsd]);
  if (change.slPriceUsd !== undefined) set.push(['sl_price_usd', change.slPriceUsd]);
  if (change.slippageBps !== undefined) set.push(['slippage_bps', change.slippageBps]);
  const sql = `UPDATE trigger_orders SET ${set.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ? AND raw = ?`;
  return db.transaction(() => {
    if (statement(db, sql).run(...set.map(([, value]) => value), before.id, before.rawText).changes !== 1) return false;
    sealOrderRow(db, audit, before.id);
    return true;
  })();
}

/** The slippage of each leg as a row keeps it (the fields live mode sends). */
export function slippageOf(fields: SlippageFields): RehearsalRaw['slippage'] {
  const { slippageBps, tpSlippageBps, slSlippageBps } = fields;
  return {
    ...(slippageBps === undefined ? {} : { slippageBps }),
    ...(tpSlippageBps === undefined ? {} : { tpSlippageBps }),
    ...(slSlippageBps === undefined ? {} : { slSlippageBps }),
  };
}
