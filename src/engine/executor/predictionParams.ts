/**
 * The prediction exits as the journal stores them (`intents.params`, canonical JSON, amounts as
 * integer strings) and back, and the routes that journal them. A restarted daemon resumes from the
 * row alone, so everything the handlers need to sell or claim the position is here.
 */
import { z } from 'zod';
import type { ClaimPositionIntent, PartialSellIntent, SellPositionIntent } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';
import { parseJournalParams } from './journalParams.js';
import { journalEntry, type AnyIntentRoute, type IntentRoute } from './intentRoute.js';

export const PREDICTION_SELL_KIND = 'sell-position';
export const PREDICTION_PARTIAL_SELL_KIND = 'partial-sell';
export const PREDICTION_CLAIM_KIND = 'claim-position';

const Pubkey = z.string().min(32).max(44);
const Positive = z.string().regex(/^[1-9]\d*$/).transform(BigInt);

const SellParams = z.strictObject({
  positionPubkey: Pubkey,
  marketId: z.string().min(1),
  isYes: z.boolean(),
  /** Micro-contracts: the whole position as decided (whole sell) or the share to sell (partial). */
  contractsMicro: Positive,
  /** The lowest acceptable price per contract, micro-USD: the build's floor must not be below it. */
  minSellPriceMicroUsd: Positive.optional(),
  strategyHash: z.string().optional(),
});
export type PredictionSellParams = z.output<typeof SellParams>;

const ClaimParams = z.strictObject({
  positionPubkey: Pubkey,
  marketId: z.string().min(1),
  strategyHash: z.string().optional(),
});
export type PredictionClaimParams = z.output<typeof ClaimParams>;

function sellPlan(kind: string, intent: SellPositionIntent | PartialSellIntent): PlanInput {
  return journalEntry(intent, kind, {
    positionPubkey: intent.positionPubkey,
    marketId: intent.marketId,
    isYes: intent.isYes,
    contractsMicro: intent.contractsMicro.toString(),
    ...(intent.minSellPriceMicroUsd === undefined ? {} : { minSellPriceMicroUsd: intent.minSellPriceMicroUsd.toString() }),
  });
}

/** `sell-position` → the journal (DELETE /positions/{pubkey}). */
export const sellPositionRoute: IntentRoute<'sell-position'> = {
  kind: 'sell-position',
  plan: (intent) => sellPlan(PREDICTION_SELL_KIND, intent),
};

/** `partial-sell` → the journal (POST /orders, isBuy false). */
export const partialSellRoute: IntentRoute<'partial-sell'> = {
  kind: 'partial-sell',
  plan: (intent) => sellPlan(PREDICTION_PARTIAL_SELL_KIND, intent),
};

/** `claim-position` → the journal (POST /positions/{pubkey}/claim). */
export const claimPositionRoute: IntentRoute<'claim-position'> = {
  kind: 'claim-position',
  plan: (intent: ClaimPositionIntent): PlanInput => journalEntry(intent, PREDICTION_CLAIM_KIND, { positionPubkey: intent.positionPubkey, marketId: intent.marketId }),
};

/** The three prediction routes, for `intentRoutes(...)`. */
export const predictionRoutes: readonly AnyIntentRoute[] = [sellPositionRoute, partialSellRoute, claimPositionRoute];

export const parsePredictionSellParams = (kind: string, params: unknown): PredictionSellParams => parseJournalParams(SellParams, kind, params);
export const parsePredictionClaimParams = (params: unknown): PredictionClaimParams => parseJournalParams(ClaimParams, PREDICTION_CLAIM_KIND, params);
