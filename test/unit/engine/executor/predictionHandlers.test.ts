import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import type { Position } from '../../../../src/jupiter/prediction.js';
import { actions } from './vaultSupport.js';
import { actionKinds } from './support.js';
import { claimIntent, NBA_MARKET, partialIntent, predictionFills, predictionWorld, type PredictionStack, sellIntent } from './predictionSupport.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function crash(s: PredictionStack): void {
  s.executor.stop();
  s.db.close();
}

async function nbaPosition(w: ReturnType<typeof predictionWorld>, s: PredictionStack): Promise<Position> {
  const p = (await w.positions(s.client)).find((x) => x.marketId === NBA_MARKET);
  if (!p) throw new Error('the paper wallet has no NBA position');
  return p;
}

describe('prediction sell handler', () => {
  it('sells a whole position: landed, then confirmed with one fill once the keeper fills it', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    const usdcBefore = w.sim.control.balance(w.wallet.address, USDC);
    const landed = await s.executor.execute(sellIntent(position));
    // The transaction opened the order; the keeper has not filled it yet.
    expect(landed.state).toBe('sent');
    expect(landed.orderId).not.toBeNull();
    expect(w.simOrders()).toEqual([expect.objectContaining({ pubkey: landed.orderId, status: 'pending', isBuy: false })]);

    await w.sim.control.advance(2_000);
    const row = await s.executor.drive(landed.id);
    expect(row.state).toBe('confirmed');
    const fills = predictionFills(s.db, row.id);
    expect(fills).toHaveLength(1);
    const gained = w.sim.control.balance(w.wallet.address, USDC) - usdcBefore;
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
    expect((await w.positions(s.client)).some((p) => p.pubkey === position.pubkey)).toBe(false);

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
    expect(w.simOrders()).toHaveLength(1);
  });

  it('sells part of a position with contractsMicro; the rest stays', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    const landed = await s.executor.execute(partialIntent(position, 5_000_000n));
    expect(landed.state).toBe('sent');
    await w.sim.control.advance(2_000);
    const row = await s.executor.drive(landed.id);
    expect(row.state).toBe('confirmed');
    expect(predictionFills(s.db, row.id)).toEqual([expect.objectContaining({ in_amount: '5000000', position_pubkey: position.pubkey })]);
    expect((await nbaPosition(w, s)).contractsMicro).toBe(15_000_000n);
  });

  it('refuses a build whose floor is below the minimum sell price: nothing signed', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    // The current sell price itself: the build's floor (price less its slippage) is below it.
    const row = await s.executor.execute(sellIntent(position, { minSellPriceMicroUsd: position.sellPriceUsd ?? 1n }));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('RISK_MIN_SELL_PRICE');
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.failed']);
    expect(w.simOrders()).toEqual([]);
  });

  it('the guard refuses the sell when the prediction program is not configured', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction({ predictionPrograms: [] });
    const position = await nbaPosition(w, s);
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('GUARD_REFUSED');
    expect(JSON.parse(actions(s.db, 'guard.refused')[0]?.data ?? '{}')).toMatchObject({
      reason: 'PROGRAM_NOT_ALLOWED',
      expectation: { kind: 'prediction-sell' },
    });
    expect(w.simOrders()).toEqual([]);
  });

  it('a crash after signing: the restart sends the same bytes, one order, one fill', async () => {
    const w = predictionWorld();
    const first = w.bootPrediction();
    const position = await nbaPosition(w, first);
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(sellIntent(position));
    expect(stuck.state).toBe('signed');
    expect(w.simOrders()).toEqual([]);
    crash(first);

    const second = w.bootPrediction();
    await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock });
    const sent = second.journal.require(stuck.id);
    expect(sent.signature).toBe(stuck.signature);
    expect(Buffer.from(sent.signedTx ?? new Uint8Array()).equals(Buffer.from(stuck.signedTx ?? new Uint8Array()))).toBe(true);
    expect(w.simOrders()).toHaveLength(1);
    await w.sim.control.advance(2_000);
    const row = await second.executor.drive(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(predictionFills(second.db, row.id)).toHaveLength(1);
    expect(w.simOrders()).toHaveLength(1);
  });

  it("a lost /execute answer is settled by the signature: one order, then the keeper's fill", async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    w.sim.control.injectFault({ path: '/prediction/v1/execute', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('sent');
    expect(w.simOrders()).toHaveLength(1);
    await w.sim.control.advance(2_000);
    const done = await s.executor.drive(row.id);
    expect(done.state).toBe('confirmed');
    expect(predictionFills(s.db, row.id)).toHaveLength(1);
    expect(w.simOrders()).toHaveLength(1);
  });

  it('a sell of a position already sold fails for good as PREDICTION_POSITION_GONE', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    await s.executor.execute(sellIntent(position));
    await w.sim.control.advance(2_000);
    await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock });
    const again = await s.executor.execute(sellIntent(position, {}, 'stop_loss'));
    expect(again.state).toBe('failed');
    expect(again.errorCode).toBe('PREDICTION_POSITION_GONE');
    expect(JSON.parse(actions(s.db, 'intent.failed').at(-1)?.data ?? '{}')).toMatchObject({ contractsMicro: '0' });
    expect(w.simOrders()).toHaveLength(1);
  });

  it('a sell order the keeper fails (the price fell through its floor) fails the intent: nothing sold', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    const row = await s.executor.execute(sellIntent(position));
    expect(row.state).toBe('sent');
    // The away team runs away with it before the keeper fills: YES collapses below the order's floor.
    w.sim.control.setScore('NBA-1001', 0, 60);
    await w.sim.control.advance(2_000);
    const done = await s.executor.drive(row.id);
    expect(done.state).toBe('failed');
    expect(done.errorCode).toBe('PREDICTION_ORDER_FAILED');
    expect(predictionFills(s.db, row.id)).toEqual([]);
    expect((await nbaPosition(w, s)).contractsMicro).toBe(20_000_000n);
  });
});

describe('prediction claim handler', () => {
  it('claims a settled winning position once, with its payout as the fill', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    const early = await s.executor.execute(claimIntent(position));
    // Not settled yet: "not now", the intent stays planned.
    expect(early.state).toBe('planned');
    w.sim.control.settleMarket(NBA_MARKET, 'yes');
    const usdcBefore = w.sim.control.balance(w.wallet.address, USDC);
    const row = await s.executor.drive(early.id);
    expect(row.state).toBe('confirmed');
    expect(w.sim.control.balance(w.wallet.address, USDC) - usdcBefore).toBe(20_000_000n);
    expect(predictionFills(s.db, row.id)).toEqual([
      expect.objectContaining({ signature: row.signature, source: 'prediction', position_pubkey: position.pubkey, out_amount: '20000000', fee_amount: null }),
    ]);
    await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock });
    expect(predictionFills(s.db, row.id)).toHaveLength(1);
  });

  it('a lost position has nothing to claim: failed for good with the reason', async () => {
    const w = predictionWorld();
    const s = w.bootPrediction();
    const position = await nbaPosition(w, s);
    w.sim.control.settleMarket(NBA_MARKET, 'no');
    const row = await s.executor.execute(claimIntent(position));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('PREDICTION_NOTHING_TO_CLAIM');
    expect(row.errorMessage).toContain('lost');
  });
});
