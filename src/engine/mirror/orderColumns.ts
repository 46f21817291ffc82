/**
 * A Trigger V2 history item as the `trigger_orders` mirror stores it: one set of columns, whatever the
 * family. Jupiter's fields are read defensively (an unknown state is `unknown`, an out-of-range number
 * is null), so a surprising answer is mirrored as far as it is understood, never refused whole.
 */
import type { DcaHistoryItem, OrderHistoryItem } from '../../jupiter/trigger.js';
import { dcaDepositSignatureOf, depositSignatureOf } from '../../jupiter/triggerDeposits.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import { decimalTextOf } from '../../money/decimal.js';
import { MIRROR_STATES, type OrderColumns } from '../../store/triggerOrders.js';

export function priceOrderColumns(item: OrderHistoryItem): OrderColumns {
  return {
    id: item.id,
    family: 'price',
    orderType: ['single', 'oco', 'otoco'].includes(item.orderType) ? item.orderType : 'single',
    state: MIRROR_STATES.has(item.orderState) ? item.orderState : 'unknown',
    rawState: item.rawState ?? null,
    inputMint: item.inputMint,
    outputMint: item.outputMint,
    inputAmount: digits(item.initialInputAmount) ?? '0',
    remaining: digits(item.remainingInputAmount),
    inputUsed: digits(item.inputUsed),
    outputAmount: digits(item.outputAmount),
    triggerMint: item.triggerMint ?? null,
    condition: item.triggerCondition === 'above' || item.triggerCondition === 'below' ? item.triggerCondition : null,
    triggerPriceUsd: decimalTextOf(item.triggerPriceUsd),
    slippageBps: typeof item.slippageBps === 'number' && item.slippageBps >= 0 && item.slippageBps <= 10_000 ? item.slippageBps : null,
    trailingBps: typeof item.trailingBps === 'number' && item.trailingBps >= 50 && item.trailingBps <= 9000 ? item.trailingBps : null,
    expiresAt: typeof item.expiresAt === 'number' && item.expiresAt >= 0 ? item.expiresAt : null,
    depositSignature: depositSignatureOf(item),
    raw: canonicalJson(item),
    createdAt: typeof item.createdAt === 'number' ? item.createdAt : null,
    updatedAt: typeof item.updatedAt === 'number' ? item.updatedAt : null,
  };
}

/** DCA items use `displayState` for the normalised state and ISO strings for times. */
export function dcaOrderColumns(item: DcaHistoryItem): OrderColumns {
  return {
    id: item.id,
    family: 'dca',
    orderType: item.orderType === 'price_conditional' ? 'price_conditional' : 'time_based',
    state: MIRROR_STATES.has(item.displayState) ? item.displayState : 'unknown',
    rawState: item.state,
    inputMint: item.inputMint,
    outputMint: item.outputMint,
    inputAmount: digits(item.inputAmountInitial) ?? '0',
    remaining: digits(item.inputAmountRemaining),
    inputUsed: digits(item.inputAmountUsed),
    outputAmount: digits(item.outputAmountTotal),
    triggerMint: item.triggerMint ?? null,
    condition: null,
    triggerPriceUsd: null,
    slippageBps: null,
    trailingBps: null,
    expiresAt: null,
    depositSignature: dcaDepositSignatureOf(item),
    raw: canonicalJson(item),
    createdAt: isoMs(item.createdAt),
    updatedAt: isoMs(item.updatedAt),
  };
}

function digits(value: string | null | undefined): string | null {
  return typeof value === 'string' && /^\d+$/.test(value) ? value : null;
}

/** Epoch ms of an ISO-8601 time (DCA history), or null. */
export function isoMs(value: string | null | undefined): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
