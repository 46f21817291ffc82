/**
 * Orders placed straight against the simulator with the test wallet, as the Jupiter UI would: the
 * daemon did not place them, so its mirror must adopt them, never act on them.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { craftDeposit, createDcaOrder, createPriceOrder, getVault, registerVault } from '../../../../src/jupiter/trigger.js';
import { SOL, USDC } from '../../../support/mints.js';
import type { TestStack } from '../../../support/testStack.js';

const sign = (s: TestStack, base64: string): string =>
  Buffer.from(s.wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(base64, 'base64'))).serialize()).toString('base64');

async function ensureVault(s: TestStack): Promise<void> {
  await getVault(s.authed).catch(() => registerVault(s.authed));
}

/** A DCA order of `rounds` × 20 USDC into SOL, one round a minute; its id and deposit signature. */
export async function foreignDca(s: TestStack, rounds = 2): Promise<{ id: string; txSignature: string }> {
  await ensureVault(s);
  const amount = 20_000_000n * BigInt(rounds);
  const craft = await craftDeposit(s.authed, { inputMint: USDC, outputMint: SOL, userAddress: s.wallet.address, amount, orderType: 'dca' });
  return createDcaOrder(s.authed, {
    depositRequestId: craft.requestId,
    depositSignedTx: sign(s, craft.transaction),
    userPubkey: s.wallet.address,
    inputMint: USDC,
    outputMint: SOL,
    inputAmount: amount,
    orderCount: rounds,
    intervalSeconds: 60,
  });
}

/** A single price order selling 0.2 SOL (or, with `slPriceUsd`, an OCO: `triggerPriceUsd` is its take-profit). */
export async function foreignPrice(s: TestStack, triggerPriceUsd: number, slPriceUsd?: number): Promise<{ id: string; txSignature: string }> {
  await ensureVault(s);
  const orderType = slPriceUsd === undefined ? 'single' : 'oco';
  const craft = await craftDeposit(s.authed, {
    inputMint: SOL,
    outputMint: USDC,
    userAddress: s.wallet.address,
    amount: 200_000_000n,
    orderType: 'price',
    orderSubType: orderType,
  });
  const levels = slPriceUsd === undefined ? { triggerCondition: 'above' as const, triggerPriceUsd } : { tpPriceUsd: triggerPriceUsd, slPriceUsd };
  return createPriceOrder(s.authed, {
    orderType,
    depositRequestId: craft.requestId,
    depositSignedTx: sign(s, craft.transaction),
    userPubkey: s.wallet.address,
    inputMint: SOL,
    inputAmount: 200_000_000n,
    outputMint: USDC,
    triggerMint: SOL,
    ...levels,
    expiresAt: s.clock.now() + 7 * 86_400_000,
  });
}
