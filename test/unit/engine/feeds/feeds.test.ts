import { Keypair } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDcaOrdersFeed,
  createPositionsFeed,
  createPriceOrdersFeed,
  createPricesFeed,
  createScoresFeed,
  feedReadinessChecks,
  InterestSet,
  type Poller,
} from '../../../../src/engine/feeds/index.js';
import { listEvents } from '../../../../src/jupiter/prediction.js';
import { withBearer } from '../../../../src/jupiter/index.js';
import { fakeMints, JUP, SOL, startFeedHarness, USDC } from './simSupport.js';

const SEARCH = '/tokens/v2/search';
let stop: AbortController;
afterEach(() => stop?.abort());

/** Starts `feed` and resolves after its first successful poll. */
async function started<T>(feed: Poller<T>): Promise<T> {
  stop = new AbortController();
  const first = feed.events.next('updated');
  feed.start(stop.signal);
  return (await first).value;
}

describe('prices feed against the simulator', () => {
  it('polls 250 mints with 3 search calls per poll, and follows the mint set as it changes', async () => {
    const h = startFeedHarness();
    const interest = new InterestSet();
    interest.set('strategy-a', [SOL, USDC, ...fakeMints(150)]);
    interest.set('strategy-b', [JUP, SOL, ...fakeMints(247).slice(150)]); // SOL shared, 97 more fakes: 250 in all
    expect(interest.size).toBe(250);
    const feed = createPricesFeed({ client: h.client, clock: h.clock, intervalMs: 10_000, mints: () => interest.keys() });

    const first = await started(feed);
    expect(h.routes.filter((r) => r === SEARCH)).toHaveLength(3);
    expect([...first.keys()].sort()).toEqual([JUP, SOL, USDC].sort());
    expect(first.get(SOL)?.usdPrice).toBeGreaterThan(0);

    const second = feed.events.next('updated');
    await h.clock.advance(10_000);
    await second;
    expect(h.routes.filter((r) => r === SEARCH)).toHaveLength(6);

    // A hot reload drops strategy-a: 99 mints left, 1 call; pollSoon() does not wait for the interval.
    interest.delete('strategy-a');
    expect(interest.size).toBe(99);
    const third = feed.events.next('updated');
    feed.pollSoon();
    const value = (await third).value;
    expect(h.routes.filter((r) => r === SEARCH)).toHaveLength(7);
    expect([...value.keys()].sort()).toEqual([JUP, SOL].sort());
  });

  it('sends nothing and stays fresh when no (valid) mint is in use', async () => {
    const h = startFeedHarness();
    const feed = createPricesFeed({ client: h.client, clock: h.clock, intervalMs: 10_000, mints: () => ['not a mint'] });
    expect((await started(feed)).size).toBe(0);
    expect(h.routes).toEqual([]);
    expect(feed.state().fresh).toBe(true);
  });

  it('keeps the last value and its age through failures, turns stale after 3 intervals, and recovers', async () => {
    const h = startFeedHarness({ maxReadAttempts: 1 });
    const feed = createPricesFeed({ client: h.client, clock: h.clock, intervalMs: 10_000, mints: () => [SOL, USDC] });
    const [ready] = feedReadinessChecks([feed]);
    expect(ready?.probe()).toEqual({ ok: false, detail: 'no successful poll yet (limit 3 × 10s)' });
    const good = await started(feed);
    expect(ready?.probe()).toEqual({ ok: true });

    const fault = h.sim.control.injectFault({ path: SEARCH, kind: 'status', status: 503 });
    for (let i = 1; i <= 3; i++) {
      const failed = feed.events.next('failed');
      await h.clock.advance(10_000);
      const event = await failed;
      expect(event).toMatchObject({ feed: 'prices', code: 'JUPITER_SERVER_ERROR', consecutiveFailures: i });
      const state = feed.state();
      expect(state.value).toBe(good);
      expect(state.ageMs).toBe(i * 10_000);
      expect(state.consecutiveFailures).toBe(i);
      expect(state.lastError?.code).toBe('JUPITER_SERVER_ERROR');
      expect(state.fresh).toBe(i < 3);
    }
    expect(ready?.probe().ok).toBe(false);
    expect(ready?.probe().detail).toMatch(/^last success 30s ago \(limit 3 × 10s\); last error JUPITER_SERVER_ERROR: /);

    h.sim.control.clearFaults(fault);
    const recovered = feed.events.next('updated');
    await h.clock.advance(10_000);
    expect((await recovered).value).not.toBe(good);
    expect(feed.state()).toMatchObject({ ageMs: 0, consecutiveFailures: 0, fresh: true });
    expect(ready?.probe()).toEqual({ ok: true });
  });

  it('never overlaps polls: a poll slower than the interval delays the next one', async () => {
    const h = startFeedHarness({ timeoutMs: 0 });
    let inFlight = 0;
    let maxInFlight = 0;
    h.client.events.on('dispatch', () => (maxInFlight = Math.max(maxInFlight, ++inFlight)));
    h.client.events.on('request', () => inFlight--);
    const feed = createPricesFeed({ client: h.client, clock: h.clock, intervalMs: 10_000, mints: () => [SOL] });
    await started(feed);
    const polls: number[] = [];
    feed.events.on('updated', (e) => polls.push(e.at - Date.UTC(2026, 0, 1, 12)));

    // Every search now takes 25 s: two and a half intervals.
    h.sim.control.injectFault({ path: SEARCH, kind: 'delay', delayMs: 25_000 });
    for (let t = 0; t < 100_000; t += 1_000) await h.clock.advance(1_000);
    expect(maxInFlight).toBe(1);
    // Poll 2 starts at 10 s and ends at 35 s, poll 3 at once (35 s → 60 s), poll 4 at 60 s → 85 s.
    expect(polls).toEqual([35_000, 60_000, 85_000]);
    expect(h.routes.filter((r) => r === SEARCH)).toHaveLength(4);
  });
});

describe('scores, positions and order feeds against the simulator', () => {
  it('scores: every event id in use, at most 100 per call', async () => {
    const h = startFeedHarness();
    const events = await listEvents(h.client, {});
    const real = events.data.map((e) => e.eventId);
    expect(real.length).toBeGreaterThan(0);
    const ids = [...real, ...Array.from({ length: 150 - real.length }, (_, i) => `unknown-${i}`)];
    const feed = createScoresFeed({ client: h.client, clock: h.clock, intervalMs: 15_000, eventIds: () => ids });
    h.routes.length = 0;
    const scores = await started(feed);
    // The cup tie's league (FAC) names no sport the daemon knows: its event is asked once, for its subcategory.
    expect(h.routes).toEqual(['/prediction/v1/events/scores', '/prediction/v1/events/scores', '/prediction/v1/events/{eventId}']);
    expect(scores.size).toBeGreaterThan(0);
    for (const [id, score] of scores) expect(score.eventId).toBe(id);
    expect([...scores.keys()].every((id) => real.includes(id))).toBe(true);
    expect(scores.get('FAC-1012')).toMatchObject({ leagueAbbreviation: 'FAC', eventCategory: 'sports', eventSubcategory: 'soccer' });
    expect(scores.get('NBA-1001')).not.toHaveProperty('eventSubcategory');

    // Known once: the next poll asks for scores only, and still carries the subcategory.
    h.routes.length = 0;
    const next = feed.events.next('updated');
    await h.clock.advance(15_000);
    expect((await next).value.get('FAC-1012')).toMatchObject({ eventSubcategory: 'soccer' });
    expect(h.routes).toEqual(['/prediction/v1/events/scores', '/prediction/v1/events/scores']);
  });

  it('positions: one feed per wallet reads every page', async () => {
    const h = startFeedHarness();
    const owner = Keypair.generate().publicKey.toBase58();
    h.sim.control.paperWallet(owner);
    const feed = createPositionsFeed({ client: h.client, clock: h.clock, intervalMs: 30_000, wallet: owner, pageSize: 1 });
    expect(feed.name).toBe('positions');
    const positions = await started(feed);
    expect(positions).toHaveLength(2);
    expect(positions.every((p) => p.ownerPubkey === owner)).toBe(true);
    expect(h.routes.filter((r) => r === '/prediction/v1/positions').length).toBeGreaterThanOrEqual(2);
  });

  it('price orders and DCA: active and recent past, through the authed client; a failed login fails the poll only', async () => {
    const h = startFeedHarness();
    const owner = Keypair.generate().publicKey.toBase58();
    h.sim.control.paperWallet(owner);
    let loggedIn = false;
    const authed = withBearer(h.client, () => (loggedIn ? Promise.resolve(h.sim.control.triggerToken(owner)) : Promise.reject(new Error('login failed'))));
    const orders = createPriceOrdersFeed({ client: () => authed, clock: h.clock, intervalMs: 30_000 });
    const dca = createDcaOrdersFeed({ client: authed, clock: h.clock, intervalMs: 30_000, recentPast: 20 });

    stop = new AbortController();
    const failed = orders.events.next('failed');
    orders.start(stop.signal);
    expect((await failed).message).toBe('login failed');
    expect(h.routes).toEqual([]);

    loggedIn = true;
    const updated = orders.events.next('updated');
    await h.clock.advance(30_000);
    expect((await updated).value).toEqual({ active: [], recentPast: [] });
    expect(h.routes).toEqual(['/trigger/v2/orders/history', '/trigger/v2/orders/history']);

    const dcaFirst = dca.events.next('updated');
    dca.start(stop.signal);
    expect((await dcaFirst).value).toEqual({ active: [], recentPast: [] });
    expect(h.routes.slice(2)).toEqual(['/trigger/v2/orders/history/dca', '/trigger/v2/orders/history/dca']);
  });
});
