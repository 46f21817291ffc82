import { HttpError, ok, type RouteRequest, type RouteResult } from './http.js';
import type { Market } from './market.js';
import type { TokenSpec } from './tokenCatalog.js';

const MAX_TERMS = 100;
const DEFAULT_LIMIT = 20;

function stats(market: Market, mint: string, hours: number, liquidityUsd: number): Record<string, number | null> {
  const volume = liquidityUsd * 0.02 * hours;
  return {
    priceChange: round(market.priceChange(mint, hours), 6),
    holderChange: 0,
    liquidityChange: 0,
    volumeChange: 0,
    buyVolume: round(volume / 2, 2),
    sellVolume: round(volume / 2, 2),
    buyOrganicVolume: round(volume / 3, 2),
    sellOrganicVolume: round(volume / 3, 2),
    numBuys: Math.round(volume / 500),
    numSells: Math.round(volume / 520),
    numTraders: Math.round(volume / 900),
    numOrganicBuyers: Math.round(volume / 2000),
    numNetBuyers: Math.round(volume / 9000),
  };
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

/** A `MintInformation` record (ultra.yaml / tokens-v2.yaml) for a token at the current price. */
export function mintInformation(market: Market, spec: TokenSpec, priceBlockId: number, updatedAt: string): Record<string, unknown> {
  const price = market.feedPrice(spec.mint);
  const audit: Record<string, unknown> = {
    mintAuthorityDisabled: spec.mintAuthorityDisabled,
    freezeAuthorityDisabled: spec.freezeAuthorityDisabled,
    topHoldersPercentage: spec.topHoldersPercentage,
    devBalancePercentage: spec.isVerified ? 0 : 12.5,
    devMints: spec.isVerified ? 0 : 3,
  };
  // `isSus` is only present when flagged.
  if (spec.isSus) audit['isSus'] = true;
  return {
    id: spec.mint,
    name: spec.name,
    symbol: spec.symbol,
    icon: spec.isVerified ? `https://static.jup.ag/sim/${spec.symbol.toLowerCase()}.png` : null,
    decimals: spec.decimals,
    tokenProgram: spec.tokenProgram,
    createdAt: spec.createdAt,
    twitter: spec.twitter,
    telegram: null,
    website: spec.website,
    discord: null,
    instagram: null,
    tiktok: null,
    otherUrl: null,
    dev: null,
    mintAuthority: null,
    freezeAuthority: null,
    issuer: null,
    circSupply: spec.circSupply,
    totalSupply: spec.totalSupply,
    launchpad: null,
    partnerConfig: null,
    graduatedPool: null,
    graduatedAt: null,
    holderCount: spec.holderCount,
    fdv: round(price * spec.totalSupply, 2),
    mcap: round(price * spec.circSupply, 2),
    usdPrice: price,
    priceBlockId,
    liquidity: spec.liquidityUsd,
    fees: null,
    apy: null,
    stats5m: stats(market, spec.mint, 0, spec.liquidityUsd / 288),
    stats1h: stats(market, spec.mint, 1, spec.liquidityUsd),
    stats6h: stats(market, spec.mint, 6, spec.liquidityUsd),
    stats24h: stats(market, spec.mint, 24, spec.liquidityUsd),
    firstPool: { id: spec.mint, createdAt: spec.createdAt },
    audit,
    organicScore: spec.organicScore,
    organicScoreLabel: spec.organicScore >= 70 ? 'high' : spec.organicScore >= 30 ? 'medium' : 'low',
    isVerified: spec.isVerified,
    tags: [...spec.tags],
    updatedAt,
  };
}

/**
 * Search semantics: each comma-separated term is a mint (exact) or a symbol/name
 * (case-insensitive; exact symbol first, then prefix, then substring; verified and deeper first).
 * At most 100 terms; symbol/name searches return at most 20 results.
 */
export function searchTokens(market: Market, query: string): TokenSpec[] {
  const terms = query
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (terms.length > MAX_TERMS) throw new HttpError(400, { error: `Too many query terms: at most ${MAX_TERMS} are allowed` });
  const found: TokenSpec[] = [];
  const seen = new Set<string>();
  const push = (spec: TokenSpec): void => {
    if (seen.has(spec.mint)) return;
    seen.add(spec.mint);
    found.push(spec);
  };
  let textSearch = false;
  for (const term of terms) {
    const byMint = market.spec(term);
    if (byMint) {
      push(byMint);
      continue;
    }
    textSearch = true;
    const q = term.toLowerCase();
    const rank = (t: TokenSpec): number => {
      const symbol = t.symbol.toLowerCase();
      const name = t.name.toLowerCase();
      if (symbol === q) return 0;
      if (name === q) return 1;
      if (symbol.startsWith(q) || name.startsWith(q)) return 2;
      if (symbol.includes(q) || name.includes(q)) return 3;
      return -1;
    };
    market.tokens
      .map((t) => ({ t, r: rank(t) }))
      .filter((x) => x.r >= 0)
      .sort((a, b) => a.r - b.r || Number(b.t.isVerified) - Number(a.t.isVerified) || b.t.liquidityUsd - a.t.liquidityUsd)
      .forEach((x) => push(x.t));
  }
  return textSearch ? found.slice(0, Math.max(DEFAULT_LIMIT, terms.length)) : found;
}

export function searchRoute(market: Market, priceBlockId: () => number, now: () => number): (req: RouteRequest) => RouteResult {
  return (req) => {
    const query = req.query.get('query');
    if (query === null || query.trim() === '') throw new HttpError(400, { error: 'query is required' });
    const updatedAt = new Date(now()).toISOString();
    const block = priceBlockId();
    return ok(searchTokens(market, query).map((spec) => mintInformation(market, spec, block, updatedAt)));
  };
}
