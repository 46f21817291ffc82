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

  it('refuses a score for an event without a game, and a malformed one', async () => {
    h = await startSim();
    expect((await h.call('POST', '/__sim/events/BTC-1006/score', { body: { home: 1, away: 0 } })).status).toBe(400);
    expect((await h.call('POST', '/__sim/events/NBA-1001/score', { body: { home: -1, away: 0 } })).status).toBe(400);
    expect((await h.call('POST', '/__sim/events/NBA-1001/score', { body: { home: '1' } })).status).toBe(400);
    expect(() => h.sim.control.setScore('nope', 1, 0)).toThrow(RangeError);
  });
});
