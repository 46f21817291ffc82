/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- raw simulator answers are read loosely here. */
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swapExpectation } from '../../../src/engine/executor/swap/swapHandler.js';
import type { Expectation } from '../../../src/solana/expectation.js';
import { createRpcGuardedSigner, type GuardedSigner } from '../../../src/solana/guardedSigner.js';
import { GuardRefusal, type RefusalReason } from '../../../src/solana/guardRefusal.js';
import { createSolanaRpc } from '../../../src/solana/rpc.js';
import { fromSecretText } from '../../../src/solana/wallet.js';
import { HOSTILE_VARIANTS, type HostileVariant } from '../../../src/sim/hostile.js';
import { BONK, SOL, startSim, USDC, wallet, type Harness } from '../../sim/support/simHarness.js';
import { simFetch } from '../engine/feeds/simSupport.js';

type Flow = 'swap' | 'gasless' | 'rfq' | 'sale';

// Every hostile variant the simulator can answer with, through the daemon's own signer: refused, each
// with its reason. `legacy`: the simulator answers in the older `route` form, where a fee account and
// amounts after the plan exist to tamper with; `known`: through a venue the bundled table describes,
// so the whole plan is walked (past an unknown venue, trailing bytes cannot be told from its fields).
const EXPECTED: Record<HostileVariant, { flow: Flow; reason: RefusalReason; legacy?: boolean; known?: boolean }> = {
  'route-destination-stranger': { flow: 'swap', reason: 'SWAP_DESTINATION_NOT_OURS' },
  'route-user-destination-stranger': { flow: 'swap', reason: 'SWAP_DESTINATION_NOT_OURS' },
  'route-trailing-bytes': { flow: 'swap', reason: 'ROUTE_DATA_MALFORMED', known: true },
  'route-in-amount-larger': { flow: 'swap', reason: 'AMOUNT_EXCEEDS_INTENT' },
  'route-slippage-high': { flow: 'swap', reason: 'SLIPPAGE_EXCEEDS_CAP' },
  'route-quoted-out-low': { flow: 'swap', reason: 'QUOTED_OUT_BELOW_MINIMUM' },
  'route-platform-fee-stranger': { flow: 'swap', reason: 'PLATFORM_FEE_EXCEEDS_DECLARED', legacy: true },
  'route-fee-raised': { flow: 'swap', reason: 'PLATFORM_FEE_EXCEEDS_DECLARED' },
  'route-fee-undeclared': { flow: 'swap', reason: 'PLATFORM_FEE_UNDECLARED' },
  'route-unknown-venue': { flow: 'swap', reason: 'ROUTE_PLAN_UNDECODABLE', legacy: true },
  'rfq-fee-doubled': { flow: 'rfq', reason: 'RFQ_FEE_EXCEEDS_DECLARED' },
  'route-destination-behind-table': { flow: 'swap', reason: 'SWAP_DESTINATION_NOT_OURS' },
  // The bytes are the genuine ones: only the simulation sees the venue take 2 SOL besides the swap.
  'venue-drain': { flow: 'swap', reason: 'EFFECT_SOL_EXCEEDS_BUDGET' },
  'fee-payer-swapped': { flow: 'swap', reason: 'FEE_PAYER_MISMATCH' },
  'extra-signer': { flow: 'swap', reason: 'UNEXPECTED_SIGNER' },
  'transfer-to-stranger': { flow: 'swap', reason: 'TRANSFER_TO_STRANGER' },
  'approve-delegate': { flow: 'swap', reason: 'DELEGATE_APPROVAL' },
  'close-to-stranger': { flow: 'swap', reason: 'CLOSE_TO_STRANGER' },
  'table-deactivated': { flow: 'swap', reason: 'LOOKUP_TABLE_DEACTIVATED' },
  'table-short': { flow: 'swap', reason: 'LOOKUP_TABLE_INDEX_OUT_OF_RANGE' },
  'payer-signature-invalid': { flow: 'gasless', reason: 'SIGNATURE_INVALID' },
  'gasless-overcharge': { flow: 'gasless', reason: 'GASLESS_FEE_EXCEEDS_DECLARED' },
  'prediction-buy-for-sell': { flow: 'sale', reason: 'PREDICTION_BUY_NOT_ALLOWED' },
  'prediction-lower-floor': { flow: 'sale', reason: 'PREDICTION_PRICE_BELOW_FLOOR' },
  'prediction-more-contracts': { flow: 'sale', reason: 'PREDICTION_CONTRACTS_EXCEED_POSITION' },
  'prediction-side-flipped': { flow: 'sale', reason: 'PREDICTION_SIDE_MISMATCH' },
  'prediction-order-id': { flow: 'sale', reason: 'PREDICTION_ORDER_ID_MISMATCH' },
  'prediction-other-position': { flow: 'sale', reason: 'PREDICTION_POSITION_MISMATCH' },
  'prediction-funds-stranger': { flow: 'sale', reason: 'PREDICTION_FUNDS_NOT_OURS' },
  'prediction-cosigner-invalid': { flow: 'sale', reason: 'SIGNATURE_INVALID' },
};

let h: Harness;
const trader = wallet('hostile-trader');
const poor = wallet('hostile-gasless');
const signers = new Map<string, GuardedSigner>();

beforeAll(async () => {
  h = await startSim();
  h.sim.control.paperWallet(trader.publicKey.toBase58());
  h.sim.control.fund(poor.publicKey.toBase58(), 500_000_000n, USDC);
  // An RFQ maker wins swaps of $25,000 and more.
  h.sim.control.fund(trader.publicKey.toBase58(), 40_000_000_000n, USDC);
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch: simFetch(h.sim) });
  for (const kp of [trader, poor])
    signers.set(kp.publicKey.toBase58(), createRpcGuardedSigner({ wallet: fromSecretText(bs58.encode(kp.secretKey)), rpc, clock: h.clock }));
});
afterAll(async () => h.close());

/** Builds the flow's transaction (with the fault armed for it) and the expectation the daemon would hold it to. */
async function build(flow: Flow, variant: HostileVariant | null): Promise<{ base64: string; expectation: Expectation; owner: string }> {
  // A new slot for every build: one signer never signs the same bytes twice.
  await h.clock.advance(1_000);
  const { legacy = false, known = false } = variant === null ? {} : EXPECTED[variant];
  h.sim.control.setRouting({ form: legacy ? 'route' : 'auto', venues: legacy || known ? ['Orca Whirlpool'] : null });
  const policy = { excludeRouters: [], maxSlippageBps: 300 };
  if (flow === 'sale') {
    const owner = trader.publicKey.toBase58();
    const [position] = (await h.call('GET', `/prediction/v1/positions?ownerPubkey=${owner}`)).body.data;
    if (variant) h.sim.control.injectFault({ path: `/prediction/v1/positions/${position.pubkey}`, method: 'DELETE', kind: 'hostile', variant, count: 1 });
    const reply = await h.call('DELETE', `/prediction/v1/positions/${position.pubkey}`, { body: { ownerPubkey: owner } });
    expect(reply.status).toBe(200);
    const expectation: Expectation = {
      kind: 'prediction-sell',
      position: position.pubkey,
      isYes: position.isYes,
      maxContracts: BigInt(reply.body.order.contractsMicro ?? reply.body.order.contracts),
      minPriceMicroUsd: BigInt(reply.body.order.minSellPriceUsd),
      externalOrderId: reply.body.externalOrderId,
    };
    return { base64: reply.body.transaction, expectation, owner };
  }
  const kp = flow === 'gasless' ? poor : trader;
  const owner = kp.publicKey.toBase58();
  const [inputMint, outputMint, amount] = flow === 'gasless' ? [USDC, BONK, '20000000'] : flow === 'rfq' ? [USDC, SOL, '30000000000'] : [USDC, SOL, '20000000'];
  if (variant) h.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant, count: 1 });
  const reply = await h.call('GET', `/swap/v2/order?${new URLSearchParams({ inputMint, outputMint, amount, taker: owner, slippageBps: '100' }).toString()}`);
  expect(reply.status).toBe(200);
  return {
    base64: reply.body.transaction,
    expectation: swapExpectation({ inputMint, outputMint, amount: BigInt(amount), inputDecimals: 6, slippageBps: 100 }, reply.body, owner, policy),
    owner,
  };
}

describe('hostile answers from the simulator', () => {
  it('covers every variant the simulator knows', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...HOSTILE_VARIANTS].sort());
  });

  it.each(['swap', 'gasless', 'rfq', 'sale'] as const)("the genuine %s passes, so each refusal below is the tampering's", async (flow) => {
    const { base64, expectation, owner } = await build(flow, null);
    if (flow === 'rfq') expect(expectation).toMatchObject({ rfqMaker: expect.any(String), feeBps: 2 });
    await expect((signers.get(owner) as GuardedSigner).signBase64(base64, expectation)).resolves.toMatchObject({ summary: { kind: expectation.kind } });
  });

  it.each(HOSTILE_VARIANTS.map((v) => [v, EXPECTED[v]] as const))('%s is refused', async (variant, { flow, reason }) => {
    const { base64, expectation, owner } = await build(flow, variant);
    const error = await (signers.get(owner) as GuardedSigner).signBase64(base64, expectation).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GuardRefusal);
    expect((error as GuardRefusal).reason).toBe(reason);
  });
});
