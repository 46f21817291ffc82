import { AddressLookupTableAccount } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { derivedAddress, pubkey } from '../../src/sim/programIds.js';
import { buildSwapTransaction, compileSwapTransaction, type SwapTxParams } from '../../src/sim/swapTransaction.js';
import { JUP, SOL, USDC, wallet } from './support/simHarness.js';

const venues = [derivedAddress('t:pool'), derivedAddress('t:vault-a'), derivedAddress('t:vault-b')];
const table = new AddressLookupTableAccount({
  key: derivedAddress('t:table'),
  state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 1, lastExtendedSlotStartIndex: 0, addresses: [...venues, pubkey(USDC), pubkey(SOL)] },
});

describe('swap transaction templates', () => {
  it('produce exactly the bytes a full compile produces', () => {
    const taker = wallet('template').publicKey.toBase58();
    const gas = wallet('template-gas').publicKey.toBase58();
    const base: SwapTxParams = {
      payer: taker,
      taker,
      receiver: taker,
      inputMint: SOL,
      outputMint: USDC,
      blockhash: 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi',
      computeUnits: 200_000,
      microLamports: 50_000,
      inAmount: 1_000_000_000n,
      quotedOut: 149_000_000n,
      slippageBps: 50,
      venue: { variant: 17, fields: [1] },
      venueAccounts: venues,
      tables: [table],
      platformFee: null,
      feeRefund: 0n,
    };
    const variants: SwapTxParams[] = [
      base,
      { ...base, blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', inAmount: 7n, quotedOut: 3n, microLamports: 1 },
      { ...base, outputMint: SOL, inputMint: JUP, payer: gas, feeRefund: 20_000n },
      { ...base, payer: gas, inputMint: USDC, outputMint: JUP, venue: { variant: 38, fields: [] } },
      { ...base, receiver: wallet('template-receiver').publicKey.toBase58(), platformFee: { account: derivedAddress('t:fee').toBase58(), bps: 50 } },
    ];
    for (const p of variants) {
      expect(buildSwapTransaction(p).base64).toBe(compileSwapTransaction(p).base64);
      expect(buildSwapTransaction(p).base64).toBe(compileSwapTransaction(p).base64);
    }
  });
});
