import { describe, expect, it } from 'vitest';
import { JUPITER_GAS_WALLET, pubkey } from '../../src/sim/programIds.js';
import { buildSwapTransaction, type SwapTxParams } from '../../src/sim/swapTransaction.js';
import { buildV0, computeBudget, createAtaIdempotent, jupiterRoute } from '../../src/sim/txBuilder.js';
import { JUP, SOL, USDC, wallet } from './support/simHarness.js';

function compiled(p: SwapTxParams): string {
  const ixs = computeBudget(p.computeUnits, p.microLamports);
  if (p.outputMint !== SOL) ixs.push(createAtaIdempotent(pubkey(p.payer), pubkey(p.receiver), pubkey(p.outputMint)));
  ixs.push(jupiterRoute(pubkey(p.taker), p.inputMint, p.outputMint, p.inAmount, p.minOut, p.slippageBps));
  return buildV0(pubkey(p.payer), p.blockhash, ixs).base64;
}

describe('swap transaction templates', () => {
  it('produce exactly the bytes a full compile produces', () => {
    const taker = wallet('template').publicKey.toBase58();
    const base: SwapTxParams = { payer: taker, taker, receiver: taker, inputMint: SOL, outputMint: USDC, blockhash: 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi', computeUnits: 200_000, microLamports: 50_000, inAmount: 1_000_000_000n, minOut: 149_000_000n, slippageBps: 50 };
    const variants: SwapTxParams[] = [
      base,
      { ...base, blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', inAmount: 7n, minOut: 3n, slippageBps: 9_999, microLamports: 1 },
      { ...base, outputMint: SOL, inputMint: JUP },
      { ...base, payer: JUPITER_GAS_WALLET, inputMint: USDC, outputMint: JUP },
    ];
    for (const p of variants) {
      expect(buildSwapTransaction(p).base64).toBe(compiled(p));
      expect(buildSwapTransaction(p).base64).toBe(compiled(p));
    }
  });
});
