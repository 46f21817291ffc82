/**
 * Rehearsed claims against the simulator standing in for Jupiter: the claim is built for the watched
 * wallet and judged, never signed or executed, and paid 1 USD per contract the rehearsal still holds,
 * only when the market really settled our way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
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

const CLAIM = /^\/prediction\/v1\/positions\/\w+\/claim$/;

describe('a rehearsed claim', () => {
  it('after settlement our way pays 1 USD per contract the rehearsal still holds, and claims nothing at Jupiter', async () => {
    const w = world('rehearsal-claim', exitStrategy({ claim: true }));
    w.sim.control.setMark(MARKET, 'no', 0.6);
    const daemon = await w.start();
    // Half sold first: the rehearsal holds 15 of the 30 contracts when NO wins.
    await driveTo(w.clock, w.net, START + 120_000);
    w.sim.control.settleMarket(MARKET, 'no');
    await driveTo(w.clock, w.net, START + 300_000);
    await daemon.stop('done');

    const { intents, fills, verdicts, costs } = rehearsed(w);
    expect(intents.map((i) => [i.kind, i.state])).toEqual([
      ['partial-sell', 'confirmed'],
      ['claim-position', 'confirmed'],
    ]);
    const claim = intents[1];
    const position = await realPosition(w);
    expect(verdicts.filter((v) => v.intentId === claim?.id)).toEqual([
      expect.objectContaining({ kind: 'prediction-claim', verdict: 'accepted', expectation: { kind: 'prediction-claim', position: position.pubkey } }),
    ]);
    // Jupiter's build pays the real 30 contracts; the rehearsal is paid for its own 15, at 1 USD each, free.
    const [build] = builds(w, CLAIM);
    expect(build?.['position']).toMatchObject({ contractsMicro: HELD.toString(), payoutAmountUsd: HELD.toString() });
    expect(fills[1]).toEqual(
      expect.objectContaining({
        intent_id: claim?.id,
        source: 'prediction',
        position_pubkey: position.pubkey,
        in_mint: NO_LEG,
        in_amount: '15000000',
        out_mint: USDC,
        out_amount: '15000000',
        fee_mint: null,
        fee_amount: null,
      }),
    );
    expect(costs.find((c) => c.intent_id === claim?.id)?.lamports).toBe('0');
    // At Jupiter the winning position is still there, whole and unclaimed.
    expect(position).toMatchObject({ contractsMicro: HELD.toString(), claimed: false, claimable: true });
    expect(w.writes.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /prediction/v1/orders', `POST /prediction/v1/positions/${position.pubkey}/claim`]);
    expectNothingExecuted(w);
  }, 120_000);

  it('is not paid when the market does not read as settled our way, though Jupiter built the claim', async () => {
    const w = world('rehearsal-claim-lost', exitStrategy({ claim: true }));
    // NO at 0.50: no rule sells. NO wins, and Jupiter builds the claim...
    w.sim.control.setMark(MARKET, 'no', 0.5);
    w.sim.control.settleMarket(MARKET, 'no');
    // ... while the market itself reads YES: a rehearsal pays no claim on Jupiter's build alone.
    const market = (await w.read(`/prediction/v1/markets/${MARKET}`)) as Record<string, unknown>;
    expect(market).toMatchObject({ status: 'closed', result: 'no' });
    w.sim.control.injectFault({ path: `/prediction/v1/markets/${MARKET}`, method: 'GET', kind: 'status', status: 200, body: { ...market, result: 'yes' } });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 120_000);
    await daemon.stop('done');

    const { intents, fills, verdicts } = rehearsed(w);
    // A prediction exit protects a position: its rule asks again a minute later, with the same answer.
    expect(intents.length).toBeGreaterThanOrEqual(1);
    expect(intents.map((i) => [i.kind, i.state, i.error_code])).toEqual(intents.map(() => ['claim-position', 'failed', 'PREDICTION_NOTHING_TO_CLAIM']));
    expect(intents[0]?.error_message).toMatch(/reads closed, result yes: no payout is rehearsed/);
    // Each transaction was received and judged all the same.
    expect(verdicts.map((v) => [v.intentId, v.kind, v.verdict])).toEqual(intents.map((i) => [i.id, 'prediction-claim', 'accepted']));
    expect(fills).toEqual([]);
    expectNothingExecuted(w);
  }, 120_000);

  it("fails with Jupiter's reason when the build is refused for good, having received nothing to judge", async () => {
    const w = world('rehearsal-claim-refused', exitStrategy({ claim: true }));
    w.sim.control.setMark(MARKET, 'no', 0.5);
    w.sim.control.settleMarket(MARKET, 'no');
    // Jupiter refuses the claim, and the market reads cancelled: refused for good, as live mode reads it.
    const market = (await w.read(`/prediction/v1/markets/${MARKET}`)) as Record<string, unknown>;
    w.sim.control.injectFault({
      path: `/prediction/v1/markets/${MARKET}`,
      method: 'GET',
      kind: 'status',
      status: 200,
      body: { ...market, status: 'cancelled', result: null },
    });
    const refusal = { type: 'invalid_request_error', message: 'Position is not claimable', code: 'not_claimable', request_id: 'sim' };
    w.sim.control.injectFault({ path: '/prediction/v1/positions/*', method: 'POST', kind: 'status', status: 400, body: refusal });
    const daemon = await w.start();
    await driveTo(w.clock, w.net, START + 120_000);
    await daemon.stop('done');

    const { intents, fills, verdicts } = rehearsed(w);
    expect(intents.length).toBeGreaterThanOrEqual(1);
    expect(intents.map((i) => [i.kind, i.state, i.error_code])).toEqual(intents.map(() => ['claim-position', 'failed', 'PREDICTION_NOTHING_TO_CLAIM']));
    expect(intents[0]?.error_message).toMatch(/the market was cancelled/);
    expect(intents[0]?.failure).toMatchObject({ apiCode: 'not_claimable', status: 400, marketStatus: 'cancelled' });
    // No transaction came back, so none was judged; nothing was filled.
    expect(verdicts).toEqual([]);
    expect(fills).toEqual([]);
    expectNothingExecuted(w);
  }, 120_000);
});
