/**
 * The account's equity and exposure, in dollars, from what the feeds last read:
 *
 * - equity: every token the wallet holds (the balances feed) at its price, plus what our open
 *   vault orders hold (their deposits less what fills took), plus the prediction positions the
 *   positions feed lists, at the value it gives (`valueUsd`);
 * - exposure: the same, less the wallet's dollars (USDC, USDT): the value of every other token in
 *   the wallet, every open vault deposit (whatever its token: a deposit of dollars is committed to
 *   a purchase) and every prediction position.
 *
 * A token is priced by the prices feed (which reads the tokens the strategies use), else by the last
 * price kept in the database (`price_samples`, for a token no strategy names any more); dollars are
 * worth one. A token with neither is left out of both figures and named in `unpriced`. Prices are
 * the API's floats turned into exact decimals once; every sum is exact.
 */
import type { Balances } from '../engine/feeds/balances.js';
import type { PriceMap } from '../engine/feeds/prices.js';
import type { Position } from '../jupiter/schemas/prediction.js';
import { USD_MINTS } from '../audit/tokenNames.js';
import { decimalTextOf, type Fixed, microToFixed, ONE, parseFixedRounded } from '../money/decimal.js';

export interface AccountInputs {
  readonly balances: Balances | undefined;
  readonly prices: PriceMap | undefined;
  /** A token's last kept price (decimal text), for tokens the feed does not read; asked only for those. */
  readonly kept: (mint: string) => string | undefined;
  readonly deposits: readonly { readonly mint: string; readonly decimals: number; readonly units: bigint }[];
  readonly positions: readonly Position[] | undefined;
}

export interface AccountFigures {
  readonly equityUsd: Fixed;
  readonly exposureUsd: Fixed;
  /** The parts: the wallet's tokens (dollars included), the vault deposits, the positions. */
  readonly walletUsd: Fixed;
  readonly vaultUsd: Fixed;
  readonly positionsUsd: Fixed;
  /** Mints held that no price values (left out). */
  readonly unpriced: readonly string[];
}

/** Dollars per whole token, or null when nothing prices it. */
function priceOf(mint: string, inputs: AccountInputs): Fixed | null {
  if (USD_MINTS.has(mint)) return ONE;
  const text = decimalTextOf(inputs.prices?.get(mint)?.usdPrice) ?? inputs.kept(mint) ?? null;
  return text === null ? null : (parseFixedRounded(text) ?? null);
}

const value = (units: bigint, decimals: number, price: Fixed): Fixed => (units * price) / 10n ** BigInt(decimals);

/** Null until the balances feed has read the wallet once: no figure is better than a wrong one. */
export function accountFigures(inputs: AccountInputs): AccountFigures | null {
  const { balances } = inputs;
  if (balances === undefined) return null;
  const unpriced = new Set<string>();
  let walletUsd = 0n;
  let risky = 0n;
  for (const [mint, units] of balances.byMint) {
    if (units === 0n) continue;
    const price = priceOf(mint, inputs);
    if (price === null) {
      unpriced.add(mint);
      continue;
    }
    const usd = value(units, balances.decimals.get(mint) ?? 0, price);
    walletUsd += usd;
    if (!USD_MINTS.has(mint)) risky += usd;
  }
  let vaultUsd = 0n;
  for (const deposit of inputs.deposits) {
    const price = priceOf(deposit.mint, inputs);
    if (price === null) unpriced.add(deposit.mint);
    else vaultUsd += value(deposit.units, deposit.decimals, price);
  }
  const positionsUsd = (inputs.positions ?? []).reduce(
    (sum, p) => (p.claimed === true || p.valueUsd === null || p.valueUsd === undefined ? sum : sum + microToFixed(p.valueUsd)),
    0n,
  );
  return {
    equityUsd: walletUsd + vaultUsd + positionsUsd,
    exposureUsd: risky + vaultUsd + positionsUsd,
    walletUsd,
    vaultUsd,
    positionsUsd,
    unpriced: [...unpriced].sort(),
  };
}
