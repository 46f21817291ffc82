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
      form: 'route_v2',
      sharedId: 0,
      steps: [{ variant: 17, fields: [1], bps: 10_000, inputIndex: 0, outputIndex: 1 }],
      venueAccounts: venues,
      tables: [table],
      feeBps: 2,
      feeAccount: null,
      feeRefund: 0n,
    };
    const split = [
      { variant: 141, fields: [1, 0x90, 0xd0, 3, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, 3], bps: 7_000, inputIndex: 0, outputIndex: 1 },
      { variant: 38, fields: [], bps: 3_000, inputIndex: 0, outputIndex: 1 },
    ];
    const variants: SwapTxParams[] = [
      base,
      { ...base, blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', inAmount: 7n, quotedOut: 3n, microLamports: 1 },
      { ...base, outputMint: SOL, inputMint: JUP, payer: gas, feeRefund: 20_000n },
      { ...base, payer: gas, inputMint: USDC, outputMint: JUP, steps: [{ variant: 38, fields: [], bps: 10_000, inputIndex: 0, outputIndex: 1 }] },
      { ...base, form: 'shared_accounts_route_v2', sharedId: 1, steps: split },
      { ...base, form: 'route', feeBps: 50, receiver: wallet('template-receiver').publicKey.toBase58(), feeAccount: derivedAddress('t:fee').toBase58() },
      { ...base, form: 'shared_accounts_route', sharedId: 3, steps: split, feeAccount: derivedAddress('t:fee').toBase58() },
    ];
    for (const p of variants) {
      expect(buildSwapTransaction(p).base64).toBe(compileSwapTransaction(p).base64);
      expect(buildSwapTransaction(p).base64).toBe(compileSwapTransaction(p).base64);
    }
  });
});
