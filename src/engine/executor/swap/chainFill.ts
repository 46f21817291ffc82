/**
 * A landed swap's amounts read back from the chain, for when Jupiter's /execute can no longer say
 * (its answer was lost and the requestId has since been forgotten). `getTransaction` gives every
 * account's balance before and after: what left our wallet's accounts of the input mint and what
 * arrived of the output mint is the fill. Native SOL counts the wallet's lamports and its wrapped-SOL
 * accounts together, with the network fee added back when we paid it (it is not part of the trade).
 */
import { SOL_MINT } from '../../../solana/programIds.js';
import type { LandedTransaction, SolanaRpc } from '../../../solana/rpc.js';

export interface ChainFill {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** Block time, epoch ms (null when the node does not say). */
  readonly at: number | null;
}

/** Net change of `mint` over the wallet's accounts in `tx`. */
export function walletDelta(tx: LandedTransaction, wallet: string, mint: string): bigint {
  const sum = (balances: LandedTransaction['preTokenBalances']): bigint =>
    balances.filter((b) => b.owner === wallet && b.mint === mint).reduce((total, b) => total + b.amount, 0n);
  let delta = sum(tx.postTokenBalances) - sum(tx.preTokenBalances);
  if (mint === SOL_MINT) {
    const at = tx.accountKeys.indexOf(wallet);
    if (at >= 0) delta += (tx.postBalances[at] ?? 0n) - (tx.preBalances[at] ?? 0n);
    if (tx.accountKeys[0] === wallet) delta += tx.fee;
  }
  return delta;
}

/** The fill of swap `transactionId` for `wallet`, or null when the node does not know it or it moved nothing both ways. */
export async function chainFill(
  rpc: Pick<SolanaRpc, 'getTransaction'>,
  transactionId: string,
  wallet: string,
  pair: { readonly inputMint: string; readonly outputMint: string },
): Promise<ChainFill | null> {
  const tx = await rpc.getTransaction(transactionId);
  if (tx === null || tx.err !== null) return null;
  const inAmount = -walletDelta(tx, wallet, pair.inputMint);
  const outAmount = walletDelta(tx, wallet, pair.outputMint);
  if (inAmount <= 0n || outAmount <= 0n) return null;
  return { inAmount, outAmount, at: tx.blockTime === null ? null : tx.blockTime * 1000 };
}
