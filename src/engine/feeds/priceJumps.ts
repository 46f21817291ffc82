/**
 * A price that jumps is confirmed before anyone acts on it. A polled price more than
 * {@link PRICE_JUMP_RATIO} away from the last one accepted is held (left out: decide() holds on "no
 * price") until the next poll says much the same again. A real crash costs one poll interval; a feed
 * that lies once (SOL at $1 while the market trades at $144) fires nothing. The executor then checks
 * the quote against the price that fired (risk.max_quote_deviation), which catches a lie that
 * persists.
 */
import type { TokenPrice } from '../../jupiter/tokens.js';

/** A move from the last accepted price beyond which a new price waits for a second poll (20 %). */
export const PRICE_JUMP_RATIO = 0.2;

const apart = (a: number, b: number): number => Math.abs(a - b) / b;

export interface HeldJump {
  readonly mint: string;
  readonly symbol: string;
  readonly from: number;
  readonly to: number;
}

export class PriceJumps {
  readonly #accepted = new Map<string, number>();
  readonly #pending = new Map<string, number>();

  /** The prices to use from this poll: every jump not yet confirmed comes back with `usdPrice: null`. */
  filter(prices: ReadonlyMap<string, TokenPrice>, onHold?: (jump: HeldJump) => void): Map<string, TokenPrice> {
    const out = new Map<string, TokenPrice>();
    for (const [mint, price] of prices) {
      const now = price.usdPrice;
      const last = this.#accepted.get(mint);
      if (now === null || !Number.isFinite(now) || now <= 0) {
        out.set(mint, price);
        continue;
      }
      const pending = this.#pending.get(mint);
      const confirmed = last === undefined || apart(now, last) <= PRICE_JUMP_RATIO || (pending !== undefined && apart(now, pending) <= PRICE_JUMP_RATIO);
      if (confirmed) {
        this.#accepted.set(mint, now);
        this.#pending.delete(mint);
        out.set(mint, price);
        continue;
      }
      if (pending === undefined) onHold?.({ mint, symbol: price.symbol, from: last, to: now });
      this.#pending.set(mint, now);
      out.set(mint, { ...price, usdPrice: null });
    }
    return out;
  }
}
