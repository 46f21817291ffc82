/**
 * `sell-position` and `partial-sell`, rehearsed. The sale is built through the real API with the
 * watched wallet as owner, exactly as live mode builds it (sellPosition.ts: the same call, the same
 * checks of the build against the intent, its minimum sell price included), and the transaction is
 * judged by the guard with the expectation live mode signs it under; it is never signed, and
 * `/prediction/v1/execute` is never called. A build answers an unsigned transaction and changes
 * nothing at Jupiter, so building is as harmless as a read.
 *
 * The rehearsal sells what it holds, not what the chain shows (positionsOverlay.ts): a partial sale
 * larger than that fails, and a whole sale of a position the rehearsal has already cut is built as
 * the share it still holds (`POST /orders`), since `DELETE /positions/{pubkey}` would build the sale
 * of the real, larger position, which live mode's check rightly refuses.
 *
 * Filled at once at the price saleProceeds.ts chooses, or failed as a keeper would fail the order
 * (`PREDICTION_ORDER_FAILED`). A call: planned → sent → confirmed | failed, and asked again after a
 * lost answer, since nothing outside this database changed.
 */
import type { Clock } from '../clock.js';
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { IntentRefusedError } from '../engine/executor/errors.js';
import { positionNow } from '../engine/executor/prediction/buildRefusal.js';
import {
  buildSell,
  checkSellBuild,
  parsePredictionSellParams,
  PREDICTION_PARTIAL_SELL_KIND,
  PREDICTION_SELL_KIND,
  type PredictionSellParams,
  sellExpectation,
} from '../engine/executor/prediction/sellPosition.js';
import type { Position } from '../jupiter/schemas/prediction.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { TransactionGuard } from '../solana/guardedSigner.js';
import { GuardRefusal } from '../solana/guardRefusal.js';
import type { Db } from '../store/db.js';
import { recordCost } from './ledger.js';
import { simulatedSolCost } from './simulatedSolCost.js';
import { judgeTransaction, noteRefusedBuild } from './judgeTransaction.js';
import { contractsTaken } from './positionsOverlay.js';
import { rehearsedPredictionFill } from './predictionFill.js';
import { repeatUnlessStale } from './rehearsalRepeat.js';
import { saleProceeds } from './saleProceeds.js';

export interface RehearsalPredictionOptions {
  readonly client: JupiterClient;
  readonly guard: TransactionGuard;
  readonly db: Db;
  readonly clock: Clock;
}

type Shape = 'whole' | 'partial';

/**
 * The sale the rehearsal can make of `decided`: what it asks Jupiter to build, and how the build is
 * checked. Throws when the rehearsal holds less than the intent decided to sell.
 */
export function rehearsedSale(
  decided: PredictionSellParams,
  shape: Shape,
  position: Position | null,
  taken: bigint,
): { params: PredictionSellParams; shape: Shape } {
  const held = position?.contractsMicro ?? 0n;
  const left = position === null || position.claimed === true ? 0n : held - taken;
  const details = { contractsMicro: held.toString(), rehearsedMicro: taken.toString(), decidedMicro: decided.contractsMicro.toString() };
  if (left <= 0n) {
    const why =
      position === null
        ? 'unknown to the API'
        : position.claimed === true
          ? 'claimed'
          : taken > 0n
            ? 'the rehearsal sold or claimed all of it'
            : 'no contracts';
    throw new IntentRefusedError('PREDICTION_POSITION_GONE', `position ${decided.positionPubkey} has nothing left to sell (${why})`, details);
  }
  if (shape === 'partial') {
    if (decided.contractsMicro > left)
      throw new IntentRefusedError(
        'PREDICTION_POSITION_GONE',
        `position ${decided.positionPubkey} holds ${left} micro-contracts in this rehearsal, fewer than the ${decided.contractsMicro} decided`,
        details,
      );
    return { params: decided, shape };
  }
  if (taken === 0n) return { params: decided, shape };
  return { params: { ...decided, contractsMicro: decided.contractsMicro < left ? decided.contractsMicro : left }, shape: 'partial' };
}

export function createRehearsalSellHandler(options: RehearsalPredictionOptions, shape: Shape): CallHandler {
  const { client, guard, db, clock } = options;
  const kind = shape === 'whole' ? PREDICTION_SELL_KIND : PREDICTION_PARTIAL_SELL_KIND;
  return {
    kind,
    async call(row, context): Promise<CallResult> {
      const decided = parsePredictionSellParams(kind, row.params);
      const position = await positionNow(client, decided.positionPubkey, context.signal);
      const sale = rehearsedSale(decided, shape, position, contractsTaken(db).get(decided.positionPubkey) ?? 0n);
      const build = await buildSell(client, guard.address, sale.params, sale.shape, context.signal);
      const expectation = sellExpectation(sale.params, sale.shape, build);
      const transaction = build.transaction;
      let order;
      try {
        order = checkSellBuild(sale.params, sale.shape, build);
      } catch (error) {
        if (error instanceof IntentRefusedError && transaction) noteRefusedBuild(context, expectation, transaction, error);
        throw error;
      }
      if (transaction === null || transaction === '')
        throw new IntentRefusedError('PREDICTION_BUILD_MISMATCH', 'the sell build carries no transaction to sign');
      const built = {
        rehearsal: true,
        orderPubkey: build.order.orderPubkey,
        externalOrderId: build.externalOrderId ?? null,
        built: sale.shape === shape ? shape : 'partial (the rest the rehearsal holds)',
        contractsMicro: order.contractsMicro.toString(),
        minSellPriceUsd: order.minSellPriceUsd?.toString() ?? null,
        orderCostUsd: build.order.orderCostUsd?.toString() ?? null,
        estimatedTotalFeeUsd: build.order.estimatedTotalFeeUsd?.toString() ?? null,
        sellPriceUsd: position?.sellPriceUsd?.toString() ?? null,
        markPriceUsd: position?.markPriceUsd?.toString() ?? null,
      };
      context.note?.('prediction.built', built);
      let judged;
      try {
        judged = await judgeTransaction(guard, transaction, expectation, { strategy: row.strategy, intentId: row.id }, context);
      } catch (error) {
        // A refusal about the moment is asked again (the row stays sent; settle says repeat).
        if (error instanceof GuardRefusal && !error.transient)
          return { kind: 'failed', code: 'GUARD_REFUSED', message: error.message, data: { reason: error.reason, rehearsal: true } };
        throw error;
      }
      const now = clock.now();
      // The build declares no network fee: what the simulation shows the wallet paying in SOL.
      const networkFeeLamports = simulatedSolCost(judged);
      recordCost(db, row.id, networkFeeLamports, now);
      const proceeds = saleProceeds(order.contractsMicro, build.order, position ?? {});
      if (proceeds.kind === 'unfilled') return { kind: 'failed', code: 'PREDICTION_ORDER_FAILED', message: `${proceeds.message}: nothing sold`, data: built };
      const summary = {
        ...built,
        basis: proceeds.basis,
        grossUsd: proceeds.grossUsd.toString(),
        feeUsd: proceeds.feeUsd.toString(),
        netUsd: proceeds.netUsd.toString(),
        networkFeeLamports: networkFeeLamports.toString(),
      };
      const fill = rehearsedPredictionFill({
        intentId: row.id,
        positionPubkey: decided.positionPubkey,
        marketId: decided.marketId,
        isYes: decided.isYes,
        contractsMicro: order.contractsMicro,
        usdcMicro: proceeds.netUsd,
        feeUsd: proceeds.feeUsd,
        summary,
        at: now,
      });
      return { kind: 'confirmed', data: summary, fills: [fill] };
    },
    settle: (row) => Promise.resolve(repeatUnlessStale(row, clock)),
  };
}
