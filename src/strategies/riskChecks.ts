import type { Risk } from './commonSchema.js';
import type { Fixed } from '../money/decimal.js';
import type { StrategyState } from './snapshot.js';
import { DAY_MS } from './snapshot.js';

/** Notional already used today (UTC), zero when the state's day is another one. */
export function usedToday(state: StrategyState, now: number): Fixed {
  const day = Math.floor(now / DAY_MS);
  return state.notional && state.notional.day === day ? state.notional.usedUsd : 0n;
}

/**
 * Why an order of `notionalUsd` may not be placed under the notional limits, or undefined.
 * `extra` is notional already granted earlier in the same decision.
 */
export function notionalRefusal(risk: Risk | undefined, state: StrategyState, now: number, notionalUsd: Fixed, extra: Fixed = 0n): string | undefined {
  const perOrder = risk?.max_notional_per_order_usd;
  if (perOrder && notionalUsd > perOrder.usd) {
    return `order worth $${usd(notionalUsd)} is above risk.max_notional_per_order_usd ($${perOrder.text})`;
  }
  const perDay = risk?.max_notional_per_day_usd;
  if (perDay) {
    const used = usedToday(state, now) + extra;
    if (used + notionalUsd > perDay.usd) {
      return `order worth $${usd(notionalUsd)} would bring today's total to $${usd(used + notionalUsd)}, above risk.max_notional_per_day_usd ($${perDay.text})`;
    }
  }
  return undefined;
}

/** USD to cents for messages (exact value stays in the evidence). */
export function usd(value: Fixed): string {
  const cents = value / 10n ** 16n;
  const whole = cents / 100n;
  return `${whole}.${(cents % 100n).toString().padStart(2, '0')}`;
}
