/**
 * Rehearsed prediction sales against the simulator standing in for Jupiter: the sale is built for the
 * watched wallet through the real routes, judged by the guard, never signed or executed, and filled
 * in the rehearsal database at the build's quote. The strategy then sees the position the rehearsal
 * holds, not the untouched real one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import type { Db } from '../../../src/store/db.js';
import Database from 'better-sqlite3';
import { ledgerBalances } from '../../../src/rehearsal/ledger.js';
import { rehearsalWorld, type RehearsalWorld } from './support/rehearsalWorld.js';
import { builds, exitStrategy, expectNothingExecuted, HELD, MARKET, NO_LEG, realPosition, rehearsed, START, USDC } from './support/predictionRehearsal.js';

const worlds: RehearsalWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

function world(seed: string, strategy: string): RehearsalWorld {
  const w = rehearsalWorld({ seed, startAt: START, strategies: { 'btc-no': strategy }, predictionWalk: false });
  worlds.push(w);
  return w;
}

const ORDERS = /^\/prediction\/v1\/orders$/;

describe('a rehearsed partial sale', () => {
  it("is built for the watched wallet, judged, filled at the build's quote, and leaves the real position as it was", async () => {
    const w = world('rehearsal-partial', exitStrategy({}));
    // NO sells at 0.60: the strategy's 0.55 rule fires at once.
    w.sim.control.setMark(MARKET, 'no', 0.6);
    const before = await realPosition(w);
    const usdcBefore = w.sim.control.balance(w.wallet, USDC);
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 120_000);
    await daemon.stop('done');

    const { intents, fills, verdicts, costs } = rehearsed(w);
    expect(intents.map((i) => [i.kind, i.state])).toEqual([['partial-sell', 'confirmed']]);
    const [intent] = intents;
    expect(JSON.parse(intent?.params ?? '{}')).toMatchObject({ positionPubkey: before.pubkey, contractsMicro: '15000000', isYes: false });

    // The one transaction received was judged under the expectation live mode signs it with, and accepted.
    expect(verdicts).toEqual([
      expect.objectContaining({
        intentId: intent?.id,
        kind: 'prediction-partial-sell',
        verdict: 'accepted',
        expectation: expect.objectContaining({ position: before.pubkey, maxContracts: '15000000', minPriceMicroUsd: '400000' }) as unknown,
      }),
    ]);

    // Filled at the figures the build answered: its contracts, its notional less its estimated fee.
    const [build] = builds(w, ORDERS);
    const order = build?.['order'] as { contractsMicro: string; orderCostUsd: string; estimatedTotalFeeUsd: string };
    const net = BigInt(order.orderCostUsd) - BigInt(order.estimatedTotalFeeUsd);
    expect(fills).toEqual([
      expect.objectContaining({
        intent_id: intent?.id,
        source: 'prediction',
        position_pubkey: before.pubkey,
        in_mint: NO_LEG,
        in_amount: order.contractsMicro,
        out_mint: USDC,
        out_amount: net.toString(),
        fee_mint: USDC,
        fee_amount: order.estimatedTotalFeeUsd,
      }),
    ]);
    // ... which is the market's bid for NO (0.60) on 15 contracts, before the fee.
    expect(BigInt(fills[0]?.out_amount ?? 0) + BigInt(fills[0]?.fee_amount ?? 0)).toBe(15n * 600_000n);
    expect(costs).toEqual([expect.objectContaining({ intent_id: intent?.id, lamports: '0' })]);

    // The ledger holds the proceeds as USDC; the contracts are the positions overlay's, not a token.
    const db: Db = new Database(w.database, { readonly: true });
    try {
      const balances = ledgerBalances(db);
      expect(balances.get(USDC)).toBe(usdcBefore + net);
      expect([...balances.keys()].filter((m) => m.startsWith('prediction:'))).toEqual([]);
    } finally {
      db.close();
    }

    // Nothing changed at Jupiter or on chain: the position, its orders, the wallet's USDC.
    expect(await realPosition(w)).toMatchObject({ contractsMicro: HELD.toString(), openOrders: 0, claimed: false });
    expect(w.sim.control.balance(w.wallet, USDC)).toBe(usdcBefore);
    expect(w.writes.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /prediction/v1/orders']);
    expectNothingExecuted(w);
  }, 120_000);
});

describe('the positions a rehearsal holds', () => {
  it('are what the strategy sees, across a restart: the rest is sold once, for what the rehearsal still holds', async () => {
    const w = world('rehearsal-rest', exitStrategy({ rest: true }));
    w.sim.control.setMark(MARKET, 'no', 0.6);
    const first = await w.start();
    await driveTo(w.clock, w.net, START + 120_000);
    await first.stop('done');

    // A new process on the same database: the overlay is read from the fills, not kept in memory.
    w.sim.control.setMark(MARKET, 'no', 0.75);
    const second = await w.start();
    await driveTo(w.clock, w.net, START + 240_000);
    // Still above every rule's price: a strategy that saw the real position would sell it again.
    w.sim.control.setMark(MARKET, 'no', 0.8);
    await driveTo(w.clock, w.net, START + 600_000);
    await second.stop('done');

    const { intents, fills, verdicts } = rehearsed(w);
    expect(intents.map((i) => [i.kind, i.state])).toEqual([
      ['partial-sell', 'confirmed'],
      ['sell-position', 'confirmed'],
    ]);
    // The whole sale was decided on the 15 contracts the rehearsal holds, not the real 30.
    expect(JSON.parse(intents[1]?.params ?? '{}')).toMatchObject({ contractsMicro: '15000000' });
    expect(fills.map((f) => f.in_amount)).toEqual(['15000000', '15000000']);
    expect(fills.reduce((sum, f) => sum + BigInt(f.in_amount), 0n)).toBe(HELD);
    // Jupiter would sell the real 30 on `DELETE /positions/{pubkey}`: the rest was built as the share it is.
    expect(verdicts.map((v) => [v.kind, v.verdict, v.expectation?.['maxContracts']])).toEqual([
      ['prediction-partial-sell', 'accepted', '15000000'],
      ['prediction-partial-sell', 'accepted', '15000000'],
    ]);
    const [, rest] = builds(w, ORDERS);
    expect(BigInt(fills[1]?.out_amount ?? 0) + BigInt(fills[1]?.fee_amount ?? 0)).toBe(BigInt((rest?.['order'] as { orderCostUsd: string }).orderCostUsd));
    expect(await realPosition(w)).toMatchObject({ contractsMicro: HELD.toString(), openOrders: 0 });
    expect(w.writes.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /prediction/v1/orders', 'POST /prediction/v1/orders']);
    expectNothingExecuted(w);
  }, 120_000);
});

describe('a rehearsed sale refused', () => {
  it("by the build's own check fails with its reason, the transaction received still given its verdict", async () => {
    // The build's floor is 2% under the bid (0.588): below the strategy's minimum of 0.59.
    const w = world('rehearsal-floor', exitStrategy({ minSell: '0.59' }));
    w.sim.control.setMark(MARKET, 'no', 0.6);
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 60_000);
    await daemon.stop('done');

    const { intents, fills, verdicts } = rehearsed(w);
    expect(intents.length).toBeGreaterThanOrEqual(1);
    expect(intents.map((i) => [i.state, i.error_code])).toEqual(intents.map(() => ['failed', 'RISK_MIN_SELL_PRICE']));
    expect(intents[0]?.failure).toMatchObject({ minSellPriceUsd: '588000', minSellPriceMicroUsd: '590000' });
    expect(verdicts.map((v) => [v.intentId, v.verdict, v.by, v.reason, v.expectation?.['minPriceMicroUsd']])).toEqual(
      intents.map((i) => [i.id, 'refused', 'intent-check', 'RISK_MIN_SELL_PRICE', '590000']),
    );
    expect(fills).toEqual([]);
    expectNothingExecuted(w);
  }, 120_000);

  it("by the guard fails with the guard's reason; a fresh build is judged again and filled", async () => {
    const w = world('rehearsal-hostile', exitStrategy({}));
    w.sim.control.setMark(MARKET, 'no', 0.6);
    // The next sale built asks to sell more contracts than decided.
    w.sim.control.injectFault({ path: '/prediction/v1/orders', method: 'POST', kind: 'hostile', variant: 'prediction-more-contracts', count: 1 });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 300_000);
    await daemon.stop('done');

    const { intents, fills, verdicts } = rehearsed(w);
    const [refused, retried] = intents;
    expect([refused?.state, refused?.error_code]).toEqual(['failed', 'GUARD_REFUSED']);
    expect(refused?.failure).toMatchObject({ reason: 'PREDICTION_CONTRACTS_EXCEED_POSITION', rehearsal: true });
    expect(verdicts.filter((v) => v.intentId === refused?.id).map((v) => [v.verdict, v.reason])).toEqual([['refused', 'PREDICTION_CONTRACTS_EXCEED_POSITION']]);
    // The rule decided again (GUARD_REFUSED lets it): the new build was genuine, accepted and filled once.
    expect(retried?.state).toBe('confirmed');
    expect(verdicts.filter((v) => v.intentId === retried?.id).map((v) => v.verdict)).toEqual(['accepted']);
    expect(fills.map((f) => [f.intent_id, f.in_amount])).toEqual([[retried?.id, '15000000']]);
    expectNothingExecuted(w);
  }, 120_000);
});
