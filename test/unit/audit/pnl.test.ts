/**
 * The worked example of docs/audit.md ("P&L"), figure by figure, computed by hand: FIFO lots, fees
 * inside cost and proceeds, a swap passing its cost on, a prediction sale with no known cost; then
 * the wallet's units held before jupbot: a sale beyond a strategy's lots at their basis, the pool
 * shared first come first served, a swap passing a basis on, what remains as the wallet's holdings.
 */
import { describe, expect, it } from 'vitest';
import type { PreHeld } from '../../../src/audit/heldBefore.js';
import { computePnl, latestPrices } from '../../../src/audit/pnl.js';
import { sharedPool } from '../../../src/audit/preHeldPool.js';
import { tokenNamer } from '../../../src/audit/tokenNames.js';
import { toTrade, tradeJson } from '../../../src/audit/trades.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import type { FillRecord } from '../../../src/store/fillRecords.js';
import { formatFixed, ONE, parseFixed, unitsToFixed } from '../../../src/money/decimal.js';

const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const name = tokenNamer(new Map([[JUP, { symbol: 'JUP' }]]));

let id = 0;
function fill(strategy: string, inLeg: [string, string, number], outLeg: [string, string, number], fee?: [string, string, number]): FillRecord {
  id += 1;
  return {
    id,
    signature: `sig${id}`,
    idx: 0,
    source: inLeg[0].startsWith('prediction:') ? 'prediction' : 'swap',
    strategy,
    strategy_version: 1,
    intent_id: `${strategy}/i${id}`,
    trigger_order_id: null,
    in_mint: inLeg[0],
    in_amount: inLeg[1],
    in_decimals: inLeg[2],
    out_mint: outLeg[0],
    out_amount: outLeg[1],
    out_decimals: outLeg[2],
    fee_mint: fee?.[0] ?? null,
    fee_amount: fee?.[1] ?? null,
    fee_decimals: fee?.[2] ?? null,
    at: Date.UTC(2026, 10, 1) + id * 60_000,
  };
}

const USDC = (units: string): [string, string, number] => [USDC_MINT, units, 6];
const SOL = (units: string): [string, string, number] => [SOL_MINT, units, 9];
const JUPS = (units: string): [string, string, number] => [JUP, units, 6];

const fills = [
  fill('sol-tp', USDC('300000000'), SOL('2000000000'), USDC('300000')), // buy 2 SOL for 300 (a 0.3 fee inside): lot 2 @ 300
  fill('sol-tp', USDC('160000000'), SOL('1000000000')), // buy 1 SOL for 160: lot 1 @ 160
  fill('sol-tp', SOL('2500000000'), USDC('425000000'), USDC('425000')), // sell 2.5 SOL for 425, fee 0.425
  fill('sol-tp', SOL('250000000'), JUPS('1000000000')), // swap 0.25 SOL for 1000 JUP
  fill('sol-tp', JUPS('400000000'), USDC('20000000')), // sell 400 JUP for 20
  fill('nba-exit', ['prediction:m1:yes', '2000000', 6], USDC('1800000'), USDC('36000')), // 2 contracts for 1.8, fee 0.036
];
const trades = fills.map((f) => toTrade(f, name));

describe('trades', () => {
  it('reads each fill as a buy, a sell or a swap, with its dollar price and fee', () => {
    expect(trades.map((t) => [t.side, t.token.symbol, t.counter.symbol, t.priceUsd === null ? null : formatFixed(t.priceUsd)])).toEqual([
      ['buy', 'SOL', 'USDC', '150'],
      ['buy', 'SOL', 'USDC', '160'],
      ['sell', 'SOL', 'USDC', '170'],
      ['swap', 'SOL', 'JUP', null],
      ['sell', 'JUP', 'USDC', '0.05'],
      ['sell', 'm1 YES', 'USDC', '0.9'],
    ]);
    expect(tradeJson(trades[0] as (typeof trades)[number])).toMatchObject({
      token: { symbol: 'SOL', amount: '2', units: '2000000000' },
      counter: { symbol: 'USDC', amount: '300' },
      fee: { symbol: 'USDC', amount: '0.3', usd: '0.3' },
    });
  });
});

describe('P&L, first in first out', () => {
  const report = computePnl(trades);
  const sol = report.strategies.find((s) => s.strategy === 'sol-tp');
  const nba = report.strategies.find((s) => s.strategy === 'nba-exit');
  const text = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : formatFixed(v));

  it('realizes each sale against the oldest lots; fees are inside what was paid and received', () => {
    // 2.5 SOL sold: lot 1 (2 SOL, 300) + half of lot 2 (80) = 380; 425 received → 45.
    // 400 of 1000 JUP sold: the JUP lot cost 40 (0.25 SOL of the 80 left), 400/1000 of it = 16; 20 - 16 = 4.
    expect(text(sol?.realizedUsd)).toBe('49');
    expect(text(sol?.feesUsd)).toBe('0.725');
    expect(text(sol?.unmatchedProceedsUsd)).toBe('0');
  });

  it('values what remains at the latest price a fill shows', () => {
    // 0.25 SOL left, cost 40, at 170 → 42.5 (+2.5); 600 JUP left, cost 24, at 0.05 → 30 (+6).
    expect(
      sol?.holdings.map((h) => [h.symbol, text(unitsToFixed(h.units, h.decimals)), text(h.costUsd), text(h.priceUsd), text(h.valueUsd), text(h.unrealizedUsd)]),
    ).toEqual([
      ['JUP', '600', '24', '0.05', '30', '6'],
      ['SOL', '0.25', '40', '170', '42.5', '2.5'],
    ]);
    expect(text(sol?.unrealizedUsd)).toBe('8.5');
  });

  it('sets apart the proceeds of units with no known cost', () => {
    expect(text(nba?.realizedUsd)).toBe('0');
    expect(text(nba?.unmatchedProceedsUsd)).toBe('1.8');
    expect(text(nba?.feesUsd)).toBe('0.036');
    expect(nba?.holdings).toEqual([]);
  });

  it('adds the strategies up exactly', () => {
    expect({
      realized: text(report.total.realizedUsd),
      fees: text(report.total.feesUsd),
      unmatched: text(report.total.unmatchedProceedsUsd),
      unrealized: text(report.total.unrealizedUsd),
      trades: report.total.trades,
    }).toEqual({ realized: '49', fees: '0.761', unmatched: '1.8', unrealized: '8.5', trades: 6 });
  });

  it('leaves a holding unvalued, and the total with it, when no fill prices its token', () => {
    const unpriced = computePnl([toTrade(fill('x', SOL('1000000000'), JUPS('5000000')), name)], new Map());
    expect(unpriced.strategies[0]?.holdings[0]).toMatchObject({ symbol: 'JUP', priceUsd: null, valueUsd: null });
    expect(unpriced.total.unrealizedUsd).toBeNull();
  });
});

describe('P&L of units held before jupbot', () => {
  const T = Date.UTC(2026, 10, 1);
  const usd = (text: string): bigint => parseFixed(text) as bigint;
  // The first reading held 500 JUP (first price seen $0.04) and 1 SOL (the operator's basis, $120).
  const held = (): PreHeld[] => [
    { mint: JUP, symbol: 'JUP', decimals: 6, units: 500_000_000n, basis: { source: 'first-price', priceUsd: usd('0.04'), at: T } },
    { mint: SOL_MINT, symbol: 'SOL', decimals: 9, units: 1_000_000_000n, basis: { source: 'operator', priceUsd: usd('120'), at: T + 30_000 } },
  ];
  const text = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : formatFixed(v));
  const holdingsOf = (
    list: readonly {
      symbol: string;
      units: bigint;
      decimals: number;
      costUsd: bigint;
      basisCostUsd: bigint;
      valueUsd: bigint | null;
      unrealizedUsd: bigint | null;
    }[],
  ) => list.map((h) => [h.symbol, text(unitsToFixed(h.units, h.decimals)), text(h.costUsd), text(h.basisCostUsd), text(h.valueUsd), text(h.unrealizedUsd)]);

  it("works the example through: jup-exit sells 300 JUP it never bought at their basis; the rest is the wallet's", () => {
    const all = [...trades, toTrade(fill('jup-exit', JUPS('300000000'), USDC('15000000')), name)];
    // Closing prices: SOL as the daemon kept it ($180); JUP's last fill ($15 for 300).
    const prices = latestPrices(all);
    prices.set(SOL_MINT, { usd: usd('180'), tokens: ONE, priceUsd: usd('180') });
    const report = computePnl(all, prices, undefined, undefined, sharedPool(held()));
    const by = (name: string) => report.strategies.find((s) => s.strategy === name);
    // 300 of the 500 pre-held JUP (cost 500 × 0.04 = 20): 12; 15 received → 3.
    expect([text(by('jup-exit')?.realizedUsd), text(by('jup-exit')?.basisCostUsd), text(by('jup-exit')?.unmatchedProceedsUsd)]).toEqual(['3', '12', '0']);
    // sol-tp's own lots are untouched by the pool; its SOL is now worth the kept $180.
    expect(holdingsOf(by('sol-tp')?.holdings ?? [])).toEqual([
      ['JUP', '600', '24', '0', '30', '6'],
      ['SOL', '0.25', '40', '0', '45', '5'],
    ]);
    // What no sale took: 200 JUP (cost 8, worth 10) and 1 SOL (cost 120, worth 180).
    expect(holdingsOf(report.preHeld.holdings)).toEqual([
      ['JUP', '200', '8', '8', '10', '2'],
      ['SOL', '1', '120', '120', '180', '60'],
    ]);
    expect(report.preHeld.holdings.map((h) => [h.basis?.source, text(h.basis?.priceUsd)])).toEqual([
      ['first-price', '0.04'],
      ['operator', '120'],
    ]);
    expect(text(report.preHeld.unrealizedUsd)).toBe('62');
    expect({
      trades: report.total.trades,
      realized: text(report.total.realizedUsd),
      unrealized: text(report.total.unrealizedUsd),
      fees: text(report.total.feesUsd),
      unmatched: text(report.total.unmatchedProceedsUsd),
      basis: text(report.total.basisCostUsd),
    }).toEqual({ trades: 7, realized: '52', unrealized: '73', fees: '0.761', unmatched: '1.8', basis: '12' });
  });

  it('shares the pool first come first served; units beyond it have no known cost', () => {
    const first = toTrade(fill('a', JUPS('300000000'), USDC('15000000')), name);
    const second = toTrade(fill('b', JUPS('400000000'), USDC('20000000')), name);
    const report = computePnl([first, second], new Map(), undefined, undefined, sharedPool(held()));
    const [a, b] = report.strategies;
    expect([text(a?.realizedUsd), text(a?.basisCostUsd)]).toEqual(['3', '12']);
    // b finds 200 left (cost 8): half its 400 JUP, so half its $20 has no known cost; 10 − 8 = 2.
    expect([text(b?.realizedUsd), text(b?.basisCostUsd), text(b?.unmatchedProceedsUsd)]).toEqual(['2', '8', '10']);
    expect(report.preHeld.holdings.map((h) => h.symbol)).toEqual(['SOL']);
  });

  it('passes the basis of pre-held units a swap gives to the lot it buys, and marks it', () => {
    const swap = toTrade(fill('c', JUPS('100000000'), SOL('20000000')), name);
    const sale = toTrade(fill('c', SOL('10000000'), USDC('2000000')), name);
    const report = computePnl([swap, sale], new Map(), undefined, undefined, sharedPool(held()));
    const c = report.strategies[0];
    // 100 JUP at $0.04 = 4 into 0.02 SOL; half of it sold for $2: 2 − 2 = 0 realized; 0.01 SOL left at cost 2, all of it a basis.
    expect([text(c?.realizedUsd), text(c?.basisCostUsd)]).toEqual(['0', '4']);
    expect(holdingsOf(c?.holdings ?? [])).toEqual([['SOL', '0.01', '2', '2', null, null]]);
    expect(c?.holdings[0]?.basis).toBeNull();
  });
});
