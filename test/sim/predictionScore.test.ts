import { afterEach, describe, expect, it } from 'vitest';
import { prediction } from '../../src/jupiter/schemas/index.js';
import { startSim, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

const P = '/prediction/v1';

describe('prediction: a scripted game score', () => {
  it('sets a live score through the control surface; play and the price follow it', async () => {
    h = await startSim();
    const set = await h.call('POST', '/__sim/events/NBA-1001/score', { body: { home: 80, away: 60 } });
    expect(set.status).toBe(200);
    const score = prediction.GameScore.parse((await h.call('GET', `${P}/events/NBA-1001/score`)).body);
    expect(score.score).toBe('80-60');
    expect(score.live).toBe(true);
    await h.clock.advance(2_000);
    // A 20-point home lead: the home-win market prices YES far above even.
    const market = prediction.Market.parse((await h.call('GET', `${P}/markets/NBA-1001-M1`)).body);
    expect(Number(market.pricing?.sellYesPriceUsd)).toBeGreaterThan(800_000);
    const [home, away] = (prediction.GameScore.parse((await h.call('GET', `${P}/events/NBA-1001/score`)).body).score ?? '').split('-').map(Number);
    expect(home).toBeGreaterThanOrEqual(80);
    expect(away).toBeGreaterThanOrEqual(60);
  });

  it("serves each game's period and clock as its sport writes them, through half-time, stoppage, overtime and the end", async () => {
    h = await startSim();
    const T0 = h.clock.now();
    const MIN = 60_000;
    const at = async (ms: number, eventId: string): Promise<string> => {
      await h.clock.advance(T0 + ms - h.clock.now());
      const score = prediction.GameScore.parse((await h.call('GET', `${P}/events/${eventId}/score`)).body);
      return `${score.period ?? '-'} ${score.elapsed ?? '-'}`;
    };
    // NBA (started 20 minutes before): 12-minute quarters counting down, 30 minutes of world time each; half-time 15.
    expect(await at(0, 'NBA-1001')).toBe('Q1 4:00');
    expect(await at(10 * MIN, 'NBA-1001')).toBe('Q2 12:00');
    expect(await at(45 * MIN, 'NBA-1001')).toBe('HT -');
    expect(await at(55 * MIN, 'NBA-1001')).toBe('Q3 12:00');
    // The cup tie (kick-off at 30 minutes): a match clock with seconds, three minutes of first-half stoppage.
    expect(await at(30 * MIN + 46 * MIN + 30_000, 'FAC-1012')).toBe('1H 46:30');
    expect(await at(30 * MIN + 50 * MIN, 'FAC-1012')).toBe('HT -');
    // The NBA game level at the end of regulation: overtime, 5 minutes on the clock in 12.5 of world time, played in full.
    await h.clock.advance(T0 + 115 * MIN - 1_000 - h.clock.now());
    h.sim.control.setScore('NBA-1001', 100, 100);
    expect(await at(30 * MIN + 63 * MIN + 22 * MIN + 30_000, 'FAC-1012')).toBe('2H 67:30');
    expect(await at(115 * MIN + 150_000, 'NBA-1001')).toBe('OT 4:00');
    h.sim.control.setScore('NBA-1001', 101, 100);
    expect(await at(127 * MIN, 'NBA-1001')).toBe('OT 0:12');
    expect(await at(128 * MIN, 'NBA-1001')).toBe('FT OT -');
    // LCK (from 2 h): maps of a best-of-three, no clock.
    expect(await at(2 * 60 * MIN + 36 * MIN, 'LCK-1005')).toBe('2/3 -');
    // EPL (from 3 h): the minute counting up, stoppage written from the minute the half was due to end.
    expect(await at(3 * 60 * MIN + 46 * MIN + 30_000, 'EPL-1003')).toBe('1H 45+1');
    // NFL (from 1 h): 15-minute quarters counting down, 45 minutes of world time each; half-time 20.
    expect(await at(60 * MIN + 169 * MIN, 'NFL-1002')).toBe('4Q 10:20');
    expect(await at(3 * 60 * MIN + 62 * MIN, 'EPL-1003')).toBe('2H 45');
    expect(await at(3 * 60 * MIN + 62 * MIN + 48 * MIN + 30_000, 'EPL-1003')).toBe('2H 90+3');
    // NHL (from 26 h): 20-minute periods counting down, 40 minutes of world time each.
    expect(await at(26 * 60 * MIN + 99 * MIN, 'NHL-1004')).toBe('P3 10:30');
    expect(await at(26 * 60 * MIN + 99 * MIN, 'NFL-1002')).toMatch(/^FT( OT)? -$/);
  });

  it('refuses a score for an event without a game, and a malformed one', async () => {
    h = await startSim();
    expect((await h.call('POST', '/__sim/events/BTC-1006/score', { body: { home: 1, away: 0 } })).status).toBe(400);
    expect((await h.call('POST', '/__sim/events/NBA-1001/score', { body: { home: -1, away: 0 } })).status).toBe(400);
    expect((await h.call('POST', '/__sim/events/NBA-1001/score', { body: { home: '1' } })).status).toBe(400);
    expect(() => h.sim.control.setScore('nope', 1, 0)).toThrow(RangeError);
  });
});
