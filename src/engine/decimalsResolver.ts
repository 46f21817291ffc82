import { searchTokens, type TokenPrice } from '../jupiter/tokens.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';

/**
 * Decimals of a mint, for fills: from the strategies' resolved tokens, else the price feed's last
 * value, else one token search.
 */
export function decimalsResolver(options: {
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  readonly prices: () => ReadonlyMap<string, TokenPrice> | undefined;
  readonly client: JupiterClient;
}): (mint: string) => Promise<number> {
  return async (mint) => {
    for (const strategy of options.strategies().values()) {
      for (const token of Object.values(strategy.tokens)) if (token?.mint === mint) return token.decimals;
    }
    const priced = options.prices()?.get(mint);
    if (priced) return priced.decimals;
    const found = (await searchTokens(options.client, { query: mint })).find((t) => t.id === mint);
    if (!found) throw new Error(`decimals of ${mint} unknown`);
    return found.decimals;
  };
}
