/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { prediction } from '../../src/jupiter/schemas/index.js';
import { missingKeys, signTx, startSim, USDC, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

const P = '/prediction/v1';
const POSITION_REQUIRED = [
  'pubkey',
  'owner',
  'ownerPubkey',
  'market',
  'marketId',
  'marketIdHash',
  'isYes',
  'contracts',
  'totalCostUsd',
  'sizeUsd',
  'valueUsd',
  'avgPriceUsd',
  'markPriceUsd',
  'sellPriceUsd',
  'pnlUsd',
  'pnlUsdPercent',
  'pnlUsdAfterFees',
  'pnlUsdAfterFeesPercent',
  'openOrders',
  'feesPaidUsd',
  'realizedPnlUsd',
  'claimed',
  'claimedUsd',
  'openedAt',
  'updatedAt',
  'claimableAt',
  'payoutUsd',
  'bump',
  'eventId',
  'eventMetadata',
  'marketMetadata',
  'settlementDate',
  'claimable',
];
const EVENT_REQUIRED = ['eventId', 'isActive', 'isLive', 'category', 'subcategory', 'volumeUsd', 'closeCondition', 'beginAt', 'rulesPdf'];
const MARKET_REQUIRED = ['marketId', 'status', 'result', 'openTime', 'closeTime', 'resolveAt'];
const ORDER_REQUIRED = [
  'pubkey',
  'owner',
  'ownerPubkey',
  'market',
  'marketId',
  'marketIdHash',
  'eventId',
  'position',
  'status',
  'isYes',
  'isBuy',
  'createdAt',
  'updatedAt',
  'contracts',
  'maxFillPriceUsd',
  'maxBuyPriceUsd',
  'minSellPriceUsd',
  'filledAt',
  'filledContracts',
  'avgFillPriceUsd',
  'settled',
  'orderId',
  'sizeUsd',
  'eventMetadata',
  'marketMetadata',
  'externalOrderId',
  'bump',
];
const HISTORY_REQUIRED = [
  'id',
  'eventType',
  'signature',
  'slot',
  'timestamp',
  'orderPubkey',
  'positionPubkey',
  'marketId',
  'ownerPubkey',
  'keeperPubkey',
  'externalOrderId',
  'orderId',
  'isBuy',
  'isYes',
  'contracts',
  'filledContracts',
  'contractsSettled',
  'maxFillPriceUsd',
  'avgFillPriceUsd',
  'maxBuyPriceUsd',
  'minSellPriceUsd',
  'depositAmountUsd',
  'totalCostUsd',
  'feeUsd',
  'grossProceedsUsd',
  'netProceedsUsd',
  'transferAmountToken',
  'realizedPnl',
  'realizedPnlBeforeFees',
  'payoutAmountUsd',
  'eventId',
  'marketMetadata',
  'eventMetadata',
];
const CREATE_REQUIRED = [
  'orderPubkey',
  'orderAtaPubkey',
  'userPubkey',
  'marketId',
  'marketIdHash',
  'positionPubkey',
  'isBuy',
  'isYes',
  'contracts',
  'newContracts',
  'maxBuyPriceUsd',
  'minSellPriceUsd',
  'externalOrderId',
  'orderCostUsd',
  'newAvgPriceUsd',
  'newSizeUsd',
  'newPayoutUsd',
  'estimatedProtocolFeeUsd',
  'estimatedVenueFeeUsd',
  'estimatedTotalFeeUsd',
];

function paper(label: string): { kp: ReturnType<typeof wallet>; pub: string } {
  const kp = wallet(label);
  h.sim.control.paperWallet(kp.publicKey.toBase58());
  return { kp, pub: kp.publicKey.toBase58() };
}

async function execute(tx: string, kp: ReturnType<typeof wallet>): Promise<prediction.PredictionExecuteResponse> {
  const r = await h.call('POST', `${P}/execute`, { body: { signedTransaction: signTx(tx, kp) } });
  expect(r.status).toBe(200);
  return prediction.PredictionExecuteResponse.parse(r.body);
}

describe('prediction markets', () => {
  it('lists events across categories with markets, moving prices and a buy/sell spread', async () => {
    h = await startSim();
    const all = await h.call('GET', `${P}/events?includeMarkets=true`);
    const parsed = prediction.EventsResponse.parse(all.body);
    expect(parsed.pagination?.total).toBeGreaterThanOrEqual(10);
    const cats = new Set(prediction.EventsResponse.parse((await h.call('GET', `${P}/events?end=100`)).body).data.map((e) => e.category));
    expect([...cats].sort()).toEqual(['crypto', 'culture', 'economics', 'esports', 'politics', 'sports', 'tech']);
    for (const e of all.body.data) expect(missingKeys(e, EVENT_REQUIRED)).toEqual([]);
    const crypto = prediction.EventsResponse.parse((await h.call('GET', `${P}/events?category=crypto&includeMarkets=true`)).body).data[0];
    const market = crypto?.markets?.[0];
    expect(missingKeys(all.body.data[0].markets[0], MARKET_REQUIRED)).toEqual([]);
    const p = market?.pricing;
    expect(Number(p?.buyYesPriceUsd)).toBeGreaterThan(Number(p?.sellYesPriceUsd));
    expect(Number(p?.buyYesPriceUsd) + Number(p?.sellNoPriceUsd)).toBe(1_000_000);
    await h.clock.advance(3_600_000);
    const later = prediction.Market.parse((await h.call('GET', `${P}/markets/${market?.marketId}`)).body);
    expect(later.pricing?.buyYesPriceUsd).not.toBe(p?.buyYesPriceUsd);
    expect((await h.call('GET', `${P}/events?category=nope`)).status).toBe(400);
    expect((await h.call('GET', `${P}/markets/unknown`)).status).toBe(404);
    const search = prediction.EventsResponse.parse((await h.call('GET', `${P}/events/search?query=lakers`)).body);
    expect(search.data[0]?.eventId).toBe('NBA-1001');
  });

  it('serves orderbooks in cents and dollars', async () => {
    h = await startSim();
    const book = await h.call('GET', `${P}/orderbook/BTC-1006-M1`);
    const parsed = prediction.Orderbook.parse(book.body);
    expect(parsed).not.toBeNull();
    expect(book.body.yes.length).toBeGreaterThan(0);
    const [cents, size] = book.body.yes[0] as [number, number];
    expect(book.body.yes_dollars[0]).toEqual([(cents / 100).toFixed(4), size]);
    const sorted = [...book.body.no].sort((a: number[], b: number[]) => (a[0] ?? 0) - (b[0] ?? 0));
    expect(book.body.no).toEqual(sorted);
  });

  it('plays games through periods to an end, then the market settles and the winner claims', async () => {
    h = await startSim();
    const { kp, pub } = paper('fan');
    const score0 = prediction.GameScore.parse((await h.call('GET', `${P}/events/NBA-1001/score`)).body);
    expect(score0.live).toBe(true);
    // Twenty minutes into a game of 30-minute quarters (the clock stops): 8 of the first quarter's 12 played.
    expect(score0).toMatchObject({ period: 'Q1', elapsed: '4:00' });
    const seen = new Set<string>();
    for (let i = 0; i < 30 && !seen.has('final'); i++) {
      await h.clock.advance(600_000);
      const s = prediction.ScoresResponse.parse((await h.call('GET', `${P}/events/scores?eventIds=NBA-1001,NFL-1002`)).body).data[0];
      seen.add(s?.status ?? '');
      if (s?.period) seen.add(s.period);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['Q2', 'HT', 'Q3', 'Q4', 'final']));
    expect([...seen].filter((p) => p.startsWith('FT'))).toHaveLength(1);
    await h.clock.advance(61_000);
    const market = prediction.Market.parse((await h.call('GET', `${P}/markets/NBA-1001-M1`)).body);
    expect(market.status).toBe('closed');
    expect(['yes', 'no']).toContain(market.result);
    const positions = prediction.PositionsResponse.parse((await h.call('GET', `${P}/positions?ownerPubkey=${pub}&marketId=NBA-1001-M1`)).body).data;
    const pos = positions[0];
    expect(pos).toMatchObject({ marketId: 'NBA-1001-M1', ownerPubkey: pub });
    const claim = await h.call('POST', `${P}/positions/${pos?.pubkey}/claim`, { body: { ownerPubkey: pub } });
    if (market.result === 'yes') {
      const build = prediction.ClaimPositionResponse.parse(claim.body);
      const before = h.sim.control.balance(pub, USDC);
      expect((await execute(build.transaction, kp)).status).toBe('Success');
      expect(h.sim.control.balance(pub, USDC) - before).toBe(20_000_000n);
    } else {
      expect(claim.body.message).toBe('Position is not claimable');
    }
  });

  it('refuses to claim before settlement', async () => {
    h = await startSim();
    const { pub } = paper('early');
    const pos = prediction.PositionsResponse.parse((await h.call('GET', `${P}/positions?ownerPubkey=${pub}`)).body).data[0];
    const r = await h.call('POST', `${P}/positions/${pos?.pubkey}/claim`, { body: { ownerPubkey: pub } });
    expect(r.status).toBe(400);
    expect(prediction.PredictionErrorBody.parse(r.body).message).toBe('Market not settled yet');
    h.sim.control.settleMarket(pos?.marketId ?? '', pos?.isYes ? 'yes' : 'no');
    expect((await h.call('POST', `${P}/positions/${pos?.pubkey}/claim`, { body: { ownerPubkey: pub } })).status).toBe(200);
  });

  it('sells a whole position, part of one, and closes all, through /execute and the keeper', async () => {
    h = await startSim();
    const { kp, pub } = paper('seller');
    const list = await h.call('GET', `${P}/positions?ownerPubkey=${pub}`);
    for (const p of list.body.data) expect(missingKeys(p, POSITION_REQUIRED)).toEqual([]);
    const [a, b] = prediction.PositionsResponse.parse(list.body).data;
    // Partial sell of 5 contracts.
    const partial = await h.call('POST', `${P}/orders`, {
      body: { ownerPubkey: pub, positionPubkey: a?.pubkey, isYes: a?.isYes, isBuy: false, contractsDecimal: '5' },
    });
    expect(partial.status).toBe(200);
    const build = prediction.CreateOrderResponse.parse(partial.body);
    expect(missingKeys(partial.body.order, CREATE_REQUIRED)).toEqual([]);
    const usdcBefore = h.sim.control.balance(pub, USDC);
    const exec = await execute(build.transaction as string, kp);
    expect(exec.status).toBe('Success');
    const status = await h.call('GET', `${P}/orders/status/${build.order.orderPubkey}`);
    expect(status.body.status).toBe('created');
    const pending = await h.call('GET', `${P}/orders/${build.order.orderPubkey}`);
    expect(missingKeys(pending.body, ORDER_REQUIRED)).toEqual([]);
    await h.clock.advance(2000);
    expect((await h.call('GET', `${P}/orders/status/${build.order.orderPubkey}`)).body.status).toBe('filled');
    expect(h.sim.control.balance(pub, USDC)).toBeGreaterThan(usdcBefore);
    const after = prediction.Position.parse((await h.call('GET', `${P}/positions/${a?.pubkey}`)).body);
    expect(after.contractsMicro).toBe(15_000_000n);
    // Replaying the same signed bytes does nothing more.
    const replay = await execute(build.transaction as string, kp);
    expect(replay.signature).toBe(exec.signature);
    // Sell the whole of the other one.
    const whole = prediction.CreateOrderResponse.parse((await h.call('DELETE', `${P}/positions/${b?.pubkey}`, { body: { ownerPubkey: pub } })).body);
    expect(whole.order.contractsMicro).toBe(30_000_000n);
    expect((await execute(whole.transaction as string, kp)).status).toBe('Success');
    await h.clock.advance(2000);
    // Close all: only what is left of the first position.
    const closeAll = prediction.CloseAllPositionsResponse.parse(
      (await h.call('DELETE', `${P}/positions`, { body: { ownerPubkey: pub, minSellPriceSlippageBps: 300 } })).body,
    );
    expect(closeAll.data).toHaveLength(1);
    expect((await execute((closeAll.data[0] as { transaction: string }).transaction, kp)).status).toBe('Success');
    await h.clock.advance(2000);
    expect(prediction.PositionsResponse.parse((await h.call('GET', `${P}/positions?ownerPubkey=${pub}`)).body).data).toHaveLength(0);
    const hist = await h.call('GET', `${P}/history?ownerPubkey=${pub}&end=50`);
    for (const e of hist.body.data) expect(missingKeys(e, HISTORY_REQUIRED)).toEqual([]);
    expect(hist.body.data.map((e: { eventType: string }) => e.eventType)).toContain('order_filled');
  });

  it('buys with at least $5 and rejects foreign or unsigned transactions', async () => {
    h = await startSim();
    const { kp, pub } = paper('buyer');
    expect(
      (await h.call('POST', `${P}/orders`, { body: { ownerPubkey: pub, marketId: 'BTC-1006-M1', isYes: true, isBuy: true, depositAmount: '4000000' } })).body
        .message,
    ).toBe('Minimum order is $5');
    const buy = prediction.CreateOrderResponse.parse(
      (await h.call('POST', `${P}/orders`, { body: { ownerPubkey: pub, marketId: 'BTC-1006-M1', isYes: true, isBuy: true, depositAmount: '10000000' } })).body,
    );
    const unsigned = await h.call('POST', `${P}/execute`, { body: { signedTransaction: buy.transaction } });
    expect(unsigned.body.status).toBe('Failed');
    const thief = wallet('thief');
    expect(() => signTx(buy.transaction as string, thief)).toThrow();
    expect((await execute(buy.transaction as string, kp)).status).toBe('Success');
    await h.clock.advance(2000);
    const pos = prediction.PositionsResponse.parse((await h.call('GET', `${P}/positions?ownerPubkey=${pub}&marketId=BTC-1006-M1&isYes=true`)).body).data[0];
    expect(pos?.contractsMicro).toBeGreaterThan(0n);
    expect((await h.call('POST', `${P}/execute`, { body: { signedTransaction: 'AQ==' } })).status).toBe(400);
  });

  it('pauses trading in its daily window and on request', async () => {
    h = await startSim();
    const { pub } = paper('window');
    expect(prediction.TradingStatus.parse((await h.call('GET', `${P}/trading-status`)).body).trading_active).toBe(true);
    // 12:00 → 04:05 the next day.
    await h.clock.advance((16 * 60 + 5) * 60_000);
    expect((await h.call('GET', `${P}/trading-status`)).body.trading_active).toBe(false);
    const pos = prediction.PositionsResponse.parse((await h.call('GET', `${P}/positions?ownerPubkey=${pub}`)).body).data.find((p) =>
      p.marketId.startsWith('BTC'),
    );
    const r = await h.call('DELETE', `${P}/positions/${pos?.pubkey}`, { body: { ownerPubkey: pub } });
    expect(r.body.code).toBe('trading_inactive');
    await h.clock.advance(10 * 60_000);
    expect((await h.call('GET', `${P}/trading-status`)).body.trading_active).toBe(true);
    h.sim.control.setTradingActive(false);
    expect((await h.call('GET', `${P}/trading-status`)).body.trading_active).toBe(false);
  });
});

describe('prediction rollover', () => {
  it('replaces a settled event with a successor, so long paper runs keep live games', async () => {
    h = await startSim();
    h.sim.control.settleMarket('NBA-1001-M1', 'yes');
    const nba = prediction.EventsResponse.parse((await h.call('GET', `${P}/events?category=sports&end=100&includeMarkets=true`)).body).data.filter((e) =>
      e.eventId.startsWith('NBA-'),
    );
    expect(nba.map((e) => e.eventId)).toEqual(['NBA-1001', 'NBA-1013']);
    expect(nba[1]?.markets?.[0]?.status).toBe('open');
    await h.clock.advance(3_600_000 + 1000);
    expect(prediction.GameScore.parse((await h.call('GET', `${P}/events/NBA-1013/score`)).body).live).toBe(true);
  });
});
