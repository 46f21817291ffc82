/**
 * `patch-vault-order`: `PATCH /trigger/v2/orders/price/{orderId}` with the intent's absolute prices
 * (a ratchet raising its stop) or slippage (the order's own, `tpSlippageBps` / `slSlippageBps` for
 * its legs: an edit of the strategy's, never above the vault slippage cap). No funds move and
 * nothing is signed, so this is a call handler: the
 * executor journals the row `sent` before the call, and a row left `sent` (a crash after that, a
 * lost answer) is settled here by reading the order from history: only the orders of its input mint
 * created since it was (jupiter/recentHistory.ts), a page or two however long the wallet's history.
 *
 * Repeating the PATCH is acceptable where re-sending a deposit would not be: it SETS the values to
 * values fixed in the row, so two identical PATCHes leave the order exactly as one does (only its
 * `updatedAt` moves), and it cannot fund, fill or withdraw anything. A refusal (4xx: the order is no
 * longer open, the price is refused) fails the intent for good; the next decision starts afresh.
 */
import type { Clock } from '../../../clock.js';
import { ApiError, ParamsError, TransportError } from '../../../jupiter/errors.js';
import { type AuthedJupiterClient, Priority } from '../../../jupiter/transport.js';
import { CLOCK_SKEW_MS, HistoryIncompleteError } from '../../../jupiter/recentHistory.js';
import { type OrderHistoryItem, updatePriceOrder, type UpdatePriceOrderParams } from '../../../jupiter/trigger.js';
import { findPriceOrder } from '../../../jupiter/triggerDeposits.js';
import type { IntentRow, Journal } from '../../../store/journal.js';
import type { TriggerOrders } from '../../../store/triggerOrders.js';
import type { CallHandler, CallResult, SettleResult } from '../handler.js';
import { z } from 'zod';
import { Bps, UsdDecimal } from '../../../jupiter/schemas/common.js';
import { IntentRefusedError } from '../errors.js';
import { refuseOverCap, type VaultSlippageCap } from './vaultSlippage.js';
import type { PatchVaultOrderIntent } from '../../../strategies/intents.js';
import type { PlanInput } from '../../../store/journal.js';
import { priceOrderColumns } from '../../mirror/orderColumns.js';
import { paramsRefused } from '../submitOutcome.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';

export const VAULT_PATCH_KIND = 'patch-vault-order';

/** What a PATCH may set. */
const CHANGES = ['triggerPriceUsd', 'tpPriceUsd', 'slPriceUsd', 'slippageBps', 'tpSlippageBps', 'slSlippageBps'] as const;

const VaultPatchParams = z
  .strictObject({
    orderId: z.string().min(1).max(128),
    orderType: z.enum(['single', 'oco', 'otoco']),
    triggerPriceUsd: UsdDecimal.optional(),
    tpPriceUsd: UsdDecimal.optional(),
    slPriceUsd: UsdDecimal.optional(),
    slippageBps: Bps.optional(),
    tpSlippageBps: Bps.optional(),
    slSlippageBps: Bps.optional(),
    strategyHash: z.string().optional(),
  })
  .refine((p) => CHANGES.some((field) => p[field] !== undefined), `nothing to change: none of ${CHANGES.join(', ')}`);
export type VaultPatchParams = z.output<typeof VaultPatchParams>;

/** The journal entry for a decided PATCH. */
export function vaultPatchPlan(intent: PatchVaultOrderIntent): PlanInput {
  return journalEntry(intent, VAULT_PATCH_KIND, {
    orderId: intent.orderId,
    orderType: intent.orderType,
    ...(intent.triggerPriceUsd === undefined ? {} : { triggerPriceUsd: intent.triggerPriceUsd }),
    ...(intent.tpPriceUsd === undefined ? {} : { tpPriceUsd: intent.tpPriceUsd }),
    ...(intent.slPriceUsd === undefined ? {} : { slPriceUsd: intent.slPriceUsd }),
    ...(intent.slippageBps === undefined ? {} : { slippageBps: intent.slippageBps }),
    ...(intent.tpSlippageBps === undefined ? {} : { tpSlippageBps: intent.tpSlippageBps }),
    ...(intent.slSlippageBps === undefined ? {} : { slSlippageBps: intent.slSlippageBps }),
  });
}

export const parseVaultPatchParams = (params: unknown): VaultPatchParams => parseJournalParams(VaultPatchParams, VAULT_PATCH_KIND, params);

export interface VaultPatchHandlerOptions extends VaultSlippageCap {
  /** The Trigger V2 client with the session's JWT. */
  readonly authed: AuthedJupiterClient;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly clock: Clock;
}

/** Statuses that say nothing about the order: the call may simply be made again later. */
const TRANSIENT_STATUS = new Set([401, 408, 429]);

export function createVaultPatchHandler(options: VaultPatchHandlerOptions): CallHandler {
  const { authed, orders, clock } = options;

  /** Refreshes the mirror from history so the next decision sees the new trigger (best effort: the orders feed also does). */
  function mirror(item: OrderHistoryItem): void {
    const mirrored = orders.get(item.id);
    if (!mirrored || mirrored.intentId === null) return;
    orders.upsert(
      priceOrderColumns(item),
      {
        intentId: mirrored.intentId,
        strategy: mirrored.strategy,
        inputDecimals: mirrored.inputDecimals,
        outputDecimals: mirrored.outputDecimals,
        depositSignature: mirrored.depositSignature,
      },
      clock.now(),
    );
  }

  /**
   * The order as history shows it now. The OpenAPI file has no single-order read: the history of its
   * input mint is read from its creation on, as the mirror knows them. An order the mirror does not
   * hold is not read at all (undefined: the PATCH itself then gives the definite answer).
   */
  async function readOrder(orderId: string, signal?: AbortSignal): Promise<OrderHistoryItem | undefined> {
    const known = orders.get(orderId);
    if (!known) return undefined;
    const [item] = await findPriceOrder(authed, orderId, { mint: known.inputMint, since: known.createdAt - CLOCK_SKEW_MS }, signal);
    return item;
  }

  /** The order's state in history, or undefined when it cannot be read now. */
  async function stateOf(orderId: string): Promise<string | undefined> {
    try {
      return (await readOrder(orderId))?.orderState;
    } catch {
      return undefined;
    }
  }

  return {
    kind: VAULT_PATCH_KIND,

    async call(row: IntentRow): Promise<CallResult> {
      const params = parseVaultPatchParams(row.params);
      try {
        refuseOverCap({ slippageBps: params.slippageBps, tpSlippageBps: params.tpSlippageBps, slSlippageBps: params.slSlippageBps }, options.maxSlippageBps);
      } catch (error) {
        if (!(error instanceof IntentRefusedError)) throw error;
        return { kind: 'failed', code: error.code, message: error.message, data: error.details ?? {} };
      }
      try {
        // No stop signal: a PATCH that started finishes, so its answer is not lost needlessly.
        await updatePriceOrder(authed, patchBody(params), { priority: Priority.Place });
      } catch (error) {
        const result = classifyCall(error);
        // An order just created is `pending` until its deposit settles: refused now, not for good.
        if (result.kind === 'failed' && result.code === 'TRIGGER_BAD_REQUEST' && (await stateOf(params.orderId)) === 'pending') {
          return { kind: 'unknown', code: 'VAULT_ORDER_NOT_YET_OPEN', message: result.message, data: result.data };
        }
        return result;
      }
      const data = { ...changes(params), via: 'patch' };
      try {
        const item = await readOrder(params.orderId);
        if (item) mirror(item);
      } catch {
        // The PATCH is done; the orders feed refreshes the mirror on its next read.
      }
      return { kind: 'confirmed', data };
    },

    async settle(row: IntentRow, context): Promise<SettleResult> {
      const params = parseVaultPatchParams(row.params);
      let item: OrderHistoryItem | undefined;
      try {
        item = await readOrder(params.orderId, context.signal);
      } catch (error) {
        // More orders of its mint since it was created than a bounded read takes: the PATCH, which
        // sets fixed values, answers instead of a history that would never reach back that far.
        if (error instanceof HistoryIncompleteError) return { kind: 'repeat', reason: error.message };
        throw error;
      }
      // Not in history: calling again gets a definite answer (404 fails it, 200 confirms it).
      if (!item) return { kind: 'repeat', reason: `order ${params.orderId} not in history` };
      if (applied(item, params)) {
        mirror(item);
        return { kind: 'confirmed', data: { ...changes(params), via: 'history', orderState: item.orderState } };
      }
      if (item.orderState !== 'open') {
        return {
          kind: 'failed',
          code: 'VAULT_ORDER_NOT_OPEN',
          message: `order ${params.orderId} is ${item.orderState}: only open orders can be updated`,
          data: { orderId: params.orderId, orderState: item.orderState, rawState: item.rawState ?? null },
        };
      }
      return { kind: 'repeat', reason: `order ${params.orderId} does not show the new prices yet` };
    },
  };
}

/** What the PATCH sets. */
function changes(params: VaultPatchParams): Record<string, unknown> {
  const { strategyHash: _hash, ...rest } = params;
  return rest;
}

/** The PATCH call's params (a rehearsal checks its own against the same rules). */
export function patchBody(params: VaultPatchParams): UpdatePriceOrderParams {
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const fields = {
    triggerPriceUsd: num(params.triggerPriceUsd),
    tpPriceUsd: num(params.tpPriceUsd),
    slPriceUsd: num(params.slPriceUsd),
    slippageBps: params.slippageBps,
    tpSlippageBps: params.tpSlippageBps,
    slSlippageBps: params.slSlippageBps,
  };
  return { orderId: params.orderId, orderType: params.orderType, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}

/**
 * Whether history shows the PATCH applied. Only a single/otoco order's own trigger price and
 * slippage can be read back (an OCO's legs and an OTOCO's children carry tp/sl elsewhere): with tp/sl
 * the answer is "not known", and the caller repeats the PATCH, which is harmless.
 */
function applied(item: OrderHistoryItem, params: VaultPatchParams): boolean {
  const legs = [params.tpPriceUsd, params.slPriceUsd, params.tpSlippageBps, params.slSlippageBps];
  if (legs.some((v) => v !== undefined) || (params.triggerPriceUsd === undefined && params.slippageBps === undefined)) return false;
  const price = params.triggerPriceUsd === undefined || (typeof item.triggerPriceUsd === 'number' && item.triggerPriceUsd === Number(params.triggerPriceUsd));
  const slippage = params.slippageBps === undefined || item.slippageBps === params.slippageBps;
  return price && slippage;
}

/** A 4xx refusal is final; a 5xx, a timeout, a reset, a 429 or an expired JWT leave the outcome to the next pass. */
function classifyCall(error: unknown): CallResult {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ParamsError) return paramsRefused(error);
  if (error instanceof ApiError) {
    if (error.outcomeUnknown || error.status >= 500 || TRANSIENT_STATUS.has(error.status))
      return { kind: 'unknown', code: error.code, message, data: { status: error.status } };
    return { kind: 'failed', code: error.code, message, data: { status: error.status } };
  }
  if (error instanceof TransportError) return { kind: 'unknown', code: error.code, message, data: {} };
  return { kind: 'unknown', code: 'CALL_ERROR', message, data: {} };
}

export const patchVaultOrderRoute: IntentRoute<'patch-vault-order'> = { kind: 'patch-vault-order', plan: vaultPatchPlan };

/** `patch-vault-order`: new absolute prices for an open price order (a ratchet raising its stop). */
export const patchVaultOrderKind: ExecutableKind<VaultPatchHandlerOptions> = {
  kind: VAULT_PATCH_KIND,
  routes: [patchVaultOrderRoute],
  createHandler: createVaultPatchHandler,
};
