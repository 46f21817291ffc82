/**
 * `patch-vault-order`, rehearsed: the new prices and slippage are checked as live mode checks them
 * (the vault slippage cap, the client's rules for the PATCH body), then as Trigger V2 does (only an
 * `open` price order of that type; no trigger price on a trailing order; take-profit above
 * stop-loss; tp/sl only on an OCO or OTOCO), and written on the order's row: its trigger or tp/sl
 * prices, and its legs' slippage, which the keeper then fills by. An OTOCO's tp/sl and their
 * slippage are those of the children its fill will open. Repeating it sets the same fixed values
 * again, so `settle` repeats it, as live mode does.
 */
import { IntentRefusedError } from '../engine/executor/errors.js';
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { paramsRefused } from '../engine/executor/submitOutcome.js';
import { parseVaultPatchParams, patchBody, VAULT_PATCH_KIND, type VaultPatchParams } from '../engine/executor/vault/patchVaultOrder.js';
import { refuseOverCap } from '../engine/executor/vault/vaultSlippage.js';
import { ParamsError } from '../jupiter/errors.js';
import { validateParams } from '../jupiter/http.js';
import { UpdatePriceOrderBody } from '../jupiter/schemas/trigger.js';
import { parseFixed } from '../money/decimal.js';
import type { IntentRow } from '../store/journal.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { type OrderChange, readOrder, type RehearsalOrder, slippageOf, writeOrder } from './rehearsalOrderStore.js';
import { REHEARSAL_REPEAT } from './rehearsalRepeat.js';

const PATCH_ROUTE = '/trigger/v2/orders/price/{orderId}';

/** A refusal as Trigger V2 answers it (a 400 names the rule); final for this intent. */
function refused(code: 'TRIGGER_BAD_REQUEST' | 'TRIGGER_NOT_FOUND' | 'VAULT_ORDER_NOT_OPEN', message: string, data: object): CallResult {
  return { kind: 'failed', code, message, data: { ...data, rehearsal: true } };
}

/** What the PATCH changes on `order`, or Trigger V2's refusal. */
function changeOf(order: RehearsalOrder, params: VaultPatchParams): OrderChange | CallResult {
  const { orderId } = params;
  if (order.state !== 'open')
    return refused('VAULT_ORDER_NOT_OPEN', `order ${orderId} is ${order.state}: only open orders can be updated`, { orderId, orderState: order.state });
  if (order.orderType !== params.orderType)
    return refused('TRIGGER_BAD_REQUEST', `order ${orderId} is ${order.orderType}, the PATCH says ${params.orderType}`, { orderId });
  if (params.triggerPriceUsd !== undefined && order.orderType === 'oco')
    return refused('TRIGGER_BAD_REQUEST', 'triggerPriceUsd is not used by an oco order', { orderId });
  if (params.triggerPriceUsd !== undefined && order.trailingBps !== null)
    return refused('TRIGGER_BAD_REQUEST', 'Cannot set trigger price on trailing stop loss order', { orderId });
  const pair = params.tpPriceUsd !== undefined || params.slPriceUsd !== undefined;
  if (pair && order.orderType === 'single') return refused('TRIGGER_BAD_REQUEST', 'tpPriceUsd and slPriceUsd apply to oco and otoco orders only', { orderId });
  const tp = params.tpPriceUsd ?? order.tpPriceUsd;
  const sl = params.slPriceUsd ?? order.slPriceUsd;
  if (pair && tp !== null && sl !== null && !((parseFixed(tp) ?? 0n) > (parseFixed(sl) ?? 0n)))
    return refused('TRIGGER_BAD_REQUEST', 'tpPriceUsd must be greater than slPriceUsd', { orderId, tpPriceUsd: tp, slPriceUsd: sl });
  // An OCO carries no slippage of its own: only its legs' apply, as at creation.
  const own = order.orderType === 'oco' ? undefined : params.slippageBps;
  const slippage = slippageOf({
    ...order.raw.slippage,
    ...(own === undefined ? {} : { slippageBps: own }),
    ...(params.tpSlippageBps === undefined || order.orderType === 'single' ? {} : { tpSlippageBps: params.tpSlippageBps }),
    ...(params.slSlippageBps === undefined || order.orderType === 'single' ? {} : { slSlippageBps: params.slSlippageBps }),
  });
  return {
    ...(params.triggerPriceUsd === undefined ? {} : { triggerPriceUsd: params.triggerPriceUsd }),
    ...(params.tpPriceUsd === undefined ? {} : { tpPriceUsd: params.tpPriceUsd }),
    ...(params.slPriceUsd === undefined ? {} : { slPriceUsd: params.slPriceUsd }),
    ...(own === undefined ? {} : { slippageBps: own }),
    raw: { slippage },
  };
}

export function createRehearsalPatchHandler(deps: RehearsalDeps): CallHandler {
  const { db, clock } = deps;

  function patch(row: IntentRow): CallResult {
    const params = parseVaultPatchParams(row.params);
    try {
      refuseOverCap({ slippageBps: params.slippageBps, tpSlippageBps: params.tpSlippageBps, slSlippageBps: params.slSlippageBps }, deps.maxVaultSlippageBps);
      const { orderId: _id, ...body } = patchBody(params);
      validateParams(PATCH_ROUTE, UpdatePriceOrderBody, body);
    } catch (error) {
      if (error instanceof ParamsError) return paramsRefused(error);
      if (error instanceof IntentRefusedError) return { kind: 'failed', code: error.code, message: error.message, data: error.details ?? {} };
      throw error;
    }
    const order = readOrder(db, params.orderId);
    if (order === undefined || order.family !== 'price')
      return refused('TRIGGER_NOT_FOUND', `this rehearsal holds no price order ${params.orderId}`, { orderId: params.orderId });
    const change = changeOf(order, params);
    if ('kind' in change) return change;
    // Read and written without a pause: nothing else can write the row in between.
    if (!writeOrder(db, deps.audit, order, change, clock.now())) throw new Error(`order ${order.id} changed while it was being patched`);
    const { strategyHash: _hash, ...changes } = params;
    return { kind: 'confirmed', data: { ...changes, via: 'patch', rehearsal: true } };
  }

  return {
    kind: VAULT_PATCH_KIND,
    call: (row) => Promise.resolve().then(() => patch(row)),
    settle: () => Promise.resolve(REHEARSAL_REPEAT),
  };
}
