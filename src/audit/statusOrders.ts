/**
 * The open vault orders as `/status` serves them: one order per placement (an OCO's take-profit and
 * stop in one order although the Trigger API lists two legs; an OTOCO's parent entry with its
 * children), each trigger with how far the price is from it. The orders come from the database
 * (openOrderRows.ts, read at most every few seconds); the price is the price feed's latest, applied
 * at each request, so the distance is as fresh as the price the strategies decide on.
 */
import { type Fixed, formatFixed, parseFixedRounded } from '../money/decimal.js';
import { distancePercent, type OpenOrderRow } from './openOrderRows.js';

/** The price a trigger is measured from: dollars, and when the feed read it (null: a dollar token, always $1). */
export type PriceOf = (mint: string) => { readonly usd: Fixed; readonly at: number | null } | null;

export interface StatusTriggerJson {
  /** `entry`: an OTOCO parent's (or a buy order's) trigger; its children are the take-profit and stop. */
  readonly leg: 'take-profit' | 'stop-loss' | 'entry';
  readonly priceUsd: string;
  /** Fills when the price is `above` (at or above) or `below` (at or below) the trigger. */
  readonly condition: 'above' | 'below';
  /** Percent from the price to the trigger, signed (+: the price must rise), exact; null without a price. */
  readonly distancePct: string | null;
  /** What the price must do to reach it; `crossed`: it is there already (the order should be filling). */
  readonly move: 'rise' | 'fall' | 'crossed' | null;
}

/** One open order as the report's rows group it, its triggers measured from the price feed's price. */
export interface StatusOrderJson extends Omit<OpenOrderRow, 'watched' | 'takeProfit' | 'stop' | 'entry'> {
  /** The token whose price triggers it, with the price the distances are from. */
  readonly watched: { readonly mint: string; readonly symbol: string; readonly priceUsd: string | null; readonly at: number | null } | null;
  readonly triggers: readonly StatusTriggerJson[];
}

export function statusOrders(rows: readonly OpenOrderRow[], priceOf: PriceOf): StatusOrderJson[] {
  return rows.map((row) => {
    const price = row.watched === null ? null : priceOf(row.watched.mint);
    const trigger = (leg: StatusTriggerJson['leg'], priceUsd: string, condition: 'above' | 'below'): StatusTriggerJson => {
      const target = parseFixedRounded(priceUsd);
      if (target === undefined || price === null || price.usd === 0n) return { leg, priceUsd, condition, distancePct: null, move: null };
      const crossed = condition === 'above' ? price.usd >= target : price.usd <= target;
      return {
        leg,
        priceUsd,
        condition,
        distancePct: formatFixed(distancePercent(target, price.usd)),
        move: crossed ? 'crossed' : condition === 'above' ? 'rise' : 'fall',
      };
    };
    const triggers: StatusTriggerJson[] = [];
    if (row.entry !== null) triggers.push(trigger('entry', row.entry.priceUsd, row.entry.condition === 'above' ? 'above' : 'below'));
    if (row.takeProfit !== null) triggers.push(trigger('take-profit', row.takeProfit.priceUsd, 'above'));
    if (row.stop !== null) triggers.push(trigger('stop-loss', row.stop.priceUsd, 'below'));
    return {
      id: row.id,
      legs: row.legs,
      strategy: row.strategy,
      adopted: row.adopted,
      family: row.family,
      orderType: row.orderType,
      state: row.state,
      sells: row.sells,
      receives: row.receives,
      watched:
        row.watched === null
          ? null
          : { mint: row.watched.mint, symbol: row.watched.symbol, priceUsd: price === null ? null : formatFixed(price.usd), at: price?.at ?? null },
      triggers,
      trailingBps: row.trailingBps,
      expiresAt: row.expiresAt,
    };
  });
}
