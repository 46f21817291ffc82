import { Keypair } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFeedSet, InterestSet } from '../../../../src/engine/feeds/index.js';
import { listEvents } from '../../../../src/jupiter/prediction.js';
import { withBearer } from '../../../../src/jupiter/index.js';
import { createMetrics } from '../../../../src/ops/metrics.js';
import type { Notification } from '../../../../src/ops/notification.js';
import { createOutageMonitor } from '../../../../src/ops/outage.js';
import { recordOpening } from '../../../../src/rehearsal/ledger.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import { freshStore } from '../../store/helpers.js';
import { SOL, simFetch, startFeedHarness, USDC, type FeedHarness } from './simSupport.js';

/** The chain as the balances feed reads it: the simulator's RPC, in process. */
const chainOf = (h: FeedHarness, wallet: string) =>
  ({ from: 'chain', rpc: createSolanaRpc({ url: 'http://sim.local/rpc', clock: h.clock, fetch: simFetch(h.sim) }), wallet }) as const;

const stop = new AbortController();
afterEach(() => stop.abort());

describe('createFeedSet', () => {
  it('builds, wires and starts every feed; readiness, metrics and one outage alert per outage', async () => {
    const h = startFeedHarness({ maxReadAttempts: 1 });
    const owner = Keypair.generate().publicKey.toBase58();
    h.sim.control.paperWallet(owner);
    const mints = new InterestSet();
    mints.set('dca-sol', [SOL, USDC]);
    const eventIds = (await listEvents(h.client, {})).data.map((e) => e.eventId).slice(0, 3);
    const metrics = createMetrics({ defaultMetrics: false });
    const sent: Notification[] = [];
    const outages = createOutageMonitor({ clock: h.clock, notify: (n) => sent.push(n), thresholdMs: 60_000 });
    const feeds = createFeedSet({
      client: h.client,
      authed: withBearer(h.client, () => Promise.resolve(h.sim.control.triggerToken(owner))),
      clock: h.clock,
      poll: { prices: 10_000, scores: 15_000, positions: 30_000, orders: 30_000 },
      wallet: owner,
      mints: () => mints.keys(),
      eventIds: () => eventIds,
      balances: chainOf(h, owner),
      metrics,
      outages,
    });
    expect(feeds.all.map((f) => f.name)).toEqual(['prices', 'markets', 'scores', 'positions', 'trading-status', 'orders', 'dca', 'balances']);
    expect(feeds.readiness().map((c) => c.probe().ok)).toEqual([false, false, false, false, false, false, false, false]);

    const firsts = Promise.all(feeds.all.map((f) => f.events.next('updated')));
    feeds.start(stop.signal);
    await firsts;
    expect(feeds.readiness().map((c) => [c.name, c.probe().ok])).toEqual([
      ['feed:prices', true],
      ['feed:markets', true],
      ['feed:scores', true],
      ['feed:positions', true],
      ['feed:trading-status', true],
      ['feed:orders', true],
      ['feed:dca', true],
      ['feed:balances', true],
    ]);
    expect(feeds.positions?.state().value).toHaveLength(2);
    expect(feeds.status()[0]).toMatchObject({ name: 'prices', consecutiveFailures: 0, fresh: true, intervalMs: 10_000 });
    // The paper wallet holds SOL and USDC on chain, read every poll.prices; /status shows it apart, with its mint count.
    expect(feeds.balances.state().value?.byMint.get(USDC)).toBe(1_000_000_000n);
    expect(feeds.status().map((f) => f['name'])).not.toContain('balances');
    expect(feeds.balancesStatus()).toMatchObject({ name: 'balances', fresh: true, intervalMs: 10_000, mints: feeds.balances.state().value?.byMint.size });
    expect(await metrics.scrape()).toContain('jupbot_feed_fresh{feed="balances"} 1');

    // Scores fail for 2 minutes: one "down" after 60 s, one "recovered" after.
    const fault = h.sim.control.injectFault({ path: '/prediction/v1/events/scores', kind: 'status', status: 503 });
    for (let t = 0; t < 120_000; t += 5_000) await h.clock.advance(5_000);
    expect(sent).toMatchObject([{ type: 'down', component: 'feed:scores', downForMs: 60_000 }]);
    expect(feeds.scores.state()).toMatchObject({ fresh: false, consecutiveFailures: 8 });
    expect(feeds.readiness()[2]?.probe().ok).toBe(false);
    let text = await metrics.scrape();
    expect(text).toContain('jupbot_feed_fresh{feed="scores"} 0');
    expect(text).toContain('jupbot_feed_fresh{feed="prices"} 1');
    expect(text).toContain('jupbot_feed_failures_total{feed="scores",code="JUPITER_SERVER_ERROR"} 8');

    h.sim.control.clearFaults(fault);
    const back = feeds.scores.events.next('updated');
    await h.clock.advance(15_000);
    await back;
    expect(sent.map((n) => n.type)).toEqual(['down', 'recovered']);
    text = await metrics.scrape();
    expect(text).toContain('jupbot_feed_fresh{feed="scores"} 1');

    stop.abort();
    await feeds.done;
  });

  it('pauses the feeds of an area: they send nothing, pass readiness saying why, count as fresh in metrics, and poll once rechecked', async () => {
    const h = startFeedHarness();
    const owner = Keypair.generate().publicKey.toBase58();
    h.sim.control.paperWallet(owner);
    const routes: string[] = [];
    h.client.events.on('request', (e) => routes.push(e.route));
    const metrics = createMetrics({ defaultMetrics: false });
    const off = new Map<string, string>([
      ['prediction', 'no loaded strategy needs prediction markets (the prediction area)'],
      ['trigger', 'the trigger area is off'],
    ]);
    const feeds = createFeedSet({
      client: h.client,
      authed: withBearer(h.client, () => Promise.resolve(h.sim.control.triggerToken(owner))),
      clock: h.clock,
      poll: { prices: 10_000, scores: 15_000, positions: 30_000, orders: 30_000 },
      wallet: owner,
      mints: () => [SOL],
      eventIds: () => [],
      marketIds: () => ['BTC-1006-M1'],
      balances: chainOf(h, owner),
      metrics,
      paused: (area) => off.get(area) ?? null,
    });
    const first = feeds.prices.events.next('updated');
    const stopped = new AbortController();
    feeds.start(stopped.signal);
    await first;
    for (let t = 0; t < 60_000; t += 5_000) await h.clock.advance(5_000);
    expect(new Set(routes)).toEqual(new Set(['/tokens/v2/search']));
    expect(feeds.readiness().map((c) => [c.name, c.probe()])).toEqual([
      ['feed:prices', { ok: true }],
      ['feed:markets', { ok: true, detail: `paused: ${off.get('prediction') ?? ''}` }],
      ['feed:scores', { ok: true, detail: `paused: ${off.get('prediction') ?? ''}` }],
      ['feed:positions', { ok: true, detail: `paused: ${off.get('prediction') ?? ''}` }],
      ['feed:trading-status', { ok: true, detail: `paused: ${off.get('prediction') ?? ''}` }],
      ['feed:orders', { ok: true, detail: 'paused: the trigger area is off' }],
      ['feed:dca', { ok: true, detail: 'paused: the trigger area is off' }],
      // The balances feed reads the chain, in no API area: nothing pauses it.
      ['feed:balances', { ok: true }],
    ]);
    expect(await metrics.scrape()).toContain('jupbot_feed_fresh{feed="positions"} 1');

    off.delete('prediction');
    const positions = feeds.positions?.events.next('updated');
    feeds.recheck();
    await h.clock.advance(0);
    await positions;
    expect(new Set(routes)).toEqual(
      new Set(['/tokens/v2/search', '/prediction/v1/positions', '/prediction/v1/markets/{marketId}', '/prediction/v1/trading-status']),
    );
    stopped.abort();
    await feeds.done;
  });

  it('has no order or positions feed without an authed client or a wallet; a rehearsal reads its balances from the ledger', async () => {
    const h = startFeedHarness();
    const { db, clock } = freshStore();
    recordOpening(db, new AuditLog(db, clock), 'config', [{ mint: USDC, amount: 250_000_000n, decimals: 6 }], clock.now());
    const feeds = createFeedSet({
      client: h.client,
      clock: h.clock,
      poll: { prices: 1_000, scores: 1_000, positions: 1_000, orders: 1_000 },
      mints: () => [],
      eventIds: () => [],
      balances: { from: 'ledger', db },
    });
    expect(feeds.all.map((f) => f.name)).toEqual(['prices', 'markets', 'scores', 'trading-status', 'balances']);
    expect(feeds.orders).toBeNull();
    expect(feeds.positions).toBeNull();
    const read = feeds.balances.events.next('updated');
    const stopped = new AbortController();
    feeds.start(stopped.signal);
    expect((await read).value.byMint).toEqual(new Map([[USDC, 250_000_000n]]));
    stopped.abort();
    await feeds.done;
  });
});
