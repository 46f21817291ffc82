/**
 * The `place-dca-vault-order` intent as the journal stores it (`intents.params`, canonical JSON,
 * amounts as base-unit strings) and back, and its {@link IntentRoute}. A restarted daemon resumes
 * from the row alone, so everything the handler needs to craft the deposit and create the order is
 * here; USD bounds stay decimal strings until the create body needs numbers.
 */
import { z } from 'zod';
import type { PlaceDcaVaultOrderIntent } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';
import { parseJournalParams } from './journalParams.js';
import { journalEntry, type IntentRoute } from './intentRoute.js';

export const DCA_PLACE_KIND = 'place-dca-vault-order';

const Mint = z.string().min(32).max(44);
const Usd = z.string().regex(/^\d+(\.\d+)?$/);

const DcaPlaceParams = z
  .strictObject({
    orderType: z.enum(['time_based', 'price_conditional']),
    inputMint: Mint,
    inputDecimals: z.number().int().min(0).max(255),
    outputMint: Mint,
    /** The total over all rounds; each round gets inputAmount / orderCount. */
    inputAmount: z.string().regex(/^[1-9]\d*$/).transform(BigInt),
    orderCount: z.number().int().min(2),
    intervalSeconds: z.number().int().min(60).max(31_536_000),
    minPriceUsd: Usd.optional(),
    maxPriceUsd: Usd.optional(),
    triggerMint: Mint.optional(),
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

/** `place-dca-vault-order` → the journal (the tick loop's route; executed by dcaPlaceHandler.ts). */
export const placeDcaVaultOrderRoute: IntentRoute<'place-dca-vault-order'> = { kind: 'place-dca-vault-order', plan: dcaPlacePlan };

export function parseDcaPlaceParams(params: unknown): DcaPlaceParams {
  return parseJournalParams(DcaPlaceParams, DCA_PLACE_KIND, params);
}
