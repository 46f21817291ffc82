/**
 * The `trigger_orders` mirror: what Trigger V2 last said about the price orders this daemon placed.
 * Written from the create answer and from history items; a history item is the truth, so a re-read
 * overwrites the state. Adopting orders we did not place is later work: `upsert` is only called for
 * orders tied to one of our intents.
 */
import type { OrderHistoryItem } from '../jupiter/trigger.js';
import { canonicalJson } from './canonicalJson.js';
import type { Db } from './db.js';

const STATES = new Set(['pending', 'open', 'executing', 'filled', 'pending_withdraw', 'cancelled', 'expired', 'failed']);

export interface MirroredOrder {
  readonly id: string;
  readonly intentId: string | null;
  readonly strategy: string | null;
  readonly orderType: string;
  readonly state: string;
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly outputDecimals: number;
  readonly depositSignature: string | null;
}

export interface MirrorInput {
  readonly intentId: string;
  readonly strategy: string | null;
  readonly inputDecimals: number;
  readonly outputDecimals: number;
  /** Known from our own create call even when the item does not carry it (an OCO's stop-loss leg). */
  readonly depositSignature: string | null;
}

/** A USD price as the schema's digits-and-dot text (no exponent). */
function usd(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(12).replace(/\.?0+$/, '') : text;
}

export class TriggerOrders {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  get(id: string): MirroredOrder | undefined {
    const row = this.#db
      .prepare(
        `SELECT id, intent_id AS intentId, strategy, order_type AS orderType, state, input_mint AS inputMint, input_decimals AS inputDecimals,
                output_mint AS outputMint, output_decimals AS outputDecimals, deposit_signature AS depositSignature
         FROM trigger_orders WHERE id = ?`,
      )
      .get(id) as MirroredOrder | undefined;
    return row;
  }

  /** Orders of ours that may still change (not filled, cancelled, expired or failed). */
  live(): MirroredOrder[] {
    return this.#db
      .prepare(
        `SELECT id, intent_id AS intentId, strategy, order_type AS orderType, state, input_mint AS inputMint, input_decimals AS inputDecimals,
                output_mint AS outputMint, output_decimals AS outputDecimals, deposit_signature AS depositSignature
         FROM trigger_orders WHERE state IN ('pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown') AND adopted = 0 ORDER BY created_at, id`,
      )
      .all() as MirroredOrder[];
  }

  /** Sets the state we learned from our own call (a confirmed cancel), before history shows it. */
  setState(id: string, state: 'cancelled', now: number): void {
    this.#db.prepare('UPDATE trigger_orders SET state = ?, updated_at = ?, last_synced_at = ? WHERE id = ?').run(state, now, now, id);
  }

  /** Inserts or refreshes the mirror of one history item; returns whether it was new. */
  upsert(item: OrderHistoryItem, input: MirrorInput, now: number): boolean {
    const existed = this.get(item.id) !== undefined;
    const state = STATES.has(item.orderState) ? item.orderState : 'unknown';
    const orderType = ['single', 'oco', 'otoco'].includes(item.orderType) ? item.orderType : 'single';
    const condition = item.triggerCondition === 'above' || item.triggerCondition === 'below' ? item.triggerCondition : null;
    this.#db
      .prepare(
        `INSERT INTO trigger_orders (id, intent_id, strategy, adopted, family, order_type, state, raw_state, input_mint, input_decimals, output_mint,
                                     output_decimals, input_amount, remaining_input_amount, input_used, output_amount, trigger_mint, trigger_condition,
                                     trigger_price_usd, slippage_bps, trailing_bps, expires_at, deposit_signature, raw, created_at, updated_at,
                                     first_seen_at, last_synced_at)
         VALUES (?, ?, ?, 0, 'price', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, raw_state = excluded.raw_state,
           remaining_input_amount = excluded.remaining_input_amount, input_used = excluded.input_used, output_amount = excluded.output_amount,
           trigger_price_usd = excluded.trigger_price_usd, raw = excluded.raw, updated_at = excluded.updated_at, last_synced_at = excluded.last_synced_at`,
      )
      .run(
        item.id,
        input.intentId,
        input.strategy,
        orderType,
        state,
        item.rawState ?? null,
        item.inputMint,
        input.inputDecimals,
        item.outputMint,
        input.outputDecimals,
        item.initialInputAmount ?? '0',
        item.remainingInputAmount ?? null,
        digits(item.inputUsed),
        digits(item.outputAmount),
        item.triggerMint ?? null,
        condition,
        usd(item.triggerPriceUsd),
        typeof item.slippageBps === 'number' && item.slippageBps >= 0 && item.slippageBps <= 10_000 ? item.slippageBps : null,
        typeof item.trailingBps === 'number' && item.trailingBps >= 50 && item.trailingBps <= 9000 ? item.trailingBps : null,
        typeof item.expiresAt === 'number' && item.expiresAt >= 0 ? item.expiresAt : null,
        depositSignatureOf(item) ?? input.depositSignature,
        canonicalJson(item),
        item.createdAt ?? now,
        item.updatedAt ?? now,
        now,
        now,
      );
    return !existed;
  }
}

function digits(value: string | null | undefined): string | null {
  return typeof value === 'string' && /^\d+$/.test(value) ? value : null;
}

/** The signature of the deposit event a history item carries (the order's link to our signed bytes). */
export function depositSignatureOf(item: OrderHistoryItem): string | null {
  return item.events?.find((e) => e.type === 'deposit' && typeof e.txSignature === 'string')?.txSignature ?? null;
}
