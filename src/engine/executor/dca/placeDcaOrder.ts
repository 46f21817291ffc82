/**
 * `place-dca-vault-order` through Trigger V2: ensure the vault, craft a `dca` deposit of the total,
 * guard it as a `vault-deposit` of exactly the intent's mint and amount into our vault, sign; then
 * `POST /orders/dca` with the signed deposit (Jupiter lands it during that call). Jupiter's keeper
 * fills the rounds from then on; mirror/dcaOrderSync.ts records them.
 *
 * The same write-ahead discipline as price orders (vault/placeVaultOrder.ts), with the shared pieces in
 * vault/vaultDeposit.ts: the deposit's `requestId` and unsigned bytes are journaled before signing, the
 * signed bytes before the create call, and an unknown create outcome is settled by finding the order
 * whose deposit event carries our deposit's signature in DCA history (or by the chain proving the
 * deposit expired) — never by crafting a second deposit while the first may still land. Once the
 * create answered, the order is read by its id (`GET /orders/history/dca/{id}`); before that, among
 * the DCA orders of the input mint created since the intent began (jupiter/recentHistory.ts).
 */
import { Priority } from '../../../jupiter/transport.js';
import { CreateDcaOrderParams } from '../../../jupiter/schemas/trigger.js';
import { TriggerApiError } from '../../../jupiter/errors.js';
import { CLOCK_SKEW_MS } from '../../../jupiter/recentHistory.js';
import { createDcaOrder, type DcaHistoryItem, getDcaOrder } from '../../../jupiter/trigger.js';
import type { IntentRow } from '../../../store/journal.js';
import { z } from 'zod';
import { Decimals, PositiveBaseUnits, Pubkey, UsdDecimal } from '../../../jupiter/schemas/common.js';
import { dcaDepositSignatureOf, findDcaOrderByDeposit } from '../../../jupiter/triggerDeposits.js';
import type { PlaceDcaVaultOrderIntent } from '../../../strategies/intents.js';
import type { PlanInput } from '../../../store/journal.js';
import { dcaOrderColumns } from '../../mirror/orderColumns.js';
import { IntentRefusedError } from '../errors.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { paramsRefused } from '../submitOutcome.js';
import { createFromDeposit, signDeposit } from '../vault/vaultDeposit.js';
import type { VaultHandlerOptions } from '../vault/vaultHandlerOptions.js';

export const DCA_PLACE_KIND = 'place-dca-vault-order';

const DcaPlaceParams = z
  .strictObject({
    orderType: z.enum(['time_based', 'price_conditional']),
    inputMint: Pubkey,
    inputDecimals: Decimals,
    outputMint: Pubkey,
    /** The total over all rounds; each round gets inputAmount / orderCount. */
    inputAmount: PositiveBaseUnits.transform(BigInt),
    orderCount: z.number().int().min(2),
    intervalSeconds: z.number().int().min(60).max(31_536_000),
    minPriceUsd: UsdDecimal.optional(),
    maxPriceUsd: UsdDecimal.optional(),
    triggerMint: Pubkey.optional(),
    strategyHash: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.orderType === 'price_conditional' && (p.triggerMint === undefined || (p.minPriceUsd === undefined && p.maxPriceUsd === undefined))) {
      ctx.addIssue({ code: 'custom', path: ['orderType'], message: 'a price_conditional order needs triggerMint and minPriceUsd or maxPriceUsd' });
    }
    if (p.orderType === 'time_based' && (p.minPriceUsd !== undefined || p.maxPriceUsd !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['orderType'], message: 'a time_based order takes no price bounds' });
    }
  });
export type DcaPlaceParams = z.output<typeof DcaPlaceParams>;

/** The journal entry for a decided DCA order. */
export function dcaPlacePlan(intent: PlaceDcaVaultOrderIntent): PlanInput {
  return journalEntry(intent, DCA_PLACE_KIND, {
    orderType: intent.orderType,
    inputMint: intent.inputMint,
    inputDecimals: intent.inputDecimals,
    outputMint: intent.outputMint,
    inputAmount: intent.inputAmount.toString(),
    orderCount: intent.orderCount,
    intervalSeconds: intent.intervalSeconds,
    ...(intent.minPriceUsd === undefined ? {} : { minPriceUsd: intent.minPriceUsd }),
    ...(intent.maxPriceUsd === undefined ? {} : { maxPriceUsd: intent.maxPriceUsd }),
    ...(intent.triggerMint === undefined ? {} : { triggerMint: intent.triggerMint }),
  });
}

export const parseDcaPlaceParams = (params: unknown): DcaPlaceParams => parseJournalParams(DcaPlaceParams, DCA_PLACE_KIND, params);

export function createDcaPlaceHandler(options: VaultHandlerOptions): IntentHandler {
  const { authed, signer, journal, clock } = options;

  /** Mirrors the order, records its id, writes `order.placed` the first time; the summary for the journal. */
  async function adopt(row: IntentRow, params: DcaPlaceParams, item: DcaHistoryItem): Promise<Record<string, unknown>> {
    const outputDecimals = await options.decimalsOf(params.outputMint);
    const created = options.orders.upsert(
      dcaOrderColumns(item),
      { intentId: row.id, strategy: row.strategy, inputDecimals: params.inputDecimals, outputDecimals, depositSignature: row.signature },
      clock.now(),
    );
    if (journal.require(row.id).orderId !== item.id) journal.recordTriggerIds(row.id, { orderId: item.id }, 'order.id', { source: 'history' });
    const summary = {
      orderId: item.id,
      family: 'dca',
      orderType: item.orderType,
      depositSignature: row.signature,
      state: item.state,
      rounds: item.numberOfRounds ?? null,
    };
    if (created) journal.note(row.id, 'order.placed', { ...summary, params: row.params });
    return summary;
  }

  /** The order our deposit funded, mirrored; undefined when history does not show it. */
  async function lookUp(row: SignedRow, params: DcaPlaceParams): Promise<Record<string, unknown> | undefined> {
    const item = await findOwnOrder(row, params);
    return item === undefined ? undefined : adopt(row, params, item);
  }

  /**
   * By id once the create answered (one call); else among the DCA orders of the input mint created
   * since the intent was planned. Either way only an item whose deposit event is ours counts.
   */
  async function findOwnOrder(row: SignedRow, params: DcaPlaceParams): Promise<DcaHistoryItem | undefined> {
    const orderId = journal.require(row.id).orderId;
    if (orderId === null) return await findDcaOrderByDeposit(authed, row.signature, { mint: params.inputMint, since: row.createdAt - CLOCK_SKEW_MS });
    let item: DcaHistoryItem;
    try {
      item = await getDcaOrder(authed, { id: orderId });
    } catch (error) {
      // Created but not listed yet: not in history, as a history read would say.
      if (error instanceof TriggerApiError && error.code === 'TRIGGER_NOT_FOUND') return undefined;
      throw error;
    }
    return dcaDepositSignatureOf(item) === row.signature ? item : undefined;
  }

  return {
    kind: DCA_PLACE_KIND,

    async prepare(row, context) {
      const params = parseDcaPlaceParams(row.params);
      // Checked before anything is crafted or signed: a body Jupiter's schema refuses is never worth a deposit.
      const check = CreateDcaOrderParams.safeParse(createBody(params, signer.address, 'unsent', 'unsent'));
      if (!check.success)
        throw new IntentRefusedError(
          'PARAMS_INVALID',
          `the DCA order does not validate: ${check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      return signDeposit(
        options,
        row,
        { inputMint: params.inputMint, outputMint: params.outputMint, amount: params.inputAmount, orderType: 'dca' },
        context.signal,
      );
    },

    async submit(row, mode): Promise<SubmitResult> {
      const params = parseDcaPlaceParams(row.params);
      return createFromDeposit(journal, row, mode, {
        label: 'DCA order',
        lookUp: () => lookUp(row, params),
        create: (depositRequestId, signed) =>
          createDcaOrder(authed, createBody(params, signer.address, depositRequestId, signed), { priority: Priority.Place }),
        summary: (answer) => ({ txSignature: answer.txSignature }),
        refused: (error) => paramsRefused(error),
      });
    },

    async landed(row): Promise<LandedReport> {
      // The deposit landed, so the order exists: history must show it (until then this throws and the
      // intent stays sent for the next pass — never a second deposit).
      const found = await lookUp(row, parseDcaPlaceParams(row.params));
      if (!found) throw new Error(`deposit ${row.signature} landed but no DCA order in history shows it yet`);
      return { data: { ...found, via: 'chain' }, fills: [] };
    },
  };
}

/** The create call's body (a rehearsal checks its own against the same rules). */
export function createBody(params: DcaPlaceParams, user: string, depositRequestId: string, signedTx: string): CreateDcaOrderParams {
  return {
    depositRequestId,
    depositSignedTx: signedTx,
    userPubkey: user,
    inputMint: params.inputMint,
    outputMint: params.outputMint,
    inputAmount: params.inputAmount,
    orderCount: params.orderCount,
    intervalSeconds: params.intervalSeconds,
    orderType: params.orderType,
    ...(params.minPriceUsd === undefined ? {} : { minPriceUsd: Number(params.minPriceUsd) }),
    ...(params.maxPriceUsd === undefined ? {} : { maxPriceUsd: Number(params.maxPriceUsd) }),
    ...(params.triggerMint === undefined ? {} : { triggerMint: params.triggerMint }),
  };
}

export const placeDcaVaultOrderRoute: IntentRoute<'place-dca-vault-order'> = { kind: 'place-dca-vault-order', plan: dcaPlacePlan };

/** `place-dca-vault-order`: a DCA order (time-based or price-conditional) funded by one deposit. */
export const placeDcaOrderKind: ExecutableKind<VaultHandlerOptions> = {
  kind: DCA_PLACE_KIND,
  routes: [placeDcaVaultOrderRoute],
  createHandler: createDcaPlaceHandler,
};
