/** Trigger orders as the auditor reads them: amounts in tokens, symbols, and the events of each, oldest first. */
import { LIVE_ORDER_STATES } from '../store/triggerOrders.js';
import type { Db } from '../store/db.js';
import { pinnedSymbols } from '../store/fillRecords.js';
import { listOrderEvents, listOrders, type OrderEventRecord, type OrderRecord } from '../store/orderRecords.js';
import { formatFixed, unitsToFixed } from '../money/decimal.js';
import { tokenNamer } from './tokenNames.js';

export interface OrderView {
  readonly id: string;
  readonly family: OrderRecord['family'];
  readonly orderType: string;
  readonly strategy: string | null;
  readonly adopted: boolean;
  readonly state: string;
  readonly input: { readonly mint: string; readonly symbol: string; readonly amount: string; readonly remaining: string | null };
  readonly output: { readonly mint: string; readonly symbol: string; readonly received: string | null };
  readonly triggerPriceUsd: string | null;
  readonly expiresAt: string | null;
  readonly events: readonly { readonly at: string; readonly event: string; readonly detail: string | null }[];
}

/** The orders of the database, with their events, as the command prints them. */
export function orderViews(db: Db, strategy?: string): OrderView[] {
  const name = tokenNamer(pinnedSymbols(db));
  const events = new Map<string, OrderEventRecord[]>();
  for (const event of listOrderEvents(db)) {
    const list = events.get(event.order_id) ?? [];
    list.push(event);
    events.set(event.order_id, list);
  }
  const amount = (units: string | null, decimals: number): string | null => (units === null ? null : formatFixed(unitsToFixed(BigInt(units), decimals)));
  return listOrders(db, strategy).map((o) => ({
    id: o.id,
    family: o.family,
    orderType: o.order_type,
    strategy: o.strategy,
    adopted: o.adopted === 1,
    state: o.state,
    input: {
      mint: o.input_mint,
      symbol: name(o.input_mint),
      amount: amount(o.input_amount, o.input_decimals) ?? '0',
      remaining: amount(o.remaining_input_amount, o.input_decimals),
    },
    output: { mint: o.output_mint, symbol: name(o.output_mint), received: amount(o.output_amount, o.output_decimals) },
    triggerPriceUsd: o.trigger_price_usd,
    expiresAt: o.expires_at === null ? null : new Date(o.expires_at).toISOString(),
    events: (events.get(o.id) ?? []).map((e) => ({
      at: new Date(e.at).toISOString(),
      event: e.event,
      // A fill's detail is its output in base units: shown in tokens.
      detail: e.event === 'filled' ? amount(e.detail, o.output_decimals) : e.detail,
    })),
  }));
}

const LIVE: ReadonlySet<string> = new Set(LIVE_ORDER_STATES);

/** The orders that may still fill or hold funds, as the report and `/status` show them. */
export function openOrderViews(db: Db): OrderView[] {
  return orderViews(db).filter((o) => LIVE.has(o.state));
}
