import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { getAllPositions, type Position } from '../../../../src/jupiter/prediction.js';
import { claimIntent, NBA_MARKET, partialIntent, sellIntent } from '../../../support/intentPlans.js';
import { actionKinds, actions, fills as predictionFills } from '../../../support/journalRows.js';
import { USDC } from '../../../support/mints.js';
import { simPredictionOrders } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const PREDICTION: StackKind[] = ['sell-position', 'partial-sell', 'claim-position'];

/** A paper wallet: 20 YES contracts of the live NBA game's market, 30 NO of a crypto market. */
const paperStack = (guard?: { predictionPrograms: readonly string[] }): TestStack =>
  testStack({ kinds: PREDICTION, seed: 'prediction', paperWallet: true, guard });

/** Our open positions as the API lists them. */
const positions = (s: TestStack): Promise<Position[]> => getAllPositions(s.client, { ownerPubkey: s.wallet.address });

async function nbaPosition(s: TestStack): Promise<Position> {
  const p = (await positions(s)).find((x) => x.marketId === NBA_MARKET);
  if (!p) throw new Error('the paper wallet has no NBA position');
  return p;
}

describe('prediction sell handler', () => {
  it('sells a whole position: landed, then confirmed with one fill once the keeper fills it', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    const usdcBefore = s.sim.control.balance(s.wallet.address, USDC);
    const landed = await s.executor.execute(sellIntent(position));
    // The transaction opened the order; the keeper has not filled it yet.
    expect(landed.state).toBe('sent');
    expect(landed.orderId).not.toBeNull();
    expect(simPredictionOrders(s)).toEqual([expect.objectContaining({ pubkey: landed.orderId, status: 'pending', isBuy: false })]);

    await s.sim.control.advance(2_000);
    const row = await s.executor.drive(landed.id);
    expect(row.state).toBe('confirmed');
    const fills = predictionFills(s.db, row.id);
    expect(fills).toHaveLength(1);
    const gained = s.sim.control.balance(s.wallet.address, USDC) - usdcBefore;
    expect(fills[0]).toMatchObject({
      signature: row.signature,
      idx: 0,
      source: 'prediction',
      position_pubkey: position.pubkey,
      in_mint: `prediction:${NBA_MARKET}:yes`,
      in_amount: '20000000',
      out_mint: USDC,
      out_amount: gained.toString(),
    });
    expect(BigInt(fills[0]?.fee_amount ?? '0')).toBeGreaterThan(0n);
    expect((await positions(s)).some((p) => p.pubkey === position.pubkey)).toBe(false);

    // Deciding it again acts on the existing row: nothing built, no second fill.
    const before = s.routes.length;
    expect((await s.executor.execute(sellIntent(position))).state).toBe('confirmed');
    expect(s.routes.length).toBe(before);
    expect(predictionFills(s.db, row.id)).toHaveLength(1);
    expect(actionKinds(s.db, row.id)).toEqual([
      'intent.planned',
      'prediction.built',
      'intent.signed',
      'intent.sent',
      'intent.outcome_unknown',
      'intent.waiting',
      'intent.confirmed',
      'fill',
    ]);
    expect(simPredictionOrders(s)).toHaveLength(1);
  });

  it('sells part of a position with contractsMicro; the rest stays', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    const landed = await s.executor.execute(partialIntent(position, 5_000_000n));
    expect(landed.state).toBe('sent');
    await s.sim.control.advance(2_000);
    const row = await s.executor.drive(landed.id);
    expect(row.state).toBe('confirmed');
    expect(predictionFills(s.db, row.id)).toEqual([expect.objectContaining({ in_amount: '5000000', position_pubkey: position.pubkey })]);
    expect((await nbaPosition(s)).contractsMicro).toBe(15_000_000n);
  });

  it('refuses a build whose floor is below the minimum sell price: nothing signed', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    // The current sell price itself: the build's floor (price less its slippage) is below it.
    const row = await s.executor.execute(sellIntent(position, { minSellPriceMicroUsd: position.sellPriceUsd ?? 1n }));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('RISK_MIN_SELL_PRICE');
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.failed']);
    expect(simPredictionOrders(s)).toEqual([]);
  });

  it('the guard refuses the sell when the prediction program is not configured', async () => {
    const s = paperStack({ predictionPrograms: [] });
    const position = await nbaPosition(s);
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('GUARD_REFUSED');
    expect(JSON.parse(actions(s.db, 'guard.refused')[0]?.data ?? '{}')).toMatchObject({
      reason: 'PROGRAM_NOT_ALLOWED',
      expectation: { kind: 'prediction-sell' },
    });
    expect(simPredictionOrders(s)).toEqual([]);
  });

  it('a crash after signing: the restart sends the same bytes, one order, one fill', async () => {
    const first = paperStack();
    const position = await nbaPosition(first);
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(sellIntent(position));
    expect(stuck.state).toBe('signed');
    expect(simPredictionOrders(first)).toEqual([]);
    first.crash();

    const second = first.restart();
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    const sent = second.journal.require(stuck.id);
    expect(sent.signature).toBe(stuck.signature);
    expect(Buffer.from(sent.signedTx ?? new Uint8Array()).equals(Buffer.from(stuck.signedTx ?? new Uint8Array()))).toBe(true);
    expect(simPredictionOrders(first)).toHaveLength(1);
    await first.sim.control.advance(2_000);
    const row = await second.executor.drive(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(predictionFills(second.db, row.id)).toHaveLength(1);
    expect(simPredictionOrders(first)).toHaveLength(1);
  });

  it("a lost /execute answer is settled by the signature: one order, then the keeper's fill", async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    s.sim.control.injectFault({ path: '/prediction/v1/execute', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('sent');
    expect(simPredictionOrders(s)).toHaveLength(1);
    await s.sim.control.advance(2_000);
    const done = await s.executor.drive(row.id);
    expect(done.state).toBe('confirmed');
    expect(predictionFills(s.db, row.id)).toHaveLength(1);
    expect(simPredictionOrders(s)).toHaveLength(1);
  });

  it('a sell of a position already sold fails for good as PREDICTION_POSITION_GONE', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    await s.executor.execute(sellIntent(position));
    await s.sim.control.advance(2_000);
    await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    const again = await s.executor.execute(sellIntent(position, {}, 'stop_loss'));
    expect(again.state).toBe('failed');
    expect(again.errorCode).toBe('PREDICTION_POSITION_GONE');
    expect(JSON.parse(actions(s.db, 'intent.failed').at(-1)?.data ?? '{}')).toMatchObject({ contractsMicro: '0' });
    expect(simPredictionOrders(s)).toHaveLength(1);
  });

  it('a sell order the keeper fails (the price fell through its floor) fails the intent: nothing sold', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('sent');
    // The away team runs away with it before the keeper fills: YES collapses below the order's floor.
    s.sim.control.setScore('NBA-1001', 0, 60);
    await s.sim.control.advance(2_000);
    const done = await s.executor.drive(row.id);
    expect(done.state).toBe('failed');
    expect(done.errorCode).toBe('PREDICTION_ORDER_FAILED');
    expect(predictionFills(s.db, row.id)).toEqual([]);
    expect((await nbaPosition(s)).contractsMicro).toBe(20_000_000n);
  });
});

describe('prediction claim handler', () => {
  it('claims a settled winning position once, with its payout as the fill', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    const early = await s.executor.execute(claimIntent(position));
    // Not settled yet: "not now", the intent stays planned.
    expect(early.state).toBe('planned');
    s.sim.control.settleMarket(NBA_MARKET, 'yes');
    const usdcBefore = s.sim.control.balance(s.wallet.address, USDC);
    const row = await s.executor.drive(early.id);
    expect(row.state).toBe('confirmed');
    expect(s.sim.control.balance(s.wallet.address, USDC) - usdcBefore).toBe(20_000_000n);
    expect(predictionFills(s.db, row.id)).toEqual([
      expect.objectContaining({ signature: row.signature, source: 'prediction', position_pubkey: position.pubkey, out_amount: '20000000', fee_amount: null }),
    ]);
    await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(predictionFills(s.db, row.id)).toHaveLength(1);
  });

  it('a lost position has nothing to claim: failed for good with the reason', async () => {
    const s = paperStack();
    const position = await nbaPosition(s);
    s.sim.control.settleMarket(NBA_MARKET, 'no');
    const row = await s.executor.execute(claimIntent(position));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('PREDICTION_NOTHING_TO_CLAIM');
    expect(row.errorMessage).toContain('lost');
  });
});
