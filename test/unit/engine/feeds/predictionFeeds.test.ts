import { afterEach, describe, expect, it } from 'vitest';
import { createMarketsFeed, type MarketMap } from '../../../../src/engine/feeds/markets.js';
import type { Poller } from '../../../../src/engine/feeds/poller.js';
import type { ScoreMap } from '../../../../src/engine/feeds/scores.js';
import { createTradingStatusFeed } from '../../../../src/engine/feeds/tradingStatus.js';
import { marketViews, scoreViews } from '../../../../src/engine/tick/predictionViews.js';
import { startFeedHarness } from './simSupport.js';

let stop: AbortController;
afterEach(() => stop?.abort());

async function started<T>(feed: Poller<T>): Promise<T> {
  stop = new AbortController();
  const first = feed.events.next('updated');
  feed.start(stop.signal);
  return (await first).value;
}

const MARKETS = '/prediction/v1/markets/{marketId}';
const EVENT_MARKETS = '/prediction/v1/events/{eventId}/markets';

describe('markets feed against the simulator', () => {
  it('reads each market, then batches the markets of one event into one call; unknown ids are absent', async () => {
    const h = startFeedHarness();
    const ids = ['BTC-1006-M1', 'BTC-1006-M2', 'NBA-1001-M1', 'NOPE-1-M1'];
    const feed = createMarketsFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, marketIds: () => ids });
    const first = await started(feed);
    expect(h.routes.filter((r) => r === MARKETS)).toHaveLength(4);
    expect([...first.keys()].sort()).toEqual(['BTC-1006-M1', 'BTC-1006-M2', 'NBA-1001-M1']);
    // The id the API answered 404 for is named, so a strategy naming it can say so.
    expect([...(first.unknownMarkets ?? [])]).toEqual(['NOPE-1-M1']);
    expect([...(first.unknownEvents ?? [])]).toEqual([]);
    expect(first.get('NBA-1001-M1')).toEqual({
      marketId: 'NBA-1001-M1',
      eventId: 'NBA-1001',
      status: 'open',
      closeTime: expect.any(Number) as number,
      result: null,
      marks: { yes: expect.any(BigInt) as bigint, no: expect.any(BigInt) as bigint },
    });
    expect((first.get('NBA-1001-M1')?.closeTime ?? 0) % 1000).toBe(0);
    // The marks are what a contract sells for: between nothing and a dollar, in micro-USD.
    const marks = first.get('NBA-1001-M1')?.marks;
    for (const mark of [marks?.yes, marks?.no]) expect((mark ?? -1n) > 0n && (mark ?? 0n) < 1_000_000n).toBe(true);

    h.routes.length = 0;
    h.sim.control.settleMarket('NBA-1001-M1', 'yes');
    const second = feed.events.next('updated');
    await h.clock.advance(15_000);
    const value = (await second).value;
    // BTC's two markets: one event call. NBA's and the unknown id: one market call each.
    expect(h.routes.filter((r) => r === EVENT_MARKETS)).toHaveLength(1);
    expect(h.routes.filter((r) => r === MARKETS)).toHaveLength(2);
    expect(value.get('NBA-1001-M1')).toMatchObject({ status: 'closed', result: 'yes' });
    expect(value.has('BTC-1006-M2')).toBe(true);
  });

  it('reads every market of an event strategies name whole, and nothing when none is in use', async () => {
    const h = startFeedHarness();
    const feed = createMarketsFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, marketIds: () => [], eventIds: () => ['FED-1009'] });
    const value = await started(feed);
    expect(h.routes).toEqual([EVENT_MARKETS]);
    expect([...value.values()].every((m) => m.eventId === 'FED-1009')).toBe(true);
    expect(value.size).toBe(2);

    const typo = createMarketsFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, marketIds: () => [], eventIds: () => ['FED-1090', 'FED-1009'] });
    const both = await started(typo);
    expect([...(both.unknownEvents ?? [])]).toEqual(['FED-1090']);
    expect([...(both.unknownMarkets ?? [])]).toEqual([]);
    expect(both.size).toBe(2);

    const idle = createMarketsFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, marketIds: () => [] });
    h.routes.length = 0;
    expect((await started(idle)).size).toBe(0);
    expect(h.routes).toEqual([]);
  });

  it('a failing read keeps the last value and counts the failure', async () => {
    const h = startFeedHarness();
    const feed = createMarketsFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, marketIds: () => ['NBA-1001-M1'] });
    await started(feed);
    h.sim.control.injectFault({
      path: '/prediction/v1/markets/*',
      kind: 'status',
      status: 400,
      body: { type: 'invalid_request_error', message: 'nope', request_id: 'x' },
    });
    const failed = feed.events.next('failed');
    await h.clock.advance(15_000);
    expect((await failed).consecutiveFailures).toBe(1);
    expect(feed.state().value?.has('NBA-1001-M1')).toBe(true);
  });
});

describe('trading-status feed against the simulator', () => {
  it('reads /trading-status as a boolean and follows a pause', async () => {
    const h = startFeedHarness();
    const feed = createTradingStatusFeed({ client: h.client, clock: h.clock, intervalMs: 30_000 });
    expect(await started(feed)).toBe(true);
    expect(feed.name).toBe('trading-status');
    h.sim.control.setTradingActive(false);
    const next = feed.events.next('updated');
    feed.pollSoon();
    expect((await next).value).toBe(false);
  });
});

describe('prediction views for the strategies', () => {
  it('markets: known statuses only; an unknown close time never reads as closing', () => {
    const markets: MarketMap = new Map([
      ['a', { marketId: 'a', eventId: 'E', status: 'open', closeTime: 1_000, result: null }],
      ['b', { marketId: 'b', eventId: null, status: 'closed', closeTime: null, result: 'no' }],
      ['c', { marketId: 'c', eventId: 'E', status: 'halted', closeTime: 1_000, result: null }],
    ]);
    const views = marketViews(markets);
    expect([...views.keys()]).toEqual(['a', 'b']);
    expect(views.get('a')).toEqual({ marketId: 'a', eventId: 'E', status: 'open', closeTime: 1_000, result: null });
    expect(views.get('b')).toEqual({ marketId: 'b', eventId: '', status: 'closed', closeTime: Number.MAX_SAFE_INTEGER, result: 'no' });
    expect(marketViews(undefined).size).toBe(0);
  });

  it('scores: "home-away", periods and elapsed time read for the sport; unreadable scores are left out', () => {
    const base = {
      gameId: null,
      homeTeam: null,
      awayTeam: null,
      status: null,
      ended: false,
      finishedTimestamp: null,
      updatedAt: null,
    };
    const scores: ScoreMap = new Map([
      ['E1', { ...base, eventId: 'E1', leagueAbbreviation: 'nba', score: '80-60', period: 'Q4', elapsed: '2:30', live: true }],
      ['E2', { ...base, eventId: 'E2', leagueAbbreviation: 'nba', score: null, period: null, elapsed: null, live: false }],
      ['E3', { ...base, eventId: 'E3', leagueAbbreviation: 'epl', score: '1 - 0', period: 'HT', elapsed: null, live: true }],
    ]);
    const views = scoreViews(scores);
    expect(views.get('E1')).toMatchObject({ eventId: 'E1', home: 80, away: 60, period: 4, elapsedMs: 570_000, live: true });
    expect(views.has('E2')).toBe(false);
    // Half-time in soccer: the first half is over.
    expect(views.get('E3')).toMatchObject({ eventId: 'E3', home: 1, away: 0, period: 1, elapsedMs: 2_700_000, live: true });
  });
});
