/**
 * `place-vault-order` through Trigger V2: ensure the vault, craft the deposit, guard it as a
 * `vault-deposit` of exactly the intent's mint and amount into our vault, sign; then
 * `POST /orders/price` with the signed deposit (Jupiter lands it during that call).
 *
 * The executor's write-ahead discipline applies unchanged: the deposit's `requestId` and unsigned
 * bytes are journaled before signing, the signed bytes before the create call. The deposit's
 * signature is the link to the order: an unknown create outcome is settled by finding the order whose
 * deposit event carries that signature in history, or by the chain proving the deposit expired —
 * never by crafting a second deposit while the first may still land. History is read only as far as
 * it must be: the orders of the input mint created since the intent began (jupiter/recentHistory.ts),
 * a page or two whatever the wallet's past.
 *
 * Every create call carries the order's slippage and, for an OCO or OTOCO, each leg's
 * (`tpSlippageBps`, `slSlippageBps`): Trigger V2 gives a leg sent without one its own default, up to
 * 2000 bps for a stop-loss. None may exceed the vault slippage cap (refused before signing).
 */
import { z } from 'zod';
import { Bps, Decimals, PositiveBaseUnits, Pubkey, UsdDecimal } from '../../../jupiter/schemas/common.js';
import { Priority } from '../../../jupiter/transport.js';
import { createPriceOrder, type CreatePriceOrderParams, type OrderHistoryItem } from '../../../jupiter/trigger.js';
import type { IntentRow, PlanInput, SignedRecord } from '../../../store/journal.js';
import { CLOCK_SKEW_MS } from '../../../jupiter/recentHistory.js';
import { findOrderByDeposit } from '../../../jupiter/triggerDeposits.js';
import type { PlaceVaultOrderIntent } from '../../../strategies/intents.js';
import { priceOrderColumns } from '../../mirror/orderColumns.js';
import { IntentRefusedError } from '../errors.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { paramsRefused } from '../submitOutcome.js';
import { createFromDeposit, signDeposit } from './vaultDeposit.js';
import type { VaultHandlerOptions } from './vaultHandlerOptions.js';
import { refuseOverCap, sentSlippage, type VaultSlippageCap } from './vaultSlippage.js';

export const VAULT_PLACE_KIND = 'place-vault-order';

/**
 * The order as the journal stores it (`intents.params`, canonical JSON, amounts as base-unit strings):
 * a restarted daemon resumes from the row alone, so everything needed to place the order is here.
 */
const VaultPlaceParams = z.strictObject({
  orderType: z.enum(['single', 'oco', 'otoco']),
  inputMint: Pubkey,
  inputDecimals: Decimals,
  outputMint: Pubkey,
  inputAmount: PositiveBaseUnits.transform(BigInt),
  triggerMint: Pubkey,
  triggerCondition: z.enum(['above', 'below']).optional(),
  triggerPriceUsd: UsdDecimal.optional(),
  trailingBps: z.number().int().optional(),
  tpPriceUsd: UsdDecimal.optional(),
  slPriceUsd: UsdDecimal.optional(),
  slippageBps: Bps.optional(),
  tpSlippageBps: Bps.optional(),
  slSlippageBps: Bps.optional(),
  expiresAt: z.number().int().positive(),
  strategyHash: z.string().optional(),
});
export type VaultPlaceParams = z.output<typeof VaultPlaceParams>;

export const parseVaultPlaceParams = (params: unknown): VaultPlaceParams => parseJournalParams(VaultPlaceParams, VAULT_PLACE_KIND, params);

/** The journal entry for a decided vault order. */
export function vaultPlacePlan(intent: PlaceVaultOrderIntent): PlanInput {
  const o = intent.order;
  return journalEntry(intent, VAULT_PLACE_KIND, {
    orderType: o.orderType,
    inputMint: o.inputMint,
    inputDecimals: o.inputDecimals,
    outputMint: o.outputMint,
    inputAmount: o.inputAmount.toString(),
    triggerMint: o.triggerMint,
    ...(o.triggerCondition === undefined ? {} : { triggerCondition: o.triggerCondition }),
    ...(o.triggerPriceUsd === undefined ? {} : { triggerPriceUsd: o.triggerPriceUsd }),
    ...(o.trailingBps === undefined ? {} : { trailingBps: o.trailingBps }),
    ...(o.tpPriceUsd === undefined ? {} : { tpPriceUsd: o.tpPriceUsd }),
    ...(o.slPriceUsd === undefined ? {} : { slPriceUsd: o.slPriceUsd }),
    ...(o.slippageBps === undefined ? {} : { slippageBps: o.slippageBps }),
    ...(o.tpSlippageBps === undefined ? {} : { tpSlippageBps: o.tpSlippageBps }),
    ...(o.slSlippageBps === undefined ? {} : { slSlippageBps: o.slSlippageBps }),
    expiresAt: o.expiresAt,
  });
}

export function createVaultPlaceHandler(options: VaultHandlerOptions & VaultSlippageCap): IntentHandler {
  const { authed, signer, journal, clock } = options;

  /** Mirrors the order's legs, records its id, writes `order.placed` the first time; the summary for the journal. */
  async function adopt(row: IntentRow, params: VaultPlaceParams, legs: readonly OrderHistoryItem[]): Promise<Record<string, unknown>> {
    const [main] = legs;
    if (!main) throw new Error('no order to record');
    const outputDecimals = await options.decimalsOf(params.outputMint);
    let isNew = false;
    for (const [i, leg] of legs.entries()) {
      const created = options.orders.upsert(
        priceOrderColumns(leg),
        { intentId: row.id, strategy: row.strategy, inputDecimals: params.inputDecimals, outputDecimals, depositSignature: row.signature },
        clock.now(),
      );
      if (i === 0) isNew = created;
    }
    if (journal.require(row.id).orderId !== main.id) journal.recordTriggerIds(row.id, { orderId: main.id }, 'order.id', { source: 'history' });
    const summary = { orderId: main.id, legs: legs.map((l) => l.id), orderType: main.orderType, depositSignature: row.signature, state: main.orderState };
    if (isNew) journal.note(row.id, 'order.placed', { ...summary, params: row.params });
    return summary;
  }

  /**
   * The order our deposit funded, mirrored; undefined when history does not show it. It was created
   * after the intent was planned, and holds the input mint: only those orders are read.
   */
  async function lookUp(row: SignedRow, params: VaultPlaceParams): Promise<Record<string, unknown> | undefined> {
    const legs = await findOrderByDeposit(authed, row.signature, { mint: params.inputMint, since: row.createdAt - CLOCK_SKEW_MS });
    return legs.length === 0 ? undefined : adopt(row, params, legs);
  }

  return {
    kind: VAULT_PLACE_KIND,

    async prepare(row, context): Promise<SignedRecord> {
      const params = parseVaultPlaceParams(row.params);
      if (params.expiresAt <= clock.now())
        throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `expiresAt ${params.expiresAt} has passed`, { expiresAt: params.expiresAt });
      refuseOverCap(sentSlippage(params, options.maxSlippageBps), options.maxSlippageBps);
      return signDeposit(
        options,
        row,
        { inputMint: params.inputMint, outputMint: params.outputMint, amount: params.inputAmount, orderType: 'price', orderSubType: params.orderType },
        context.signal,
      );
    },

    async submit(row, mode): Promise<SubmitResult> {
      const params = parseVaultPlaceParams(row.params);
      return createFromDeposit(journal, row, mode, {
        label: 'order',
        lookUp: () => lookUp(row, params),
        create: (depositRequestId, signed) =>
          createPriceOrder(authed, createBody(params, options.maxSlippageBps, signer.address, depositRequestId, signed), { priority: Priority.Place }),
        summary: (answer) => ({
          txSignature: answer.txSignature,
          depositConfirmed: answer.depositConfirmed,
          message: answer.message ?? null,
          slippage: sentSlippage(params, options.maxSlippageBps),
        }),
        refused: (error) =>
          // An expiry that passed while the row waited is the usual cause, and has its own code.
          params.expiresAt <= clock.now()
            ? { kind: 'failed', code: 'VAULT_ORDER_EXPIRED', message: error.message, data: { expiresAt: params.expiresAt } }
            : paramsRefused(error, { expiresAt: params.expiresAt }),
      });
    },

    async landed(row): Promise<LandedReport> {
      // The deposit landed, so the order exists: history must show it (until then this throws and the
      // intent stays sent for the next pass — never a second deposit).
      const found = await lookUp(row, parseVaultPlaceParams(row.params));
      if (!found) throw new Error(`deposit ${row.signature} landed but no order in history shows it yet`);
      return { data: { ...found, via: 'chain' }, fills: [] };
    },
  };
}

/** The create call's body (a rehearsal checks its own against the same rules). */
export function createBody(params: VaultPlaceParams, cap: number, user: string, depositRequestId: string, signedTx: string): CreatePriceOrderParams {
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const optional = {
    triggerCondition: params.triggerCondition,
    triggerPriceUsd: num(params.triggerPriceUsd),
    trailingBps: params.trailingBps,
    tpPriceUsd: num(params.tpPriceUsd),
    slPriceUsd: num(params.slPriceUsd),
    ...sentSlippage(params, cap),
  };
  return {
    orderType: params.orderType,
    depositRequestId,
    depositSignedTx: signedTx,
    userPubkey: user,
    inputMint: params.inputMint,
    inputAmount: params.inputAmount,
    outputMint: params.outputMint,
    triggerMint: params.triggerMint,
    expiresAt: params.expiresAt,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

export const placeVaultOrderRoute: IntentRoute<'place-vault-order'> = { kind: 'place-vault-order', plan: vaultPlacePlan };

/** `place-vault-order`: a price order (single, OCO, OTOCO) funded by a deposit into our vault. */
export const placeVaultOrderKind: ExecutableKind<VaultHandlerOptions & VaultSlippageCap> = {
  kind: VAULT_PLACE_KIND,
  routes: [placeVaultOrderRoute],
  createHandler: createVaultPlaceHandler,
};
