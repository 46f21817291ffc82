/**
 * Trigger V2's slippage fields on price orders (trigger-v2.yaml): `slippageBps` for a single order and
 * an OTOCO's parent, `tpSlippageBps` / `slSlippageBps` for the legs of an OCO and an OTOCO's children
 * ("OCO/OTOCO"), each a number of basis points from 0 to 10000. A leg sent without its own slippage
 * gets the service's default, as the live API does: automatic for a take-profit or a buy-below
 * (modelled as 100 bps), 2000 bps for a stop-loss or a buy-above — an OCO's `slippageBps` reaches
 * neither leg.
 */
import { isFiniteNumber } from '../validate.js';
import type { OrderContext } from './priceOrder.js';

export const AUTO_SLIPPAGE_BPS = 100;
export const STOP_SLIPPAGE_BPS = 2_000;

const SLIPPAGE_FIELDS = ['slippageBps', 'tpSlippageBps', 'slSlippageBps'] as const;

/** The 400's `details` for the slippage fields of a create or PATCH body on an order of `orderType`. */
export function slippageDetails(body: Readonly<Record<string, unknown>>, orderType: unknown): Record<string, string> {
  const details: Record<string, string> = {};
  for (const field of SLIPPAGE_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (!isFiniteNumber(value)) details[field] = 'Invalid input: expected number';
    else if (value < 0 || value > 10_000) details[field] = 'Must be between 0 and 10000';
    else if (field !== 'slippageBps' && orderType === 'single') details[field] = 'Only for oco and otoco orders';
  }
  return details;
}

/** The slippage a leg of this context gets when the request gives it none. */
export function defaultSlippage(context: OrderContext): number {
  return context === 'stop_loss' || context === 'buy_above' ? STOP_SLIPPAGE_BPS : AUTO_SLIPPAGE_BPS;
}

/** `value` when the request gave one (validated), else the default for the context. */
export function slippageOr(value: unknown, context: OrderContext): number {
  return isFiniteNumber(value) ? value : defaultSlippage(context);
}
