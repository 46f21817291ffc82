/**
 * When a rehearsed price order fires, and at what output it may fill, as Trigger V2 documents its
 * keeper: the USD price of the trigger mint is watched; a single order (and an OTOCO's parent) fires
 * when it reaches its trigger in its direction (`above`: at or over; `below`: at or under); an OCO
 * (and an OTOCO's children) when it reaches the take-profit (at or over) or the stop-loss (at or
 * under), whichever comes first; a trailing order's trigger follows the watermark Jupiter keeps
 * (`below`: the highest price seen × (1 − bps), `above`: the lowest × (1 + bps)). Pure.
 *
 * The fill is a market swap, and the slippage an order carries is the most it may lose against its
 * trigger: the output must be at least what the input is worth at the trigger price, less the leg's
 * slippage. Jupiter tells stop-loss users to keep slippage high or accept missed fills in fast
 * markets; measured against the trigger (rather than against the price when the keeper acts), a
 * price that gapped through the trigger by more than the slippage does not fill. That is the
 * stricter reading, chosen because the documentation does not settle it: a rehearsal must not show
 * fills live mode might not get.
 */
import { type Fixed, fromBps, mulFixed, ONE, parseFixed } from '../money/decimal.js';
import type { RehearsalOrder } from './rehearsalOrderStore.js';

/** The leg that fired, at which trigger price, carrying which slippage. */
export interface FiredLeg {
  readonly leg: 'trigger' | 'take_profit' | 'stop_loss';
  readonly triggerUsd: Fixed;
  readonly slippageBps: number;
}

const fixedOf = (text: string | null): Fixed | null => (text === null ? null : (parseFixed(text) ?? null));

/** A leg without slippage of its own is held to none: never kinder than the order says. */
const bpsOr = (bps: number | undefined): number => bps ?? 0;

/** Whether the row watches a take-profit / stop-loss pair (an OCO, or an OTOCO's children). */
export function watchesPair(order: Pick<RehearsalOrder, 'orderType' | 'raw'>): boolean {
  return order.orderType === 'oco' || order.raw.phase === 'children';
}

/**
 * A trailing order's watermark and trigger after seeing `price`, or null when the order does not
 * trail (or has no direction). The watermark starts at the first price seen.
 */
export function trailingAt(
  order: Pick<RehearsalOrder, 'trailingBps' | 'condition' | 'raw'>,
  price: Fixed,
): { readonly watermarkUsd: Fixed; readonly triggerUsd: Fixed } | null {
  if (order.trailingBps === null || order.condition === null) return null;
  const seen = fixedOf(order.raw.watermarkUsd);
  const distance = fromBps(order.trailingBps);
  if (order.condition === 'below') {
    const watermarkUsd = seen === null || price > seen ? price : seen;
    return { watermarkUsd, triggerUsd: mulFixed(watermarkUsd, ONE - distance) };
  }
  const watermarkUsd = seen === null || price < seen ? price : seen;
  return { watermarkUsd, triggerUsd: mulFixed(watermarkUsd, ONE + distance) };
}

/** The leg `price` fires, or null. A trailing order's trigger is the one {@link trailingAt} gives. */
export function firedLeg(
  order: Pick<RehearsalOrder, 'orderType' | 'raw' | 'condition' | 'triggerPriceUsd' | 'tpPriceUsd' | 'slPriceUsd'>,
  price: Fixed,
): FiredLeg | null {
  const { slippage } = order.raw;
  if (watchesPair(order)) {
    const tp = fixedOf(order.tpPriceUsd);
    const sl = fixedOf(order.slPriceUsd);
    if (tp !== null && price >= tp) return { leg: 'take_profit', triggerUsd: tp, slippageBps: bpsOr(slippage.tpSlippageBps) };
    if (sl !== null && price <= sl) return { leg: 'stop_loss', triggerUsd: sl, slippageBps: bpsOr(slippage.slSlippageBps) };
    return null;
  }
  const trigger = fixedOf(order.triggerPriceUsd);
  if (trigger === null || order.condition === null) return null;
  const crossed = order.condition === 'above' ? price >= trigger : price <= trigger;
  return crossed ? { leg: 'trigger', triggerUsd: trigger, slippageBps: bpsOr(slippage.slippageBps) } : null;
}

/**
 * The least output (base units, rounded up) a fill of `amount` may give: the input valued at the
 * trigger price for the trigger mint and at the feed's price for the other, less the slippage.
 * Undefined when a price it needs is unknown (then nothing fills: it cannot be judged).
 */
export function minimumOut(
  order: Pick<RehearsalOrder, 'inputMint' | 'inputDecimals' | 'outputMint' | 'outputDecimals' | 'triggerMint'>,
  fired: FiredLeg,
  amount: bigint,
  priceOf: (mint: string) => Fixed | undefined,
): bigint | undefined {
  const inUsd = order.triggerMint === order.inputMint ? fired.triggerUsd : priceOf(order.inputMint);
  const outUsd = order.triggerMint === order.outputMint ? fired.triggerUsd : priceOf(order.outputMint);
  if (inUsd === undefined || outUsd === undefined || outUsd <= 0n) return undefined;
  const keep = BigInt(10_000 - Math.min(Math.max(fired.slippageBps, 0), 10_000));
  const numerator = amount * inUsd * 10n ** BigInt(order.outputDecimals) * keep;
  const denominator = outUsd * 10n ** BigInt(order.inputDecimals) * 10_000n;
  return (numerator + denominator - 1n) / denominator;
}
