/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- raw simulator answers are read loosely here. */
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterEach, describe, expect, it } from 'vitest';
import type { Expectation, PredictionSellExpectation } from '../../../src/solana/expectation.js';
import { checkTransaction, type GuardOptions } from '../../../src/solana/guard.js';
import { createRpcGuardedSigner } from '../../../src/solana/guardedSigner.js';
import { createLookupTableResolver } from '../../../src/solana/lookupTables.js';
import { createSolanaRpc } from '../../../src/solana/rpc.js';
import { swapExpectation } from '../../../src/engine/executor/swap/swapHandler.js';
import { fromSecretText } from '../../../src/solana/wallet.js';
import * as ours from '../../../src/solana/programIds.js';
import { JUPITER_GAS_WALLET, ProgramId } from '../../../src/sim/programIds.js';
import { BONK, startSim, SOL, USDC, wallet, type Harness } from '../../sim/support/simHarness.js';
import { simFetch } from '../engine/feeds/simSupport.js';
import { createPriceOrder, triggerUser, type TriggerUser } from '../../sim/support/triggerFlow.js';

// Every legitimate transaction the simulator builds, flow by flow, must pass the guard unchanged.
let h: Harness | undefined;
afterEach(async () => h?.close());

const decode = (base64: string): VersionedTransaction => VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
const guardFor = (u: Pick<TriggerUser, 'pub'>): GuardOptions => ({
  wallet: u.pub,
  predictionPrograms: [ProgramId.jupiterPrediction.toBase58()],
  // The simulator's tables, as the daemon reads them: through its RPC.
  ...(h
    ? {
        resolveLookupTable: createLookupTableResolver({
          rpc: createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch: simFetch(h.sim) }),
          clock: h.clock,
        }),
      }
    : {}),
});

describe('the guard accepts what the simulator builds', () => {
  it('uses the same program ids as the simulator', () => {
    expect(ours.SYSTEM_PROGRAM.equals(ProgramId.system)).toBe(true);
    expect(ours.COMPUTE_BUDGET_PROGRAM.equals(ProgramId.computeBudget)).toBe(true);
    expect(ours.TOKEN_PROGRAM.equals(ProgramId.token)).toBe(true);
    expect(ours.TOKEN_2022_PROGRAM.equals(ProgramId.token2022)).toBe(true);
    expect(ours.ASSOCIATED_TOKEN_PROGRAM.equals(ProgramId.associatedToken)).toBe(true);
    expect(ours.MEMO_PROGRAM.equals(ProgramId.memo)).toBe(true);
    expect(ours.JUPITER_AGGREGATOR_V6.equals(ProgramId.jupiterAggregatorV6)).toBe(true);
    expect(ours.JUPITER_GAS_WALLET).toBe(JUPITER_GAS_WALLET);
    expect(ours.JUPITER_PREDICTION_PROGRAM).toBe(ProgramId.jupiterPrediction.toBase58());
  });

  it('the transaction-type login challenge', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'guard-login');
    const reply = await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: u.pub, type: 'transaction' } });
    expect(reply.status).toBe(200);
    await expect(checkTransaction(decode(reply.body.transaction), { kind: 'login-challenge' }, guardFor(u))).resolves.toMatchObject({ outflows: [] });
  });

  it('USDC and SOL deposits, and the withdrawal of a cancelled order', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'guard-deposit');
    for (const [mint, amount] of [
      [USDC, '50000000'],
      [SOL, '1000000000'],
    ] as const) {
      const reply = await h.call('POST', '/trigger/v2/deposit/craft', {
        jwt: u.jwt,
        body: { inputMint: mint, outputMint: mint === USDC ? SOL : USDC, amount, orderType: 'price', orderSubType: 'single', userAddress: u.pub },
      });
      expect(reply.status).toBe(200);
      const expectation: Expectation = { kind: 'vault-deposit', mint, amount: BigInt(amount), vault: u.vault };
      const summary = await checkTransaction(decode(reply.body.transaction), expectation, guardFor(u));
      expect(summary.outflows.reduce((s, o) => s + o.amount, 0n)).toBe(BigInt(amount));
      // The same transaction read as a deposit of another amount is refused.
      await expect(checkTransaction(decode(reply.body.transaction), { ...expectation, amount: BigInt(amount) - 1n }, guardFor(u))).rejects.toMatchObject({
        reason: 'AMOUNT_EXCEEDS_INTENT',
      });
    }
    const order = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '50000000',
      triggerMint: SOL,
      triggerCondition: 'above',
      triggerPriceUsd: 1_000_000,
    });
    expect(order.status).toBe(200);
    await h.clock.advance(10_000); // the real service answers "retry shortly" right after creation
    const cancel = await h.call('POST', `/trigger/v2/orders/price/cancel/${order.body.id}`, { jwt: u.jwt });
    expect(cancel.status).toBe(200);
    await expect(checkTransaction(decode(cancel.body.transaction), { kind: 'vault-withdrawal', vault: u.vault }, guardFor(u))).resolves.toMatchObject({
      outflows: [],
    });
  });

  it('a DCA deposit and the withdrawal of its cancel', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'guard-dca');
    const craft = await h.call('POST', '/trigger/v2/deposit/craft', {
      jwt: u.jwt,
      body: { inputMint: USDC, outputMint: SOL, amount: '40000000', orderType: 'dca', userAddress: u.pub },
    });
    expect(craft.status).toBe(200);
    const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch: simFetch(h.sim) });
    const signer = createRpcGuardedSigner({ wallet: fromSecretText(bs58.encode(u.kp.secretKey)), rpc, clock: h.clock });
    const deposit = await signer.signBase64(craft.body.transaction, { kind: 'vault-deposit', mint: USDC, amount: 40_000_000n, vault: u.vault });
    const order = await h.call('POST', '/trigger/v2/orders/dca', {
      jwt: u.jwt,
      body: {
        userPubkey: u.pub,
        depositRequestId: craft.body.requestId,
        depositSignedTx: deposit.signed,
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: '40000000',
        orderCount: 4,
        intervalSeconds: 3600,
      },
    });
    expect(order.status).toBe(200);
    await h.clock.advance(1000);
    const cancel = await h.call('POST', `/trigger/v2/orders/dca/cancel/${order.body.id}`, { jwt: u.jwt });
    expect(cancel.status).toBe(200);
    const withdrawal = await signer.signBase64(cancel.body.transaction, { kind: 'vault-withdrawal', vault: u.vault });
    // The simulator lands exactly what the guard let us sign.
    const confirm = await h.call('POST', `/trigger/v2/orders/dca/confirm-cancel/${order.body.id}`, {
      jwt: u.jwt,
      body: { signedTransaction: withdrawal.signed, cancelRequestId: cancel.body.requestId },
    });
    expect(confirm.status).toBe(200);
  });

  it('swap orders, both directions, and a gasless one: accepted statically, simulated, signed and landed', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'guard-swap');
    const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch: simFetch(h.sim) });
    const poor = wallet('guard-gasless');
    h.sim.control.fund(poor.publicKey.toBase58(), 50_000_000n, USDC);
    const policy = { excludeRouters: [], maxSlippageBps: 300 };
    const cases = [
      [u.kp, SOL, USDC, '100000000', null],
      [u.kp, USDC, SOL, '20000000', null],
      // No SOL for gas: Jupiter's gas wallet pays, and signs at /execute after us.
      [poor, USDC, BONK, '20000000', null],
      // RFQ: the market maker pays and signs last, at /execute.
      [u.kp, USDC, SOL, '20000000', 'metis,dflow,okx'],
    ] as const;
    for (const [kp, inputMint, outputMint, amount, excludeRouters] of cases) {
      const u = { pub: kp.publicKey.toBase58() };
      const signer = createRpcGuardedSigner({ wallet: fromSecretText(bs58.encode(kp.secretKey)), rpc, clock: h.clock });
      const query = new URLSearchParams({
        inputMint,
        outputMint,
        amount,
        taker: u.pub,
        slippageBps: '100',
        ...(excludeRouters === null ? {} : { excludeRouters }),
      }).toString();
      const reply = await h.call('GET', `/swap/v2/order?${query}`);
      expect(reply.status).toBe(200);
      const params = { inputMint, outputMint, amount: BigInt(amount), inputDecimals: 6, slippageBps: 100 };
      const expectation = swapExpectation(params, reply.body, u.pub, policy);
      expect(expectation.gasless).toBe(kp === poor || excludeRouters !== null);
      expect(expectation.rfqMaker !== undefined).toBe(excludeRouters !== null);
      const summary = await checkTransaction(decode(reply.body.transaction), expectation, {
        ...guardFor(u),
        resolveLookupTable: createLookupTableResolver({ rpc, clock: h.clock }),
      });
      // Jupiter's real layout: the route's accounts by the IDL, the venue's behind a lookup table.
      expect(summary.lookupTables).toHaveLength(1);
      // Swap V2's forms, Jupiter's fee inside the route as the answer declares it.
      if (excludeRouters === null) {
        expect(summary.swaps).toMatchObject([
          { inAmount: BigInt(amount), quotedOutAmount: BigInt(reply.body.outAmount), slippageBps: 100, platformFeeBps: reply.body.feeBps },
        ]);
        expect(['route_v2', 'shared_accounts_route_v2']).toContain(summary.swaps[0]?.name);
      } else expect(summary.signatures[0]).toEqual({ address: reply.body.maker, state: 'empty' });
      if (kp === poor) expect(summary.signatures[0]).toEqual({ address: reply.body.signatureFeePayer, state: 'empty' });
      if (excludeRouters === null)
        await expect(
          checkTransaction(
            decode(reply.body.transaction),
            { ...expectation, maxInAmount: BigInt(amount) - 1n },
            { ...guardFor(u as TriggerUser), resolveLookupTable: createLookupTableResolver({ rpc, clock: h.clock }) },
          ),
        ).rejects.toMatchObject({ reason: 'AMOUNT_EXCEEDS_INTENT' });
      // Signed through the guard (effects simulated on the simulator's RPC), it lands.
      const signed = await signer.signBase64(reply.body.transaction, expectation);
      // The simulated output is at least the intent's minimum (SOL: less the fee budget it pays from it).
      const got = BigInt(signed.summary.effects?.deltas[outputMint] ?? '0') + (outputMint === SOL ? signed.summary.solBudgetLamports : 0n);
      expect(got).toBeGreaterThanOrEqual(expectation.minOutAmount);
      const executed = await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: signed.signed, requestId: reply.body.requestId } });
      expect(executed.body.status).toBe('Success');
      // The transaction id is the chain's: the first signature. Ours when we pay; Jupiter's gas wallet's
      // or the RFQ maker's otherwise, known only once they have signed at /execute.
      if (excludeRouters === null && kp !== poor) expect(executed.body.signature).toBe(signed.transactionId);
      else expect([signed.transactionId, executed.body.signature === signed.ownSignature]).toEqual([null, false]);
    }
  });

  it('prediction buy, partial sell, whole sell and claim', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'guard-prediction');
    h.sim.control.paperWallet(u.pub);
    const P = '/prediction/v1';
    const positions = (await h.call('GET', `${P}/positions?ownerPubkey=${u.pub}`)).body.data;
    const [a, b] = positions;
    const check = async (base64: string, expectation: Expectation): Promise<void> => {
      await expect(checkTransaction(decode(base64), expectation, guardFor(u))).resolves.toMatchObject({ kind: expectation.kind });
    };
    const buy = await h.call('POST', `${P}/orders`, {
      body: { ownerPubkey: u.pub, marketId: a.marketId, isYes: a.isYes, isBuy: true, depositAmount: '10000000' },
    });
    expect(buy.status).toBe(200);
    await check(buy.body.transaction, { kind: 'prediction-buy', mint: USDC, maxAmount: 10_000_000n });
    const partial = await h.call('POST', `${P}/orders`, {
      body: { ownerPubkey: u.pub, positionPubkey: a.pubkey, isYes: a.isYes, isBuy: false, contractsDecimal: '5' },
    });
    expect(partial.status).toBe(200);
    const sale = (
      kind: 'prediction-sell' | 'prediction-partial-sell',
      p: typeof a,
      contracts: bigint,
      reply: { body: { externalOrderId: string; order: { minSellPriceUsd: string } } },
    ): PredictionSellExpectation => ({
      kind,
      position: p.pubkey,
      isYes: p.isYes,
      maxContracts: contracts,
      minPriceMicroUsd: BigInt(reply.body.order.minSellPriceUsd),
      externalOrderId: reply.body.externalOrderId,
    });
    await check(partial.body.transaction, sale('prediction-partial-sell', a, 5_000_000n, partial));
    // The same sale read against a higher floor, or fewer contracts, is refused.
    await expect(
      checkTransaction(
        decode(partial.body.transaction),
        { ...sale('prediction-partial-sell', a, 5_000_000n, partial), minPriceMicroUsd: BigInt(partial.body.order.minSellPriceUsd) + 1n },
        guardFor(u),
      ),
    ).rejects.toMatchObject({ reason: 'PREDICTION_PRICE_BELOW_FLOOR' });
    await expect(
      checkTransaction(decode(partial.body.transaction), sale('prediction-partial-sell', a, 4_999_999n, partial), guardFor(u)),
    ).rejects.toMatchObject({ reason: 'PREDICTION_CONTRACTS_EXCEED_POSITION' });
    const whole = await h.call('DELETE', `${P}/positions/${b.pubkey}`, { body: { ownerPubkey: u.pub } });
    expect(whole.status).toBe(200);
    await check(whole.body.transaction, sale('prediction-sell', b, BigInt(b.contractsMicro ?? b.contracts), whole));
    h.sim.control.settleMarket(a.marketId, a.isYes ? 'yes' : 'no');
    const claim = await h.call('POST', `${P}/positions/${a.pubkey}/claim`, { body: { ownerPubkey: u.pub } });
    expect(claim.status).toBe(200);
    await check(claim.body.transaction, { kind: 'prediction-claim', position: a.pubkey });
    // Paid by Jupiter's prediction payer and co-signed, both signatures present and valid.
    const claimed = await checkTransaction(decode(claim.body.transaction), { kind: 'prediction-claim', position: a.pubkey }, guardFor(u));
    expect(claimed.signatures.map((x) => x.state)).toEqual(['present', 'ours', 'present']);
    expect(claimed.feePayer).not.toBe(u.pub);
    expect(claimed.lookupTables).toHaveLength(1);
    // With another program configured, the same claim is refused.
    await expect(
      checkTransaction(
        decode(claim.body.transaction),
        { kind: 'prediction-claim', position: a.pubkey },
        { ...guardFor(u), predictionPrograms: [ProgramId.memo.toBase58()] },
      ),
    ).rejects.toMatchObject({ reason: 'PROGRAM_NOT_ALLOWED' });
  });
});
