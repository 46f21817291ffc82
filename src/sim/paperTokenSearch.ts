import { TOKEN_CATALOG } from './tokenCatalog.js';
import type { TokenCandidate, TokenSearch } from '../strategies/tokenResolution.js';

/**
 * Token search over the simulator's catalogue, without a running simulator: what paper mode
 * trades, so `jupbot validate` and `jupbot plan` resolve symbols offline exactly as the daemon's
 * paper run will. Same matching as the simulator's search: a mint exactly, else symbol or name.
 */
export const paperTokenSearch: TokenSearch = (query) => {
  const q = query.trim().toLowerCase();
  const hits = TOKEN_CATALOG.filter((t) => t.mint === query.trim() || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q));
  return Promise.resolve(hits.map(toCandidate));
};

function toCandidate(spec: (typeof TOKEN_CATALOG)[number]): TokenCandidate {
  return {
    id: spec.mint,
    symbol: spec.symbol,
    name: spec.name,
    decimals: spec.decimals,
    isVerified: spec.isVerified,
    audit: spec.isSus ? { isSus: true } : {},
  };
}

/** Starting USD prices of the catalogue, as decimal text (for `jupbot plan` in paper mode). */
export function paperPrices(): Map<string, string> {
  return new Map(TOKEN_CATALOG.map((t) => [t.mint, String(t.priceUsd)]));
}
