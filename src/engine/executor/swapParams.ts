/**
 * The `swap` intent as the journal stores it (`intents.params`, canonical JSON, amounts as base-unit
 * strings) and back. What is stored is all the executor may act on: a restarted daemon resumes from
 * this row alone, with no strategy in memory.
 */
import { z } from 'zod';
import type { SwapIntent } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';
import { parseJournalParams } from './journalParams.js';
import { journalEntry, type IntentRoute } from './intentRoute.js';

export const SWAP_KIND = 'swap';

const SwapParams = z.strictObject({
  inputMint: z.string().min(32).max(44),
  inputDecimals: z.number().int().min(0).max(255),
  outputMint: z.string().min(32).max(44),
  amount: z.string().regex(/^[1-9]\d*$/).transform(BigInt),
  slippageBps: z.number().int().min(0).max(10_000).optional(),
  maxPriceImpactBps: z.number().int().min(0).max(10_000).optional(),
  /** The strategy file's sha256 the intent was decided under (the key's `version`). */
  strategyHash: z.string().optional(),
});
export type SwapParams = z.output<typeof SwapParams>;

/** The journal entry for a decided swap: params, plus the evidence that fired it for `intent.planned`. */
export function swapPlan(intent: SwapIntent): PlanInput {
  return journalEntry(intent, SWAP_KIND, {
    inputMint: intent.inputMint,
    inputDecimals: intent.inputDecimals,
    outputMint: intent.outputMint,
    amount: intent.amount.toString(),
    ...(intent.slippageBps === undefined ? {} : { slippageBps: intent.slippageBps }),
    ...(intent.maxPriceImpactBps === undefined ? {} : { maxPriceImpactBps: intent.maxPriceImpactBps }),
  });
}

/** Swaps reach the journal through {@link swapPlan}. */
export const swapRoute: IntentRoute<'swap'> = { kind: 'swap', plan: swapPlan };

export function parseSwapParams(params: unknown): SwapParams {
  return parseJournalParams(SwapParams, 'swap', params);
}
