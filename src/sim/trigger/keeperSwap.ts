import { SystemWallet } from '../ledger.js';
import type { SimWorld } from '../world.js';

export interface KeeperFill {
  readonly signature: string;
  readonly inputUsed: bigint;
  readonly outputAmount: bigint;
  /** Less than the whole amount filled: depth could not take it within the slippage bound. */
  readonly partial: boolean;
}

/**
 * A keeper swap out of a vault at the current price. When the whole amount would move the price
 * beyond `slippageBps`, only the part the pool can take within that bound is filled.
 */
export function keeperSwap(
  world: SimWorld,
  from: string,
  to: string,
  inputMint: string,
  outputMint: string,
  amount: bigint,
  slippageBps: number,
): KeeperFill | undefined {
  let fillAmount = amount;
  const full = world.market.quote(inputMint, outputMint, amount);
  if (full.impact * 10_000 > slippageBps) {
    const s = Math.max(slippageBps, 1) / 10_000;
    const inSpec = world.market.spec(inputMint);
    const outSpec = world.market.spec(outputMint);
    const depth = Math.min(inSpec?.liquidityUsd ?? 0, outSpec?.liquidityUsd ?? 0);
    const fraction = Math.min(1, (s * depth) / (1 - s) / Math.max(full.inUsd, 1e-9));
    fillAmount = (amount * BigInt(Math.floor(fraction * 1_000_000))) / 1_000_000n;
  }
  if (fillAmount <= 0n) return undefined;
  const q = fillAmount === amount ? full : world.market.quote(inputMint, outputMint, fillAmount);
  if (q.outAmount <= 0n) return undefined;
  const signature = world.ids.base58(64);
  const feeInInput = q.feeMint === inputMint;
  world.ledger.batch(
    [
      { from, to: SystemWallet.liquidity, mint: inputMint, amount: q.routeIn },
      { from, to: SystemWallet.fees, mint: inputMint, amount: feeInInput ? q.feeAmount : 0n },
      { from: SystemWallet.liquidity, to, mint: outputMint, amount: q.outAmount },
      { from: SystemWallet.liquidity, to: SystemWallet.fees, mint: outputMint, amount: feeInInput ? 0n : q.feeAmount },
    ],
    'keeper-fill',
    signature,
  );
  return { signature, inputUsed: fillAmount, outputAmount: q.outAmount, partial: fillAmount < amount };
}
