import { afterEach, describe, expect, it } from 'vitest';
import { createJupiterClient, prediction, swap, tokens, trigger, withBearer } from '../../src/jupiter/index.js';
import { createRandom } from '../../src/random.js';
import { signMessage, signTx, SOL, startSim, USDC, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

// The daemon's own clients against the simulator: the same code talks to both.
describe('the project clients against the simulator', () => {
  it('search, quote and execute, log in, register a vault, read prediction positions', async () => {
    h = await startSim();
    const client = createJupiterClient({ baseUrl: h.url, apiKey: 'paper-mode-key', requestsPerSecond: 10, clock: h.clock, random: createRandom('clients') });
    const found = await tokens.searchTokens(client, { query: 'JUP' });
    expect(found[0]?.isVerified).toBe(true);
    const kp = wallet('clients');
    const taker = kp.publicKey.toBase58();
    h.sim.control.paperWallet(taker);
    const quote = await swap.order(client, { inputMint: SOL, outputMint: USDC, amount: '100000000', taker });
    const result = await swap.execute(client, { signedTransaction: signTx(quote.transaction as string, kp), requestId: quote.requestId });
    expect(result.status).toBe('Success');
    const challenge = await trigger.requestChallenge(client, { walletPubkey: taker, type: 'message' });
    const text = challenge.type === 'message' ? challenge.challenge : '';
    const { token } = await trigger.verifyChallenge(client, { type: 'message', walletPubkey: taker, signature: signMessage(text, kp) });
    const authed = withBearer(client, () => Promise.resolve(token));
    const vault = await trigger.registerVault(authed);
    expect((await trigger.getVault(authed)).vaultPubkey).toBe(vault.vaultPubkey);
    const positions = await prediction.getPositions(client, { ownerPubkey: taker });
    expect(positions.data).toHaveLength(2);
    expect((await prediction.getTradingStatus(client)).trading_active).toBe(true);
  });
});
