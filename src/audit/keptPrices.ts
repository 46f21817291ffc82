/**
 * The prices the daemon kept (`price_samples`), per token, as exact decimals: what the report marks
 * the wallet to and draws per token. A kept price holds from its instant until the next one (a
 * step, never an interpolation). USDC and USDT count as exactly one dollar, as in the P&L.
 */
import type { Db } from '../store/db.js';
import { keptPriceRows } from '../store/reportRecords.js';
import { type Fixed, ONE, parseFixedRounded, PLACES } from '../money/decimal.js';
import { USD_MINTS } from './tokenNames.js';

/** One token's kept prices, oldest first: `times[i]` (epoch ms) has price `usd[i]`. */
export interface PriceTrack {
  readonly mint: string;
  readonly times: readonly number[];
  readonly usd: readonly Fixed[];
}

/** Every token's kept prices. A stored price that is not a plain decimal is left out (it never entered a decision either). */
const PLAIN = /^\d+\.\d{1,18}$/;

/**
 * A kept price as Fixed: the common form (a decimal point, at most 18 places) read in one BigInt,
 * twice as fast as the general parser on the few hundred thousand a long history holds; any other
 * form through parseFixedRounded.
 */
function usdOf(text: string): Fixed | undefined {
  const dot = text.indexOf('.');
  if (dot > 0 && PLAIN.test(text)) return BigInt(text.slice(0, dot) + text.slice(dot + 1).padEnd(PLACES, '0'));
  return parseFixedRounded(text);
}

export function keptPrices(db: Db): Map<string, PriceTrack> {
  const tracks = new Map<string, PriceTrack>();
  for (const [mint, rows] of keptPriceRows(db)) {
    const times: number[] = [];
    const usd: Fixed[] = [];
    for (const [at, text] of rows) {
      const value = usdOf(text);
      if (value === undefined) continue;
      times.push(at);
      usd.push(value);
    }
    if (times.length > 0) tracks.set(mint, { mint, times, usd });
  }
  return tracks;
}

/** Index of the last kept price at or before `at`, or -1. */
export function indexAt(track: PriceTrack, at: number): number {
  let low = 0;
  let high = track.times.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((track.times[mid] as number) <= at) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/**
 * What one token is worth at `at`: a dollar for USDC and USDT, else the last kept price at or before
 * `at`; null when none was kept by then (`unknown`: none was ever kept).
 */
export function priceAt(prices: ReadonlyMap<string, PriceTrack>, mint: string, at: number): Fixed | null {
  if (USD_MINTS.has(mint)) return ONE;
  const track = prices.get(mint);
  if (track === undefined) return null;
  const i = indexAt(track, at);
  return i < 0 ? null : (track.usd[i] as Fixed);
}

/** Whether a token can ever be valued: a dollar, or a token with a kept price. */
export function isPriced(prices: ReadonlyMap<string, PriceTrack>, mint: string): boolean {
  return USD_MINTS.has(mint) || prices.has(mint);
}
