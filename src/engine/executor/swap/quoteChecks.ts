/**
 * What a swap's quote must satisfy before anything is signed: it is for the intent's mints and
 * amount, its price impact is within the intent's limit, and, for a price rule, its price confirms
 * the feed's price that fired the rule.
 */
import { IntentRefusedError } from '../errors.js';
import type { SwapParams } from './swapParams.js';

/** Risk checks the intent carries, on the quote, before anything is signed. */
export function checkQuote(
  params: SwapParams,
  quote: {
    inputMint: string;
    outputMint: string;
    inAmount: string;
    outUsdValue?: number | null | undefined;
    priceImpact?: number | null | undefined;
    priceImpactPct?: string | null | undefined;
  },
): void {
  if (quote.inputMint !== params.inputMint || quote.outputMint !== params.outputMint || BigInt(quote.inAmount) !== params.amount) {
    throw new IntentRefusedError(
      'QUOTE_MISMATCH',
      `the quote is for ${quote.inAmount} ${quote.inputMint} → ${quote.outputMint}, not the intent's ${params.amount} ${params.inputMint} → ${params.outputMint}`,
    );
  }
  checkQuotedPrice(params, quote);
  if (params.maxPriceImpactBps === undefined) return;
  // priceImpact is in percentage points (-0.1 = -0.1 %); the deprecated priceImpactPct is a ratio.
  const points = quote.priceImpact ?? (quote.priceImpactPct ? Number(quote.priceImpactPct) * 100 : null);
  if (points === null || !Number.isFinite(points))
    throw new IntentRefusedError('RISK_PRICE_IMPACT_UNKNOWN', 'the quote reports no price impact; the intent limits it');
  const bps = Math.abs(points) * 100;
  if (bps > params.maxPriceImpactBps) {
    throw new IntentRefusedError('RISK_PRICE_IMPACT', `price impact ${bps.toFixed(2)} bps exceeds the limit of ${params.maxPriceImpactBps} bps`, {
      impactBps: bps,
      maxPriceImpactBps: params.maxPriceImpactBps,
    });
  }
}

/**
 * A price rule fired on the feed's price; the quote is what the market really offers. Its price
 * (what the output is worth, by Jupiter's valuation, per input token) must be within the intent's
 * deviation of the feed's, or nothing is signed: a feed at $1 while SOL trades at $144 must not
 * sell at $144 on a stop set at $140. Refused as a decision to take again (QUOTE_DISAGREES_WITH_FEED):
 * the rule decides afresh on the next prices.
 */
function checkQuotedPrice(params: SwapParams, quote: { inAmount: string; outUsdValue?: number | null | undefined }): void {
  if (params.feedPriceUsd === undefined) return;
  const feed = Number(params.feedPriceUsd);
  const units = Number(quote.inAmount) / 10 ** params.inputDecimals;
  const outUsd = quote.outUsdValue;
  const maxBps = params.maxQuoteDeviationBps ?? 500;
  if (outUsd === null || outUsd === undefined || !Number.isFinite(outUsd) || outUsd <= 0 || !(units > 0) || !(feed > 0)) {
    throw new IntentRefusedError('QUOTE_DISAGREES_WITH_FEED', "the quote states no USD value for its output: the feed's price cannot be confirmed", {
      feedPriceUsd: params.feedPriceUsd,
    });
  }
  const quoted = outUsd / units;
  // Measured against the larger price, so a feed far below and one far above read alike (at most 100 %).
  const deviationBps = Math.round((Math.abs(quoted - feed) / Math.max(quoted, feed)) * 10_000);
  if (deviationBps > maxBps) {
    throw new IntentRefusedError(
      'QUOTE_DISAGREES_WITH_FEED',
      `the quote prices the input at $${quoted.toPrecision(6)} and the feed's price that fired the rule was $${params.feedPriceUsd}: ${(deviationBps / 100).toFixed(2)}% apart, more than the ${(maxBps / 100).toFixed(2)}% allowed; nothing traded`,
      { feedPriceUsd: params.feedPriceUsd, quotedPriceUsd: quoted, deviationBps, maxQuoteDeviationBps: maxBps },
    );
  }
}
