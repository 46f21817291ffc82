import { tokenNamer, type TokenNamer } from '../audit/tokenNames.js';
import type { Engine } from './engineParts.js';

/**
 * How the running daemon names a mint in what people read: the symbol a loaded strategy resolved
 * for it, else the one the price feed last reported, else the well-known names and the shortened
 * mint. Asked at each use, so a strategy loaded later names its tokens from then on.
 */
export function engineTokenNamer(engine: () => Pick<Engine, 'strategies' | 'feeds'> | undefined): TokenNamer {
  return tokenNamer((mint) => {
    const running = engine();
    if (!running) return undefined;
    for (const strategy of running.strategies.active.values()) {
      for (const token of Object.values(strategy.tokens)) if (token?.mint === mint) return token.symbol;
    }
    return running.feeds.prices.state().value?.get(mint)?.symbol;
  });
}
