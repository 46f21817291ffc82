import { TOKEN_CATALOG } from '../sim/tokenCatalog.js';

/**
 * A price file's token (a symbol or a mint) as a mint the simulated market trades: symbols name
 * verified tokens only (the catalog also holds look-alikes, as Jupiter's search does).
 */
export function resolveSimToken(token: string): string | { readonly problem: string } {
  const byMint = TOKEN_CATALOG.find((t) => t.mint === token);
  if (byMint) return byMint.mint;
  const bySymbol = TOKEN_CATALOG.find((t) => t.isVerified && t.symbol.toLowerCase() === token.toLowerCase());
  if (bySymbol) return bySymbol.mint;
  const known = TOKEN_CATALOG.filter((t) => t.isVerified).map((t) => t.symbol);
  return { problem: `unknown token "${token}": a backtest trades the simulated market, which has ${known.join(', ')} (by symbol or mint)` };
}
