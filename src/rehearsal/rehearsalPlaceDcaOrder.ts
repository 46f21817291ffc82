/**
 * `place-dca-vault-order`, rehearsed: the DCA order live mode would create is checked as live mode
 * checks it (the create body against the client's rules for `POST /orders/dca`), the ledger must
 * hold its total and the deposit's fee; then it becomes one `trigger_orders` row
 * (`rehearsal-<intentId>`, `active`, as Trigger V2 shows a funded DCA order) holding the total, with
 * its schedule in `raw` (first round now, as Trigger V2's default `beginFillAt`), its id on the
 * intent and `order.placed` written, in one transaction. The rehearsal's keeper fills its rounds.
 */
import { createBody, DCA_PLACE_KIND, parseDcaPlaceParams } from '../engine/executor/dca/placeDcaOrder.js';
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { paramsRefused } from '../engine/executor/submitOutcome.js';
import { ParamsError } from '../jupiter/errors.js';
import { validateParams } from '../jupiter/http.js';
import { CreateDcaOrderParams } from '../jupiter/schemas/trigger.js';
import type { IntentRow } from '../store/journal.js';
import { unfunded } from './rehearsalFunds.js';
import { recordPlacement } from './recordPlacement.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { insertOrder, readOrder, rehearsalOrderId } from './rehearsalOrderStore.js';
import { SIMULATED_NOTE } from './rehearsalPlaceVaultOrder.js';
import { REHEARSAL_REPEAT } from './rehearsalRepeat.js';

const CREATE_ROUTE = '/trigger/v2/orders/dca';

function summaryOf(orderId: string, orderType: string, rounds: number): Record<string, unknown> {
  return { orderId, family: 'dca', orderType, state: 'active', rounds, rehearsal: true };
}

export function createRehearsalDcaPlaceHandler(deps: RehearsalDeps): CallHandler {
  const { db, journal, clock, guard } = deps;

  async function place(row: IntentRow): Promise<CallResult> {
    const params = parseDcaPlaceParams(row.params);
    let sent: Record<string, unknown>;
    try {
      const {
        depositRequestId: _request,
        depositSignedTx: _signed,
        userPubkey: _user,
        ...body
      } = validateParams(CREATE_ROUTE, CreateDcaOrderParams, createBody(params, guard.address, 'rehearsal', 'rehearsal'));
      sent = body;
    } catch (error) {
      if (error instanceof ParamsError) return paramsRefused(error);
      throw error;
    }
    const orderId = rehearsalOrderId(row.id);
    if (readOrder(db, orderId) !== undefined)
      return { kind: 'confirmed', data: { ...summaryOf(orderId, params.orderType, params.orderCount), via: 'database' } };
    const outputDecimals = await deps.decimalsOf(params.outputMint);
    return db.transaction((): CallResult => {
      const short = unfunded(db, new Map([[params.inputMint, params.inputAmount]]), `deposit of DCA order ${orderId}`);
      if (short !== null) return short;
      const now = clock.now();
      insertOrder(
        db,
        deps.audit,
        {
          id: orderId,
          intentId: row.id,
          strategy: row.strategy,
          family: 'dca',
          orderType: params.orderType,
          state: 'active',
          inputMint: params.inputMint,
          inputDecimals: params.inputDecimals,
          outputMint: params.outputMint,
          outputDecimals,
          inputAmount: params.inputAmount,
          triggerMint: params.triggerMint ?? null,
          condition: null,
          triggerPriceUsd: null,
          tpPriceUsd: null,
          slPriceUsd: null,
          slippageBps: null,
          trailingBps: null,
          expiresAt: null,
          raw: {
            note: SIMULATED_NOTE,
            intentId: row.id,
            phase: 'order',
            parentId: null,
            slippage: {},
            watermarkUsd: null,
            fills: 0,
            dca: {
              orderCount: params.orderCount,
              intervalSeconds: params.intervalSeconds,
              nextFillAt: now,
              roundsFilled: 0,
              minPriceUsd: params.minPriceUsd ?? null,
              maxPriceUsd: params.maxPriceUsd ?? null,
            },
            sent,
          },
        },
        now,
      );
      return recordPlacement(db, journal, row, orderId, summaryOf(orderId, params.orderType, params.orderCount), now);
    })();
  }

  return {
    kind: DCA_PLACE_KIND,
    call: (row) => place(row),
    settle(row) {
      const order = readOrder(db, rehearsalOrderId(row.id));
      if (order === undefined) return Promise.resolve(REHEARSAL_REPEAT);
      return Promise.resolve({ kind: 'confirmed', data: { ...summaryOf(order.id, order.orderType, order.raw.dca?.orderCount ?? 0), via: 'database' } });
    },
  };
}
