/**
 * `place-vault-order`, rehearsed: the order live mode would create is checked exactly as live mode
 * checks it before anything is crafted or sent (its expiry, the vault slippage cap on each leg, the
 * create body against the client's rules for `POST /orders/price`), and the ledger must hold the
 * deposit and its fee; then, with no deposit and no call to Trigger, it becomes one `trigger_orders`
 * row (`rehearsal-<intentId>`, `open`) holding the deposit, its id recorded on the intent and
 * `order.placed` written as a live placement records them, all in one transaction. The rehearsal's
 * keeper (rehearsalOrders.ts) fills it from then on.
 *
 * A call, not a signing: planned → sent → confirmed | failed. Asked again after a lost answer, it
 * finds the row it wrote and confirms (the id is the intent's), so `settle` may always repeat.
 */
import { IntentRefusedError } from '../engine/executor/errors.js';
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { paramsRefused } from '../engine/executor/submitOutcome.js';
import { createBody, parseVaultPlaceParams, VAULT_PLACE_KIND, type VaultPlaceParams } from '../engine/executor/vault/placeVaultOrder.js';
import { refuseOverCap, sentSlippage } from '../engine/executor/vault/vaultSlippage.js';
import { ParamsError } from '../jupiter/errors.js';
import { validateParams } from '../jupiter/http.js';
import { CreatePriceOrderParams } from '../jupiter/schemas/trigger.js';
import type { IntentRow } from '../store/journal.js';
import { unfunded } from './rehearsalFunds.js';
import { recordPlacement } from './recordPlacement.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { insertOrder, readOrder, rehearsalOrderId, slippageOf } from './rehearsalOrderStore.js';
import { REHEARSAL_REPEAT } from './rehearsalRepeat.js';

/** What a rehearsal's order is, in its `raw`: nothing of it exists at Jupiter. */
export const SIMULATED_NOTE = 'a rehearsal order: nothing was deposited or sent to Jupiter; it lives and fills in this database only';

const CREATE_ROUTE = '/trigger/v2/orders/price';

/** The journal's summary of a placed rehearsal order. */
function summaryOf(orderId: string, params: { orderType: string }): Record<string, unknown> {
  return { orderId, legs: [orderId], orderType: params.orderType, state: 'open', rehearsal: true };
}

/** The checks live mode makes before it crafts a deposit or creates the order: a refusal, or the body it would send. */
function checked(params: VaultPlaceParams, now: number, cap: number, wallet: string): Record<string, unknown> {
  if (params.expiresAt <= now) throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `expiresAt ${params.expiresAt} has passed`, { expiresAt: params.expiresAt });
  refuseOverCap(sentSlippage(params, cap), cap);
  const {
    depositRequestId: _request,
    depositSignedTx: _signed,
    userPubkey: _user,
    ...sent
  } = validateParams(CREATE_ROUTE, CreatePriceOrderParams, createBody(params, cap, wallet, 'rehearsal', 'rehearsal'));
  return sent;
}

export function createRehearsalPlaceHandler(deps: RehearsalDeps): CallHandler {
  const { db, journal, clock, guard } = deps;
  const cap = deps.maxVaultSlippageBps;

  async function place(row: IntentRow): Promise<CallResult> {
    const params = parseVaultPlaceParams(row.params);
    let sent: Record<string, unknown>;
    try {
      sent = checked(params, clock.now(), cap, guard.address);
    } catch (error) {
      if (error instanceof ParamsError) return paramsRefused(error, { expiresAt: params.expiresAt });
      throw error;
    }
    const orderId = rehearsalOrderId(row.id);
    if (readOrder(db, orderId) !== undefined) return { kind: 'confirmed', data: { ...summaryOf(orderId, params), via: 'database' } };
    const outputDecimals = await deps.decimalsOf(params.outputMint);
    const slippage = sentSlippage(params, cap);
    const single = params.orderType !== 'oco';
    return db.transaction((): CallResult => {
      const short = unfunded(db, new Map([[params.inputMint, params.inputAmount]]), `deposit of order ${orderId}`);
      if (short !== null) return short;
      const now = clock.now();
      insertOrder(
        db,
        deps.audit,
        {
          id: orderId,
          intentId: row.id,
          strategy: row.strategy,
          family: 'price',
          orderType: params.orderType,
          state: 'open',
          inputMint: params.inputMint,
          inputDecimals: params.inputDecimals,
          outputMint: params.outputMint,
          outputDecimals,
          inputAmount: params.inputAmount,
          triggerMint: params.triggerMint,
          condition: single ? (params.triggerCondition ?? null) : null,
          // A trailing order's trigger follows its watermark: set from the first price the keeper sees.
          triggerPriceUsd: single ? (params.triggerPriceUsd ?? null) : null,
          tpPriceUsd: params.tpPriceUsd ?? null,
          slPriceUsd: params.slPriceUsd ?? null,
          slippageBps: slippage.slippageBps ?? null,
          trailingBps: params.trailingBps ?? null,
          expiresAt: params.expiresAt,
          raw: {
            note: SIMULATED_NOTE,
            intentId: row.id,
            phase: 'order',
            parentId: null,
            slippage: slippageOf(slippage),
            watermarkUsd: null,
            fills: 0,
            dca: null,
            sent,
          },
        },
        now,
      );
      return recordPlacement(db, journal, row, orderId, summaryOf(orderId, params), now);
    })();
  }

  return {
    kind: VAULT_PLACE_KIND,
    call: (row) => place(row),
    settle(row) {
      const orderId = rehearsalOrderId(row.id);
      const order = readOrder(db, orderId);
      if (order === undefined) return Promise.resolve(REHEARSAL_REPEAT);
      return Promise.resolve({ kind: 'confirmed', data: { ...summaryOf(orderId, { orderType: order.orderType }), via: 'database' } });
    },
  };
}
