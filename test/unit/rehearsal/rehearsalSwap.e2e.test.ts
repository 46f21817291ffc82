/**
 * Rehearsed swaps against the simulator: the order is asked with the watched wallet as taker, the
 * transaction Jupiter builds is judged and simulated, never signed, and the swap is filled in the
 * rehearsal ledger at the quote. The simulator records no `/execute` and no `sendTransaction`.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { rehearsalWorld, type RehearsalWorld } from './support/rehearsalWorld.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const DCA = `name: dca-jup
kind: dca
buy: JUP
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "*/10 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

const worlds: RehearsalWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

describe('a rehearsed swap', () => {
  it('is quoted for the watched wallet, judged, never signed or executed, and filled at the quote in the ledger', async () => {
    const world = rehearsalWorld({
      seed: 'rehearsal-swap',
      startAt: START,
      strategies: { 'dca-jup': DCA },
      config: ['notify: { webhooks: [{ url: "http://127.0.0.1:9/hook", kind: generic, events: [trade, lifecycle] }] }'],
    });
    worlds.push(world);
    const usdcBefore = world.sim.control.balance(world.wallet, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    const posted: { source: string; text: string }[] = [];
    const webhook = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      posted.push(JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { source: string; text: string });
      return Promise.resolve(new Response('{}', { status: 200 }));
    };
    const daemon = await world.start({ fetch: webhook });
    await driveTo(world.clock, world.net, START + 3_600_000);
    await daemon.stop('done');
    const db = new Database(world.database, { readonly: true });
    try {
      const intents = db.prepare("SELECT id, state FROM intents WHERE kind = 'swap'").all() as { id: string; state: string }[];
      expect(intents.length).toBeGreaterThanOrEqual(5);
      expect(intents.every((i) => i.state === 'confirmed')).toBe(true);
      const verdicts = db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'rehearsal.transaction'").all() as { intent_id: string; data: string }[];
      expect(verdicts.map((v) => (JSON.parse(v.data) as { verdict: string }).verdict)).toEqual(intents.map(() => 'accepted'));
      const fills = db.prepare("SELECT intent_id, in_amount, out_amount, raw FROM fills WHERE source = 'swap'").all() as {
        intent_id: string;
        in_amount: string;
        out_amount: string;
        raw: string;
      }[];
      expect(fills).toHaveLength(intents.length);
      for (const f of fills) {
        const quote = JSON.parse(f.raw) as { inAmount: string; outAmount: string };
        expect([f.in_amount, f.out_amount]).toEqual([quote.inAmount, quote.outAmount]);
      }
    } finally {
      db.close();
    }
    // The world saw no write but the orders asked: nothing executed, sent or signed.
    expect(new Set(world.writes.map((w) => `${w.method} ${w.path}`))).toEqual(new Set(['GET /swap/v2/order']));
    expect(world.sim.control.balance(world.wallet, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(usdcBefore);
    expect(world.out.text).toContain('REHEARSAL');
    // Webhooks say where a "filled" came from: a chat channel never reads a rehearsal as a real trade.
    await daemon.notifier.idle();
    expect(posted.length).toBeGreaterThanOrEqual(3);
    expect(posted.filter((p) => p.source !== 'jupbot REHEARSAL' || !p.text.startsWith('jupbot REHEARSAL: '))).toEqual([]);
  }, 120_000);
});

describe('a rehearsed swap the node cannot simulate', () => {
  it('is judged again while its decision is fresh, then fails as stale, as live mode would cancel it: never filled later', async () => {
    const world = rehearsalWorld({ seed: 'rehearsal-stale', startAt: START, strategies: { 'dca-jup': DCA } });
    worlds.push(world);
    // The node answers every simulation with a 503 from the start: the guard can only defer.
    world.sim.control.injectFault({ path: '/rpc', rpcMethod: 'simulateTransaction', kind: 'status', status: 503 });
    const daemon = await world.start();
    await driveTo(world.clock, world.net, START + 15 * 60_000);
    await daemon.stop('done');
    const db = new Database(world.database, { readonly: true });
    try {
      const first = db.prepare("SELECT state, error_code FROM intents WHERE kind = 'swap' ORDER BY created_at LIMIT 1").get();
      expect(first).toEqual({ state: 'failed', error_code: 'STALE_INTENT' });
      const verdicts = (db.prepare("SELECT data FROM actions WHERE kind = 'rehearsal.transaction'").all() as { data: string }[]).map(
        (r) => (JSON.parse(r.data) as { verdict: string; reason: string }).verdict + ' ' + (JSON.parse(r.data) as { reason: string }).reason,
      );
      expect(verdicts.length).toBeGreaterThanOrEqual(2);
      expect(new Set(verdicts)).toEqual(new Set(['deferred SIMULATION_UNAVAILABLE']));
      expect((db.prepare('SELECT count(*) AS n FROM fills').get() as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
  }, 120_000);
});
