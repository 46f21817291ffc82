/**
 * A prediction position bought with the test wallet through the API, as a trader elsewhere would:
 * a position to manage in any game, not only the ones the simulator's paper wallet starts with.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { createJupiterClient } from '../../src/jupiter/transport.js';
import { createOrder, executePrediction } from '../../src/jupiter/prediction.js';
import { createRandom } from '../../src/random.js';
import { simFetch } from './simFetch.js';
import type { TestWorld } from './testStack.js';

/**
 * Buys `usd` dollars of one side of a market with the world's wallet (build, sign, `/execute`),
 * then lets the keeper fill it (the simulator's clock moves 2 s).
 */
export async function buyPosition(w: TestWorld, marketId: string, isYes = true, usd = 10n): Promise<void> {
  const client = createJupiterClient({
    baseUrl: 'http://sim.local',
    apiKey: 'prediction-buy-key',
    requestsPerSecond: 100,
    clock: w.clock,
    random: createRandom(`buy:${marketId}`),
    fetch: simFetch(w.sim),
  });
  const build = await createOrder(client, { ownerPubkey: w.wallet.address, marketId, isYes, isBuy: true, depositAmount: usd * 1_000_000n });
  const tx = w.wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(build.transaction ?? '', 'base64')));
  const done = await executePrediction(client, {
    signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
    ...(build.execution ? { context: build.execution.context } : {}),
  });
  if (done.status !== 'Success') throw new Error(`buying ${marketId}: ${done.error ?? done.status}`);
  await w.sim.control.advance(2_000);
}
