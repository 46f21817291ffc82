/**
 * `sell-position` (`DELETE /prediction/v1/positions/{pubkey}`: the whole position) and `partial-sell`
 * (`POST /prediction/v1/orders`, `isBuy: false`, `contractsMicro`). Build, check the build against the
 * intent and its minimum sell price, journal the order it opens, guard the bytes as a prediction sell,
 * sign; then submit the same bytes.
 *
 * A sell transaction only opens an order: a keeper fills it afterwards (or fails it when the price
 * moved past its floor). So the intent stays `sent` until history shows the keeper's
 * answer: `order_filled` confirms it with its fill (once: keyed by signature), `order_failed` fails it
 * (`PREDICTION_ORDER_FAILED`, nothing sold, the fee paid).
 */
import { type CreateOrderResponse, sellPartial, sellPosition } from '../../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../../jupiter/transport.js';
import type { PredictionSellExpectation } from '../../../solana/expectation.js';
import type { PlanInput, SignedRecord } from '../../../store/journal.js';
import { IntentRefusedError, IntentWaitingError } from '../errors.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { type ExecutionContexts, sendSigned, signedBuild } from './predictionSend.js';
import { z } from 'zod';
import { PositiveBaseUnits, Pubkey } from '../../../jupiter/schemas/common.js';
import { positionHistory } from '../../../jupiter/predictionHistory.js';
import { sellFill } from './predictionFills.js';
import type { PartialSellIntent, SellPositionIntent } from '../../../strategies/intents.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { explainSellRefusal, isBuildRefusal } from './buildRefusal.js';
import type { PredictionHandlerOptions } from './predictionHandlerOptions.js';

export const PREDICTION_SELL_KIND = 'sell-position';
export const PREDICTION_PARTIAL_SELL_KIND = 'partial-sell';

/** Micro-units (contracts or USD) greater than zero, as the journal stores them: integer strings. */
const PositiveMicro = PositiveBaseUnits.transform(BigInt);

const SellParams = z.strictObject({
  positionPubkey: Pubkey,
  marketId: z.string().min(1),
  isYes: z.boolean(),
  /** Micro-contracts: the whole position as decided (whole sell) or the share to sell (partial). */
  contractsMicro: PositiveMicro,
  /** The lowest acceptable price per contract, micro-USD: the build's floor must not be below it. */
  minSellPriceMicroUsd: PositiveMicro.optional(),
  strategyHash: z.string().optional(),
});
export type PredictionSellParams = z.output<typeof SellParams>;

export const parsePredictionSellParams = (kind: string, params: unknown): PredictionSellParams => parseJournalParams(SellParams, kind, params);

function sellPlan(kind: string, intent: SellPositionIntent | PartialSellIntent): PlanInput {
  return journalEntry(intent, kind, {
    positionPubkey: intent.positionPubkey,
    marketId: intent.marketId,
    isYes: intent.isYes,
    contractsMicro: intent.contractsMicro.toString(),
    ...(intent.minSellPriceMicroUsd === undefined ? {} : { minSellPriceMicroUsd: intent.minSellPriceMicroUsd.toString() }),
  });
}

/** The whole-position sell handler (`sell-position`). */
export function createPredictionSellHandler(options: PredictionHandlerOptions): IntentHandler {
  return sellHandler(options, 'whole');
}

/** The partial sell handler (`partial-sell`). */
export function createPredictionPartialSellHandler(options: PredictionHandlerOptions): IntentHandler {
  return sellHandler(options, 'partial');
}

function sellHandler(options: PredictionHandlerOptions, shape: 'whole' | 'partial'): IntentHandler {
  const { client, rpc, signer, journal, clock } = options;
  const kind = shape === 'whole' ? PREDICTION_SELL_KIND : PREDICTION_PARTIAL_SELL_KIND;
  const contexts: ExecutionContexts = new Map();

  /** The keeper's answer for our order in history: a report, a refusal, or undefined while it works. */
  async function keeperAnswer(row: SignedRow, params: PredictionSellParams): Promise<LandedReport | undefined> {
    const events = await positionHistory(client, { ownerPubkey: signer.address, positionPubkey: params.positionPubkey });
    // The order opened by our bytes: by its pubkey when the build named one, else by our signature.
    const ours = events.filter((e) => (row.orderId !== null ? e.orderPubkey === row.orderId : e.signature === row.signature));
    const filled = ours.find((e) => e.eventType === 'order_filled');
    if (filled) {
      const fill = sellFill(filled, {
        positionPubkey: params.positionPubkey,
        marketId: params.marketId,
        isYes: params.isYes,
        fallbackSignature: row.signature,
        now: clock.now(),
      });
      const data = { orderPubkey: row.orderId, via: 'history', historyId: filled.id };
      return fill ? { data, fills: [fill] } : { data, fills: [], fillUnknown: 'order_filled carries no filled contracts or proceeds' };
    }
    const failed = ours.find((e) => e.eventType === 'order_failed' || e.eventType === 'order_closed');
    if (failed) {
      throw new IntentRefusedError(
        'PREDICTION_ORDER_FAILED',
        `the keeper ${failed.eventType === 'order_failed' ? 'failed' : 'closed'} sell order ${row.orderId ?? row.signature} without filling it: nothing was sold`,
        {
          orderPubkey: row.orderId,
          eventType: failed.eventType,
          historyId: failed.id,
        },
      );
    }
    return undefined;
  }

  return {
    kind,

    async prepare(row, context): Promise<SignedRecord> {
      const params = parsePredictionSellParams(kind, row.params);
      const build = await buildSell(client, signer.address, params, shape, context.signal);
      const order = checkSellBuild(params, shape, build);
      const transaction = build.transaction;
      if (transaction === null || transaction === '')
        throw new IntentRefusedError('PREDICTION_BUILD_MISMATCH', 'the sell build carries no transaction to sign');
      const summary = {
        orderPubkey: build.order.orderPubkey,
        contractsMicro: order.contractsMicro.toString(),
        minSellPriceUsd: order.minSellPriceUsd?.toString() ?? null,
        orderCostUsd: build.order.orderCostUsd?.toString() ?? null,
        estimatedTotalFeeUsd: build.order.estimatedTotalFeeUsd?.toString() ?? null,
        executionModel: build.executionModel ?? null,
      };
      // Journaled before anything is signed: the order these bytes open is how history is read later.
      journal.recordTriggerIds(row.id, { orderId: build.order.orderPubkey ?? undefined }, 'prediction.built', {
        ...summary,
        context: build.execution?.context ?? null,
      });
      const signed = await signer.signBase64(transaction, sellExpectation(params, shape, build), { strategy: row.strategy, intentId: row.id });
      if (build.execution?.context) contexts.set(signed.signature, build.execution.context);
      return signedBuild(rpc, signed, build.txMeta, summary);
    },

    async submit(row, mode): Promise<SubmitResult> {
      const params = parsePredictionSellParams(kind, row.params);
      const sent = await sendSigned(client, rpc, contexts, row, mode);
      if (sent.kind !== 'landed') return sent;
      contexts.delete(row.signature);
      // Landed: the keeper may already have answered (atomic Forecast swaps do at once).
      try {
        const report = await keeperAnswer(row, params);
        if (report) return { kind: 'confirmed', data: report.data, fills: report.fills };
      } catch (error) {
        if (error instanceof IntentRefusedError) return { kind: 'failed', code: error.code, message: error.message, data: error.details ?? {} };
        // History unreadable now: the chain and the next pass decide.
      }
      return {
        kind: 'unknown',
        code: 'PREDICTION_AWAITING_KEEPER',
        message: `landed (${sent.via}); the keeper has not filled order ${row.orderId ?? ''} yet`,
        data: { via: sent.via, mode, signature: sent.signature },
      };
    },

    async landed(row): Promise<LandedReport> {
      const report = await keeperAnswer(row, parsePredictionSellParams(kind, row.params));
      // Until the keeper answers the intent stays sent; every pass reads history again.
      if (!report)
        throw new IntentWaitingError('PREDICTION_AWAITING_KEEPER', `sell ${row.signature} landed; the keeper has not filled order ${row.orderId ?? ''} yet`);
      return report;
    },
  };
}

/**
 * Asks Jupiter to build the sale: the whole position (`DELETE /positions/{pubkey}`) or a share of it
 * (`POST /orders`). A refusal that reading the position back shows to be final fails the intent; any
 * other is rethrown ("not now").
 */
export async function buildSell(
  client: JupiterClient,
  owner: string,
  params: PredictionSellParams,
  shape: 'whole' | 'partial',
  signal: AbortSignal,
): Promise<CreateOrderResponse> {
  const call = { signal, priority: Priority.Exit };
  try {
    return shape === 'whole'
      ? await sellPosition(client, { positionPubkey: params.positionPubkey, ownerPubkey: owner }, call)
      : await sellPartial(
          client,
          { ownerPubkey: owner, positionPubkey: params.positionPubkey, isYes: params.isYes, contractsMicro: params.contractsMicro.toString() },
          call,
        );
  } catch (error) {
    if (isBuildRefusal(error)) await explainSellRefusal(client, params, error, signal);
    throw error;
  }
}

/** What the guard holds a sell's transaction to: our position and side, no more contracts than decided, the intent's floor. */
export function sellExpectation(params: PredictionSellParams, shape: 'whole' | 'partial', build: CreateOrderResponse): PredictionSellExpectation {
  return {
    kind: shape === 'whole' ? 'prediction-sell' : 'prediction-partial-sell',
    position: params.positionPubkey,
    isYes: params.isYes,
    maxContracts: params.contractsMicro,
    minPriceMicroUsd: params.minSellPriceMicroUsd ?? 0n,
    externalOrderId: build.externalOrderId ?? null,
  };
}

/** The build must be the sale the intent asked for, at a floor no lower than its minimum price. */
export function checkSellBuild(
  params: PredictionSellParams,
  shape: 'whole' | 'partial',
  build: CreateOrderResponse,
): { contractsMicro: bigint; minSellPriceUsd: bigint | null } {
  const o = build.order;
  const contracts = o.contractsMicro ?? null;
  const mismatch = (what: string): never => {
    throw new IntentRefusedError('PREDICTION_BUILD_MISMATCH', `the sell build is not the intent's: ${what}`, {
      build: { positionPubkey: o.positionPubkey, marketId: o.marketId, isBuy: o.isBuy, isYes: o.isYes, contractsMicro: contracts?.toString() ?? null },
    });
  };
  if (o.isBuy) mismatch('it buys');
  if (o.positionPubkey !== params.positionPubkey) mismatch(`position ${o.positionPubkey}, not ${params.positionPubkey}`);
  if (o.marketId !== params.marketId) mismatch(`market ${o.marketId}, not ${params.marketId}`);
  if (o.isYes !== params.isYes) mismatch(`side ${o.isYes ? 'YES' : 'NO'}`);
  if (contracts === null || contracts <= 0n) return mismatch('no contracts');
  // A whole sell sells what is there, never more than decided (the position did not grow behind our back).
  if (shape === 'partial' ? contracts !== params.contractsMicro : contracts > params.contractsMicro)
    mismatch(`${contracts} micro-contracts, the intent decided ${params.contractsMicro}`);
  const floor = o.minSellPriceUsd ?? null;
  const min = params.minSellPriceMicroUsd;
  if (min !== undefined) {
    // The floor is the least the keeper may fill at: what the sale is sure to pay per contract.
    if (floor === null)
      throw new IntentRefusedError('RISK_MIN_SELL_PRICE_UNKNOWN', 'the sell build states no minimum sell price; the intent limits it', {
        minSellPriceMicroUsd: min.toString(),
      });
    if (floor < min) {
      throw new IntentRefusedError('RISK_MIN_SELL_PRICE', `the build may sell at ${floor} micro-USD per contract, below the minimum of ${min}`, {
        minSellPriceUsd: floor.toString(),
        minSellPriceMicroUsd: min.toString(),
      });
    }
  }
  return { contractsMicro: contracts, minSellPriceUsd: floor };
}

export const sellPositionRoute: IntentRoute<'sell-position'> = { kind: 'sell-position', plan: (intent) => sellPlan(PREDICTION_SELL_KIND, intent) };

/** `sell-position`: the whole position (`DELETE /prediction/v1/positions/{pubkey}`). */
export const sellPositionKind: ExecutableKind<PredictionHandlerOptions> = {
  kind: PREDICTION_SELL_KIND,
  routes: [sellPositionRoute],
  createHandler: createPredictionSellHandler,
};

export const partialSellRoute: IntentRoute<'partial-sell'> = { kind: 'partial-sell', plan: (intent) => sellPlan(PREDICTION_PARTIAL_SELL_KIND, intent) };

/** `partial-sell`: a share of the position (`POST /prediction/v1/orders`, `isBuy: false`). */
export const partialSellKind: ExecutableKind<PredictionHandlerOptions> = {
  kind: PREDICTION_PARTIAL_SELL_KIND,
  routes: [partialSellRoute],
  createHandler: createPredictionPartialSellHandler,
};
