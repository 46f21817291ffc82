/**
 * The open vault orders as a trader reads them: one row per order, an OCO's take-profit and stop in
 * the same row although the Trigger API lists them as two legs (two `trigger_orders` rows sharing
 * the placing intent and the deposit; a rehearsal keeps one row with `tp_price_usd` and
 * `sl_price_usd`). Each trigger is shown with how far the newest kept price of the watched token is
 * from it, in percent of that price: +5% means the price must rise 5% to reach it.
 */
import type { Db } from '../store/db.js';
import { pinnedSymbols } from '../store/fillRecords.js';
import { liveTriggerRecords, type TriggerRecord } from '../store/reportRecords.js';
import { type Fixed, formatFixed, ONE, parseFixedRounded, unitsToFixed } from '../money/decimal.js';
import { indexAt, type PriceTrack } from './keptPrices.js';
import { orderKey } from './orderKey.js';
import { tokenNamer, USD_MINTS } from './tokenNames.js';

export interface OrderTrigger {
  /** Exact decimal text, as the order holds it. */
  readonly priceUsd: string;
  /** Percent the watched price must move to reach it, exact; null without a kept price. */
  readonly distancePct: string | null;
}

export interface OpenOrderRow {
  /** The order's id (an OCO's: its first leg's); `legs` lists every leg's. */
  readonly id: string;
  readonly legs: readonly string[];
  readonly strategy: string | null;
  readonly adopted: boolean;
  readonly family: 'price' | 'dca';
  readonly orderType: string;
  readonly state: string;
  readonly sells: { readonly mint: string; readonly symbol: string; readonly amount: string; readonly remaining: string | null };
  readonly receives: { readonly mint: string; readonly symbol: string };
  /** The token whose price is watched, and its newest kept price (exact) and when it was kept. */
  readonly watched: { readonly mint: string; readonly symbol: string; readonly priceUsd: string | null; readonly at: string | null } | null;
  readonly takeProfit: OrderTrigger | null;
  readonly stop: OrderTrigger | null;
  /** A buy's trigger (or an OTOCO's entry): `above` or `below` the price. */
  readonly entry: (OrderTrigger & { readonly condition: string }) | null;
  readonly trailingBps: number | null;
  readonly expiresAt: string | null;
}

/** Percent from `now` to `target`, × 100, rounded toward zero at 18 places. */
export function distancePercent(target: Fixed, now: Fixed): Fixed {
  return ((target - now) * 100n * ONE) / now;
}

export function openOrderRows(db: Db, prices: ReadonlyMap<string, PriceTrack>, asOf: number): OpenOrderRow[] {
  const name = tokenNamer(pinnedSymbols(db));
  const groups = new Map<string, TriggerRecord[]>();
  for (const row of liveTriggerRecords(db)) {
    const key = orderKey(row);
    const legs = groups.get(key);
    if (legs === undefined) groups.set(key, [row]);
    else legs.push(row);
  }
  return [...groups.values()].map((group) => {
    // The take-profit leg first: the Trigger API names an OCO by it.
    const legs = [...group].sort((a, b) => (a.trigger_condition === 'above' ? 0 : 1) - (b.trigger_condition === 'above' ? 0 : 1));
    const first = legs[0] as TriggerRecord;
    const watchedMint = legs.find((l) => l.trigger_mint !== null)?.trigger_mint ?? null;
    const now = watchedMint === null ? null : newest(prices, watchedMint, asOf);
    const trigger = (text: string | null): OrderTrigger | null => {
      if (text === null) return null;
      const target = parseFixedRounded(text);
      const distance = target === undefined || now === null || now.usd === 0n ? null : formatFixed(distancePercent(target, now.usd));
      return { priceUsd: text, distancePct: distance };
    };
    let takeProfit: OrderTrigger | null = null;
    let stop: OrderTrigger | null = null;
    let entry: OpenOrderRow['entry'] = null;
    for (const leg of legs) {
      if (leg.tp_price_usd !== null) takeProfit = trigger(leg.tp_price_usd);
      if (leg.sl_price_usd !== null) stop = trigger(leg.sl_price_usd);
      if (leg.trigger_price_usd === null) continue;
      // A leg watching what it sells is an exit: above is a take-profit, below a stop. Else it buys.
      const sells = leg.trigger_mint === null || leg.trigger_mint === leg.input_mint;
      const hasExits = leg.tp_price_usd !== null || leg.sl_price_usd !== null;
      if (sells && !hasExits && leg.trigger_condition === 'above') takeProfit = trigger(leg.trigger_price_usd);
      else if (sells && !hasExits && leg.trigger_condition === 'below') stop = trigger(leg.trigger_price_usd);
      else {
        const t = trigger(leg.trigger_price_usd);
        if (t !== null) entry = { ...t, condition: leg.trigger_condition ?? '' };
      }
    }
    const amount = (units: string | null): string | null => (units === null ? null : formatFixed(unitsToFixed(BigInt(units), first.input_decimals)));
    return {
      id: first.id,
      legs: legs.map((l) => l.id),
      strategy: first.strategy,
      adopted: first.adopted === 1,
      family: first.family,
      orderType: first.order_type,
      state: first.state,
      sells: {
        mint: first.input_mint,
        symbol: name(first.input_mint),
        amount: amount(first.input_amount) ?? '0',
        remaining: amount(first.remaining_input_amount),
      },
      receives: { mint: first.output_mint, symbol: name(first.output_mint) },
      watched:
        watchedMint === null
          ? null
          : {
              mint: watchedMint,
              symbol: name(watchedMint),
              priceUsd: now === null ? null : formatFixed(now.usd),
              at: now === null || now.at === null ? null : new Date(now.at).toISOString(),
            },
      takeProfit,
      stop,
      entry,
      trailingBps: legs.find((l) => l.trailing_bps !== null)?.trailing_bps ?? null,
      expiresAt: first.expires_at === null ? null : new Date(first.expires_at).toISOString(),
    };
  });
}

/** The newest kept price of `mint` at or before `asOf` (a dollar for USDC and USDT, at no particular instant). */
function newest(prices: ReadonlyMap<string, PriceTrack>, mint: string, asOf: number): { usd: Fixed; at: number | null } | null {
  if (USD_MINTS.has(mint)) return { usd: ONE, at: null };
  const track = prices.get(mint);
  if (track === undefined) return null;
  const i = indexAt(track, asOf);
  return i < 0 ? null : { usd: track.usd[i] as Fixed, at: track.times[i] as number };
}
