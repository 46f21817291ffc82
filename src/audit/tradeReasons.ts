/**
 * Each trade with why it was made, in the strategy's own words: the reason its intent was planned
 * with (the `intent.planned` action) and the rule that fired it. A vault order's fill also says which
 * leg filled, the take-profit or the stop; an adopted order's fill has no intent, so no reason.
 */
import type { Db } from '../store/db.js';
import { orderLegs, plannedReasons } from '../store/reportRecords.js';
import { type Trade, tradeJson } from './trades.js';

export interface TradeWithReason {
  /** The trade exactly as `jupbot audit trades --json` gives it. */
  readonly trade: Record<string, unknown>;
  readonly reason: string | null;
  readonly rule: string | null;
  /** A vault fill's leg: `take-profit`, `stop`, or `trigger` (a buy's); null otherwise. */
  readonly leg: string | null;
}

/** The reasons and legs of `trades`, read once for all of them. */
export function tradeReasons(db: Db): (trade: Trade) => TradeWithReason {
  const reasons = plannedReasons(db);
  const legs = orderLegs(db);
  return (trade) => {
    const planned = trade.intentId === null ? undefined : reasons.get(trade.intentId);
    const order = trade.orderId === null ? undefined : legs.get(trade.orderId);
    let leg: string | null = null;
    if (order !== undefined && order.trigger_condition !== null) {
      const exit = order.trigger_mint === null || order.trigger_mint === order.input_mint;
      leg = !exit ? 'trigger' : order.trigger_condition === 'above' ? 'take-profit' : 'stop';
    }
    return { trade: tradeJson(trade), reason: planned?.reason ?? null, rule: planned?.rule ?? null, leg };
  };
}
