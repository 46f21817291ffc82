import type { Random } from '../random.js';
import { SOL_MINT } from './programIds.js';
import { feeMintPriority, TOKEN_CATALOG, type TokenSpec } from './tokenCatalog.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface PriceState {
  price: number;
  /** One price per hour for the last 24 h, oldest first: feeds `stats*.priceChange`. */
  hourly: number[];
}

/** What a trade costs beyond the price: overrides of the fee schedule and of the depth behind price impact. */
export interface MarketCosts {
  /** One platform fee for every pair, in basis points. @default Jupiter's schedule by pair */
  readonly feeBps?: number | undefined;
  /** Multiplies every token's depth. @default 1 */
  readonly liquidityScale?: number | undefined;
}

export interface Quote {
  readonly inputMint: string;
  readonly outputMint: string;
  /** What leaves the taker's wallet. */
  readonly inAmount: bigint;
  /** What the taker receives, after fees, before slippage. */
  readonly outAmount: bigint;
  /** What entered the route (after an input-mint fee). */
  readonly routeIn: bigint;
  /** What the route produced (before an output-mint fee). */
  readonly routeOut: bigint;
  readonly feeMint: string;
  readonly feeBps: number;
  readonly feeAmount: bigint;
  /** Fraction lost to depth, 0..1. */
  readonly impact: number;
  readonly inUsd: number;
  readonly outUsd: number;
}

/**
 * Token prices and liquidity. Each token walks on its own volatility (geometric Brownian motion;
 * pegged tokens revert to their peg), one step per simulated second, from a dedicated seeded stream.
 */
export class Market {
  readonly #feedOverrides = new Map<string, number>();
  readonly #specs = new Map<string, TokenSpec>();
  readonly #prices = new Map<string, PriceState>();
  readonly #order: string[] = [];
  /** Extra tokens walk on their own stream, so adding them leaves the other tokens' prices as they were. */
  readonly #extraStream = new Map<string, Random>();
  #stepCount = 0;
  readonly #costs: MarketCosts;

  constructor(
    private readonly random: Random,
    private readonly now: () => number,
    tokens: readonly TokenSpec[] = TOKEN_CATALOG,
    extra: { readonly tokens: readonly TokenSpec[]; readonly random: Random } = { tokens: [], random },
    costs: MarketCosts = {},
  ) {
    if (costs.feeBps !== undefined && !(Number.isInteger(costs.feeBps) && costs.feeBps >= 0 && costs.feeBps <= 10_000))
      throw new RangeError(`feeBps must be an integer from 0 to 10000, got ${costs.feeBps}`);
    if (costs.liquidityScale !== undefined && !(costs.liquidityScale > 0 && Number.isFinite(costs.liquidityScale)))
      throw new RangeError(`liquidityScale must be a positive number, got ${costs.liquidityScale}`);
    this.#costs = costs;
    for (const spec of [...tokens, ...extra.tokens]) {
      if (this.#specs.has(spec.mint)) throw new RangeError(`duplicate mint ${spec.mint}`);
      this.#specs.set(spec.mint, spec);
      this.#prices.set(spec.mint, { price: spec.priceUsd, hourly: [spec.priceUsd] });
      this.#order.push(spec.mint);
    }
    for (const spec of extra.tokens) this.#extraStream.set(spec.mint, extra.random);
  }

  get tokens(): readonly TokenSpec[] {
    return this.#order.map((m) => this.#specs.get(m) as TokenSpec);
  }

  spec(mint: string): TokenSpec | undefined {
    return this.#specs.get(mint);
  }

  price(mint: string): number {
    const state = this.#prices.get(mint);
    if (!state) throw new RangeError(`unknown mint ${mint}`);
    return state.price;
  }

  /** Percent change over the last `hours` (at most 24). */
  priceChange(mint: string, hours: number): number {
    const state = this.#prices.get(mint);
    if (!state || hours <= 0) return 0;
    const idx = Math.max(0, state.hourly.length - 1 - hours);
    const then = state.hourly[idx] ?? state.price;
    return (state.price / then - 1) * 100;
  }

  /**
   * What the price feed (token search's `usdPrice`) says of a mint: its price, unless a test made the
   * feed lie with {@link setFeedPrice}. Quotes and fills always use the real price.
   */
  feedPrice(mint: string): number {
    return this.#feedOverrides.get(mint) ?? this.price(mint);
  }

  /** Makes the feed report `usd` for `mint` whatever the market does (null: the truth again). */
  setFeedPrice(mint: string, usd: number | null): void {
    this.price(mint);
    if (usd === null) this.#feedOverrides.delete(mint);
    else if (!(usd > 0) || !Number.isFinite(usd)) throw new RangeError(`price must be a positive number, got ${usd}`);
    else this.#feedOverrides.set(mint, usd);
  }

  setPrice(mint: string, usd: number): void {
    const state = this.#prices.get(mint);
    if (!state) throw new RangeError(`unknown mint ${mint}`);
    if (!(usd > 0) || !Number.isFinite(usd)) throw new RangeError(`price must be a positive number, got ${usd}`);
    state.price = usd;
  }

  /** Advances every price by one step of `dtMs`. */
  step(dtMs: number): void {
    const dtDays = dtMs / DAY_MS;
    for (const mint of this.#order) {
      const spec = this.#specs.get(mint) as TokenSpec;
      const state = this.#prices.get(mint) as PriceState;
      const z = this.#gaussian(this.#extraStream.get(mint) ?? this.random);
      const sigma = spec.dailyVolatility * Math.sqrt(dtDays);
      if (spec.pegged) {
        // Ornstein-Uhlenbeck around the peg: stables wobble but never wander off.
        const pull = (spec.priceUsd - state.price) * Math.min(1, dtDays * 50);
        state.price = Math.max(spec.priceUsd * 0.9, state.price + pull + spec.priceUsd * sigma * z);
      } else {
        state.price = state.price * Math.exp(sigma * z - (sigma * sigma) / 2);
      }
    }
    this.#stepCount++;
    if ((this.#stepCount * dtMs) % HOUR_MS < dtMs) {
      for (const state of this.#prices.values()) {
        state.hourly.push(state.price);
        if (state.hourly.length > 25) state.hourly.shift();
      }
    }
  }

  usdValue(mint: string, amount: bigint): number {
    const spec = this.#specs.get(mint);
    if (!spec) return 0;
    return (Number(amount) / 10 ** spec.decimals) * this.price(mint);
  }

  /** The base-unit amount of `mint` worth `usd`. */
  amountForUsd(mint: string, usd: number): bigint {
    const spec = this.#specs.get(mint);
    if (!spec) throw new RangeError(`unknown mint ${mint}`);
    return BigInt(Math.floor((usd / this.price(mint)) * 10 ** spec.decimals));
  }

  /** Jupiter's platform fee for a pair. */
  platformFeeBps(input: TokenSpec, output: TokenSpec): number {
    if (this.#costs.feeBps !== undefined) return this.#costs.feeBps;
    const stable = (t: TokenSpec): boolean => t.tags.includes('stablecoin');
    const lst = (t: TokenSpec): boolean => t.tags.includes('lst');
    const young = (t: TokenSpec): boolean => this.now() - Date.parse(t.createdAt) < DAY_MS;
    if (output.symbol === 'JUP' && output.isVerified) return 0;
    if (stable(input) && stable(output)) return 0;
    if (young(input) || young(output)) return 50;
    const sol = (t: TokenSpec): boolean => t.mint === SOL_MINT;
    if ((sol(input) && stable(output)) || (stable(input) && sol(output))) return 2;
    if ((lst(input) && stable(output)) || (stable(input) && lst(output))) return 5;
    return 10;
  }

  /** An ExactIn quote: fee, depth-driven impact, amounts in base units. */
  quote(inputMint: string, outputMint: string, amountIn: bigint): Quote {
    const input = this.#specs.get(inputMint);
    const output = this.#specs.get(outputMint);
    if (!input || !output) throw new RangeError('unknown mint');
    const feeBps = this.platformFeeBps(input, output);
    const feeInInput = feeMintPriority(input) >= feeMintPriority(output);
    const inputFee = feeInInput ? (amountIn * BigInt(feeBps)) / 10_000n : 0n;
    const routeIn = amountIn - inputFee;
    const inUsd = this.usdValue(inputMint, amountIn);
    const routeUsd = this.usdValue(inputMint, routeIn);
    const depth = Math.min(input.liquidityUsd, output.liquidityUsd) * (this.#costs.liquidityScale ?? 1);
    const impact = routeUsd / (routeUsd + depth);
    const rate = (this.price(inputMint) / this.price(outputMint)) * 10 ** (output.decimals - input.decimals) * (1 - impact);
    const routeOut = (routeIn * BigInt(Math.round(rate * 1e18))) / 10n ** 18n;
    const outputFee = feeInInput ? 0n : (routeOut * BigInt(feeBps)) / 10_000n;
    const outAmount = routeOut - outputFee;
    return {
      inputMint,
      outputMint,
      inAmount: amountIn,
      outAmount,
      routeIn,
      routeOut,
      feeMint: feeInInput ? inputMint : outputMint,
      feeBps,
      feeAmount: feeInInput ? inputFee : outputFee,
      impact,
      inUsd,
      outUsd: this.usdValue(outputMint, outAmount),
    };
  }

  /** Standard normal draw (Box-Muller) from one of the market's own streams. */
  #gaussian(random: Random): number {
    const u = Math.max(random.next(), 1e-12);
    const v = random.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
