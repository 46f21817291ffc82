/**
 * The rounds of a rehearsed DCA order, as Trigger V2 schedules them: the first when the order is
 * created (`beginFillAt` defaults to now, and the daemon never sets it), then one every
 * `intervalSeconds`; each round sells `inputAmount / orderCount` and the last one whatever is left
 * (the dust goes to the last round). A price-conditional order whose trigger mint is outside its
 * bounds when a round is due skips it: the round moves one interval on and still counts as to do.
 * A round that cannot be filled (no quote) is tried again until its retry window is over
 * (`retryWindowSeconds` = interval / 2, between 30 s and 2 h), then moved one interval on. Pure.
 */
import { type Fixed, parseFixed } from '../money/decimal.js';
import type { DcaSchedule } from './rehearsalOrderStore.js';

export type DcaStep =
  /** Nothing due now. */
  | { readonly kind: 'wait' }
  /** Due, but the price is out of bounds (or unknown): the round moves to `nextFillAt`. */
  | { readonly kind: 'skip'; readonly nextFillAt: number; readonly reason: string }
  /** Round `round` (from 1) is due: sell `amount`. */
  | { readonly kind: 'round'; readonly round: number; readonly amount: bigint };

/** How long a due round is tried again before it moves one interval on, as Trigger V2 states it. */
export function retryWindowMs(intervalSeconds: number): number {
  return Math.min(Math.max(Math.floor(intervalSeconds / 2), 30), 7_200) * 1000;
}

export function dcaStep(
  order: { readonly orderType: string; readonly inputAmount: bigint; readonly remaining: bigint },
  schedule: DcaSchedule,
  now: number,
  triggerPrice: Fixed | undefined,
): DcaStep {
  if (now < schedule.nextFillAt || order.remaining <= 0n) return { kind: 'wait' };
  const nextFillAt = schedule.nextFillAt + schedule.intervalSeconds * 1000;
  if (order.orderType === 'price_conditional') {
    // Without a price the bounds cannot be checked: the keeper would not fill blind, and neither do we.
    if (triggerPrice === undefined) return { kind: 'wait' };
    const min = schedule.minPriceUsd === null ? undefined : parseFixed(schedule.minPriceUsd);
    const max = schedule.maxPriceUsd === null ? undefined : parseFixed(schedule.maxPriceUsd);
    if ((min !== undefined && triggerPrice < min) || (max !== undefined && triggerPrice > max))
      return { kind: 'skip', nextFillAt, reason: 'the price is outside the bounds of the order' };
  }
  const round = schedule.roundsFilled + 1;
  const perRound = order.inputAmount / BigInt(schedule.orderCount);
  const amount = round >= schedule.orderCount || perRound > order.remaining ? order.remaining : perRound;
  return { kind: 'round', round, amount };
}

/** Whether a due round that could not be filled has used its retry window (then it moves on). */
export function roundMissed(schedule: DcaSchedule, now: number): boolean {
  return now >= schedule.nextFillAt + retryWindowMs(schedule.intervalSeconds);
}
