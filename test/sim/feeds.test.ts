import { afterEach, describe, expect, it } from 'vitest';
import { createPriceOrdersFeed } from '../../src/engine/feeds/index.js';
import { createJupiterClient, withBearer } from '../../src/jupiter/index.js';
import { createRandom } from '../../src/random.js';
import { SOL, startSim, USDC, type Harness } from './support/simHarness.js';
import { createPriceOrder, triggerUser } from './support/triggerFlow.js';

let h: Harness;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await h.close();
});

// The order feed over loopback HTTP: an OCO pair shows as active, then, once a leg fills, both legs
// leave the active set and appear among the recent past orders with their final states.
describe('price-order feed against the simulator on loopback', () => {
  it('follows an OCO from active to filled + cancelled', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'feed-oco');
    const client = createJupiterClient({ baseUrl: h.url, apiKey: 'feed-test-key', requestsPerSecond: 10, clock: h.clock, random: createRandom('feed-oco') });
    const feed = createPriceOrdersFeed({ client: withBearer(client, () => Promise.resolve(u.jwt)), clock: h.clock, intervalMs: 30_000, recentPast: 10 });

    const created = await createPriceOrder(h, u, {
      orderType: 'oco',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      tpPriceUsd: 170,
      slPriceUsd: 130,
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    const first = feed.events.next('updated');
    feed.start(stop.signal);
    const before = (await first).value;
    expect(before.active.map((o) => o.orderState)).toEqual(['pending', 'pending']); // the deposit lands on the next step
    expect(before.active.map((o) => o.id)).toContain(id);
    expect(before.recentPast).toEqual([]);

    h.sim.control.setPrice(SOL, 175);
    const next = feed.events.next('updated');
    await h.clock.advance(30_000);
    const after = (await next).value;
    expect(after.active).toEqual([]);
    const states = Object.fromEntries(after.recentPast.map((o) => [o.id, o.orderState]));
    expect(states[id]).toBe('filled');
    expect(Object.values(states).sort()).toEqual(['cancelled', 'filled']);
  });
});
