/**
 * The worked example of docs/audit.md ("P&L"), figure by figure, computed by hand: FIFO lots, fees
 * inside cost and proceeds, a swap passing its cost on, a prediction sale with no known cost.
 */
import { describe, expect, it } from 'vitest';
import { computePnl } from '../../../src/audit/pnl.js';
import { tokenNamer } from '../../../src/audit/tokenNames.js';
import { toTrade, tradeJson } from '../../../src/audit/trades.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import type { FillRecord } from '../../../src/store/fillRecords.js';
import { formatFixed, unitsToFixed } from '../../../src/strategies/decimal.js';

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
