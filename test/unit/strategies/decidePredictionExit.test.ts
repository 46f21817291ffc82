import { describe, expect, it } from 'vitest';
import { decidePredictionExit } from '../../../src/strategies/decidePredictionExit.js';
import { describeDecision } from '../../../src/strategies/describeStrategy.js';
import { intentSlot } from '../../../src/strategies/intents.js';
import type { LoadedPredictionExit } from '../../../src/strategies/loadedStrategy.js';
import type { MarketView, PositionView, ScoreView, Snapshot } from '../../../src/strategies/snapshot.js';
import { load, snapshot, T0 } from './helpers.js';

const MIN = 60_000;
const market: MarketView = { marketId: 'NBA-1001-M1', eventId: 'NBA-1001', status: 'open', closeTime: T0 + 60 * MIN, result: null };
const yes: PositionView = {
  pubkey: 'posYes',
  marketId: 'NBA-1001-M1',
  isYes: true,
  contractsMicro: 20_000_000n,
  sellPriceMicroUsd: 600_000n,
  claimable: false,
  claimed: false,
};
const no: PositionView = { ...yes, pubkey: 'posNo', isYes: false, sellPriceMicroUsd: 400_000n };

function snap(over: { positions?: PositionView[]; score?: Partial<ScoreView>; market?: Partial<MarketView>; trading?: boolean | null } = {}): Snapshot {
  const score: ScoreView = { eventId: 'NBA-1001', home: 80, away: 70, period: 4, elapsedMs: 25 * MIN, live: true, ...over.score };
  return snapshot({
    positions: over.positions ?? [yes],
    markets: new Map([[market.marketId, { ...market, ...over.market }]]),
    scores: new Map([['NBA-1001', score]]),
    tradingActive: over.trading === undefined ? true : over.trading,
  });
}

async function pe(rules: string, extra = ''): Promise<LoadedPredictionExit> {
  return load<LoadedPredictionExit>(`name: pe\nkind: prediction-exit\npositions: { market: NBA-1001-M1 }\nrules:\n${rules}${extra}`);
}

function fired(s: LoadedPredictionExit, snapshotValue: Snapshot, state = {}, now = T0): string[] {
  return decidePredictionExit(s, state, snapshotValue, now).intents.map((i) => `${i.kind}:${i.key.rule}:${i.key.trigger}`);
}

describe('decidePredictionExit rules', () => {
  it.each([
    ['sell price at least, reached', '  - { id: r, when: { sell_price_at_least: "0.6" } }\n', {}, ['sell-position:r:posYes']],
    ['sell price at least, not reached', '  - { id: r, when: { sell_price_at_least: "0.61" } }\n', {}, []],
    ['sell price at most, reached', '  - { id: r, when: { sell_price_at_most: "0.6" } }\n', {}, ['sell-position:r:posYes']],
    ['lead for the side held (YES backs home, 80-70)', '  - { id: r, when: { score: { lead_at_least: 10 } } }\n', {}, ['sell-position:r:posYes']],
    ['lead too small', '  - { id: r, when: { score: { lead_at_least: 11 } } }\n', {}, []],
    ['deficit for the side held (NO backs away)', '  - { id: r, when: { score: { deficit_at_least: 10 } } }\n', { positions: [no] }, ['sell-position:r:posNo']],
    ['deficit when YES leads', '  - { id: r, when: { score: { deficit_at_least: 1 } } }\n', {}, []],
    ['period reached', '  - { id: r, when: { score: { period_at_least: 4 } } }\n', {}, ['sell-position:r:posYes']],
    ['period not reached', '  - { id: r, when: { score: { period_at_least: 4 } } }\n', { score: { period: 3 } }, []],
    ['elapsed reached', '  - { id: r, when: { score: { elapsed_at_least: 25m } } }\n', {}, ['sell-position:r:posYes']],
    ['elapsed not reached', '  - { id: r, when: { score: { elapsed_at_least: 26m } } }\n', {}, []],
    ['score not live', '  - { id: r, when: { score: { lead_at_least: 1 } } }\n', { score: { live: false } }, []],
    ['minutes before close, inside', '  - { id: r, when: { before_close: 1h } }\n', {}, ['sell-position:r:posYes']],
    ['minutes before close, outside', '  - { id: r, when: { before_close: 59m } }\n', {}, []],
    ['all conditions must hold', '  - { id: r, when: { sell_price_at_least: "0.5", score: { lead_at_least: 20 } } }\n', {}, []],
    [
      'the first rule that fires wins',
      '  - { id: a, when: { sell_price_at_least: "0.9" } }\n  - { id: b, when: { sell_price_at_least: "0.5" } }\n  - { id: c, when: { sell_price_at_least: "0.1" } }\n',
      {},
      ['sell-position:b:posYes'],
    ],
    ['market closed: no sell', '  - { id: r, when: { sell_price_at_least: "0.1" } }\n', { market: { status: 'closed' as const } }, []],
  ])('%s', async (_name, rules, over, expected) => {
    expect(fired(await pe(rules), snap(over))).toEqual(expected);
  });

  it('sells from the peak: trailing_from_peak', async () => {
    const s = await pe('  - { id: trail, when: { trailing_from_peak: "20%" } }\n');
    expect(fired(s, snap(), { positionPeaks: new Map([['posYes', 740_000n]]) })).toEqual([]);
    expect(fired(s, snap(), { positionPeaks: new Map([['posYes', 750_000n]]) })).toEqual(['sell-position:trail:posYes']);
    // The current price is its own peak when none is known: no drop yet.
    expect(fired(s, snap())).toEqual([]);
  });

  it('sells a share with sell_part, and still lets a later whole sell fire', async () => {
    const s = await pe(
      '  - { id: half, when: { sell_price_at_least: "0.5" }, action: sell_part, share: "25%" }\n  - { id: all, when: { sell_price_at_least: "0.5" } }\n',
    );
    const d = decidePredictionExit(s, {}, snap(), T0);
    expect(d.intents[0]).toMatchObject({ kind: 'partial-sell', contractsMicro: 5_000_000n, isYes: true, positionPubkey: 'posYes' });
    const half = d.intents[0];
    expect(fired(s, snap(), { handled: new Set(half ? [intentSlot(half.key)] : []) })).toEqual(['sell-position:all:posYes']);
  });

  it('stops after a whole sell is journaled', async () => {
    const s = await pe('  - { id: all, when: { sell_price_at_least: "0.5" } }\n  - { id: later, when: { sell_price_at_least: "0.1" } }\n');
    const sold = decidePredictionExit(s, {}, snap(), T0).intents[0];
    expect(fired(s, snap(), { handled: new Set(sold ? [intentSlot(sold.key)] : []) })).toEqual([]);
  });

  it.each([
    ['trading paused', { trading: false }, '', /trading is paused/],
    ['trading status unknown', { trading: null }, '', /unknown status/],
    ['below the minimum sell price', {}, 'risk: { min_sell_price_usd: "0.65" }\n', /sell price \$0.60 is below risk.min_sell_price_usd \(\$0.65\)/],
  ])('holds a sell when %s', async (_name, over, extra, reason) => {
    const s = await pe('  - { id: r, when: { sell_price_at_least: "0.1" } }\n', extra);
    const d = decidePredictionExit(s, {}, snap(over), T0);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toMatch(reason);
  });

  it('sells while trading is paused when require_trading_active is false, with the minimum price attached', async () => {
    const s = await pe('  - { id: r, when: { sell_price_at_least: "0.1" } }\n', 'require_trading_active: false\nrisk: { min_sell_price_usd: "0.5" }\n');
    const [intent] = decidePredictionExit(s, {}, snap({ trading: false }), T0).intents;
    expect(intent).toMatchObject({ kind: 'sell-position', minSellPriceMicroUsd: 500_000n, contractsMicro: 20_000_000n });
    expect(intent?.evidence).toMatchObject({ sellPriceMicroUsd: '600000', score: '80-70', period: 4 });
  });

  it('claims a settled position once, and only when asked to', async () => {
    const settled = { ...yes, claimable: true, sellPriceMicroUsd: null };
    const s = await pe('  - { id: r, when: { sell_price_at_least: "0.1" } }\n');
    expect(fired(s, snap({ positions: [settled], market: { status: 'closed', result: 'yes' } }))).toEqual(['claim-position:claim:posYes']);
    expect(fired(s, snap({ positions: [{ ...settled, claimed: true }] }))).toEqual([]);
    const noClaim = await pe('  - { id: r, when: { sell_price_at_least: "0.1" } }\n', 'claim_when_settled: false\n');
    expect(fired(noClaim, snap({ positions: [settled] }))).toEqual([]);
  });

  it('waits, saying why, on a period or clock the API gave that does not read; the rules after it still decide', async () => {
    const s = await pe(
      '  - { id: late, when: { score: { lead_at_least: 5, period_at_least: 4, elapsed_at_least: 6m } } }\n  - { id: tp, when: { sell_price_at_least: "0.5" } }\n',
    );
    const noPeriod = { period: null, elapsedMs: null, periodText: 'Z9', periodProblem: '"Z9" is not a period jupbot reads' };
    const d = decidePredictionExit(s, {}, snap({ score: noPeriod }), T0);
    expect(d.holds).toEqual([
      {
        rule: 'late',
        reason: 'late waits on NBA-1001-M1: no period to compare ("Z9" is not a period jupbot reads)',
        evidence: expect.objectContaining({ marketId: 'NBA-1001-M1', score: '80-70', period: null, periodText: 'Z9' }) as unknown,
        logOnce: 'NBA-1001-M1/period',
      },
    ]);
    expect(d.intents.map((i) => i.key.rule)).toEqual(['tp']);
    // The plan prints the wait as it prints every hold.
    expect(describeDecision(d)).toEqual([
      'now: sell-position — tp: sell the YES position in NBA-1001-M1 at $0.60',
      'now: held (late) — late waits on NBA-1001-M1: no period to compare ("Z9" is not a period jupbot reads)',
    ]);

    const clock = { elapsedMs: null, elapsedProblem: 'elapsed "12:34" left is more than a whole NBA quarter (12:00)' };
    expect(decidePredictionExit(s, {}, snap({ score: clock }), T0).holds).toEqual([
      expect.objectContaining({
        reason: 'late waits on NBA-1001-M1: no elapsed time to compare (elapsed "12:34" left is more than a whole NBA quarter (12:00))',
        logOnce: 'NBA-1001-M1/elapsed',
      }),
    ]);
    // The API gave none at all while the game is live: a wait too, with that reason.
    expect(decidePredictionExit(s, {}, snap({ score: { period: null } }), T0).holds[0]?.reason).toBe(
      'late waits on NBA-1001-M1: no period to compare (the API gives no period)',
    );
    // Not live (before the game, or over): no score rule can fire, and nothing is waited on.
    expect(decidePredictionExit(s, {}, snap({ score: { ...noPeriod, live: false } }), T0).holds).toEqual([]);
    // A rule that compares neither waits on nothing.
    const lead = await pe('  - { id: lead, when: { score: { lead_at_least: 5 } } }\n');
    expect(fired(lead, snap({ score: noPeriod }))).toEqual(['sell-position:lead:posYes']);
  });

  it("records the API's own strings and the sport beside the numbers it read", async () => {
    const s = await pe('  - { id: late, when: { score: { period_at_least: 2, elapsed_at_least: 30m } } }\n');
    const score = { period: 2, elapsedMs: 37 * MIN, periodText: '2H', elapsedText: '82:31', sport: 'soccer (league "epl")' };
    const [intent] = decidePredictionExit(s, {}, snap({ score }), T0).intents;
    expect(intent?.evidence).toMatchObject({ period: 2, elapsedMs: 37 * MIN, periodText: '2H', elapsedText: '82:31', sport: 'soccer (league "epl")' });
  });

  it('manages only the positions it selects', async () => {
    const s = await load<LoadedPredictionExit>(
      'name: pe\nkind: prediction-exit\npositions: { event: NBA-1001, side: no }\nrules:\n  - { id: r, when: { sell_price_at_least: "0.1" } }\n',
    );
    const other = { ...yes, pubkey: 'elsewhere', marketId: 'BTC-1006-M1' };
    expect(fired(s, snap({ positions: [yes, no, other] }))).toEqual(['sell-position:r:posNo']);
  });

  it('names a market Jupiter does not know: every rule waits with the reason, and a claim still goes through', async () => {
    const s = await pe('  - { id: a, when: { sell_price_at_least: "0.1" } }\n  - { id: b, when: { before_close: 1h } }\n');
    const reason = 'market unknown: Jupiter has no market "NBA-1001-M1" (positions.market); see jupbot markets search';
    const unknown = { ...snap(), unknownMarkets: new Set(['NBA-1001-M1']) };
    expect(decidePredictionExit(s, {}, unknown, T0)).toEqual({
      intents: [],
      holds: [
        { rule: 'a', reason },
        { rule: 'b', reason },
      ],
    });
    const settled = { ...yes, claimable: true, sellPriceMicroUsd: null };
    expect(fired(s, { ...unknown, positions: [settled] })).toEqual(['claim-position:claim:posYes']);
    // Another market's being unknown changes nothing here.
    expect(fired(s, { ...snap(), unknownMarkets: new Set(['NBA-1001-M2']) })).toEqual(['sell-position:a:posYes']);
  });

  it('names an event Jupiter does not know; a strategy without rules shows its claim waiting', async () => {
    const s = await load<LoadedPredictionExit>('name: pe\nkind: prediction-exit\npositions: { event: NBA-101 }\n');
    expect(decidePredictionExit(s, {}, { ...snap(), unknownEvents: new Set(['NBA-101']) }, T0).holds).toEqual([
      { rule: 'claim', reason: 'event unknown: Jupiter has no event "NBA-101" (positions.event); see jupbot events' },
    ]);
  });
});
