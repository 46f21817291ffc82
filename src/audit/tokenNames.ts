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

export function tokenNamer(pinned: ReadonlyMap<string, { readonly symbol: string }>): TokenNamer {
  return (mint) => {
    const prediction = /^prediction:(.+):(yes|no)$/.exec(mint);
    if (prediction) return `${prediction[1] ?? ''} ${(prediction[2] ?? '').toUpperCase()}`;
    return pinned.get(mint)?.symbol ?? WELL_KNOWN.get(mint) ?? `${mint.slice(0, 4)}…${mint.slice(-4)}`;
  };
}
