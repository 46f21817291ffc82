/**
 * The `swap` intent's journal params: what the swap handler (swapHandler.ts), its quote checks
 * (quoteChecks.ts) and the rehearsal's swap read back from a row.
 */
import { z } from 'zod';
import { Bps, Decimals, PositiveBaseUnits, Pubkey } from '../../../jupiter/schemas/common.js';
import { parseJournalParams } from '../intentKind.js';

export const SWAP_KIND = 'swap';

/**
 * The `swap` intent as the journal stores it (`intents.params`, canonical JSON, amounts as base-unit
 * strings). What is stored is all the executor may act on: a restarted daemon resumes from this row
 * alone, with no strategy in memory.
 */
const SwapParams = z.strictObject({
  inputMint: Pubkey,
  inputDecimals: Decimals,
  outputMint: Pubkey,
  amount: PositiveBaseUnits.transform(BigInt),
  slippageBps: Bps.optional(),
  maxPriceImpactBps: Bps.optional(),
  /** A price rule's trigger price (USD per input token) and how far the quote may be from it. */
  feedPriceUsd: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .optional(),
  maxQuoteDeviationBps: Bps.optional(),
  /** The strategy file's sha256 the intent was decided under (the key's `version`). */
  strategyHash: z.string().optional(),
});
export type SwapParams = z.output<typeof SwapParams>;

export const parseSwapParams = (params: unknown): SwapParams => parseJournalParams(SwapParams, SWAP_KIND, params);
