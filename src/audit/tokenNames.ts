/**
 * How the auditor's commands name a mint: the symbol a strategy pinned for it, else the well-known
 * ones, else the mint shortened. Prediction contracts (`prediction:<market>:yes|no` in `fills`) read
 * as `<market> YES|NO`. USD stablecoins are the quote currency of prices and P&L.
 */
import { SOL_MINT, USDC_MINT, USDT_MINT } from '../solana/programIds.js';

/** Mints worth one US dollar, for prices and P&L. */
export const USD_MINTS: ReadonlySet<string> = new Set([USDC_MINT, USDT_MINT]);

const WELL_KNOWN: ReadonlyMap<string, string> = new Map([
  [SOL_MINT, 'SOL'],
  [USDC_MINT, 'USDC'],
  [USDT_MINT, 'USDT'],
]);

export type TokenNamer = (mint: string) => string;

/** `known` is a fixed map (the audit's pins) or a lookup asked each time (the running daemon's tokens). */
export function tokenNamer(known: ReadonlyMap<string, { readonly symbol: string }> | ((mint: string) => string | undefined)): TokenNamer {
  const lookup = typeof known === 'function' ? known : (mint: string) => known.get(mint)?.symbol;
  return (mint) => {
    const prediction = /^prediction:(.+):(yes|no)$/.exec(mint);
    if (prediction) return `${prediction[1] ?? ''} ${(prediction[2] ?? '').toUpperCase()}`;
    return lookup(mint) ?? WELL_KNOWN.get(mint) ?? `${mint.slice(0, 4)}…${mint.slice(-4)}`;
  };
}
