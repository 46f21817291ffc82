import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import type { Db } from '../../../../src/store/db.js';
import { SOL, USDC } from '../../../support/mints.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack } from '../../../support/testStack.js';
import { HEADER } from '../../strategies/helpers.js';
import { count, INTERVAL, run, strategies, ticks } from './support.js';

const LOCAL_TP = `${HEADER}name: sol-local-tp
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
take_profit:
  - at: "200"
    sell: "100%"
`;

// 13:05 in Berlin is 12:05 UTC in January; the world starts at 12:00 UTC.
const DCA_SWAP = `${HEADER}name: sol-dca
kind: dca
buy: SOL
pay_with: USDC
amount: "25"
execution: swap
schedule:
  cron: "5 13 * * *"
  timezone: Europe/Berlin
`;

const DCA_VAULT = `${HEADER}name: jup-dca-vault
kind: dca
buy: JUP
pay_with: USDC
amount: "20"
execution: vault
vault:
  orders: 10
  interval: 1d
  type: time_based
`;

function intentRows(db: Db): { id: string; kind: string; state: string; rule: string }[] {
  return db.prepare('SELECT id, kind, state, rule FROM intents ORDER BY created_at').all() as never;
}

function actions(db: Db, kind: string): { intent_id: string; data: string }[] {
  return db.prepare('SELECT intent_id, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as never;
}

describe('tick loop: swap intents', () => {
  it('a local take-profit swaps once when the price crosses, never again across ticks and a restart', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-tp' });
    // Enough SOL that the balance never stops a second sale: only the journal may.
    w.sim.control.fund(w.wallet.address, 10_000_000_000n);
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(LOCAL_TP);
    const first = await run(w, loaded);
    await ticks(first, 3);
    expect(intentRows(first.stack.db)).toEqual([]);

    w.sim.control.setPrice(SOL, 210);
    const solBefore = w.sim.control.balance(w.wallet.address, SOL);
    const executed = first.ticks.events.next('executed');
    // The price feed and the tick wake together; the cross is seen within a couple of ticks.
    for (let i = 0; i < 5 && count(first, 'executed') === 0; i++) await ticks(first, 1);
    expect((await executed).state).toBe('confirmed');
    expect(swapsLanded(w)).toHaveLength(1);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeLessThanOrEqual(solBefore - 1_000_000_000n);

    // Still above the level: every later tick decides again and acts on nothing.
    await ticks(first, 6);
    expect(first.seen.filter((e) => e.name === 'planned' && (e.payload as { created: boolean }).created)).toHaveLength(1);
    const [row] = intentRows(first.stack.db);
    expect(intentRows(first.stack.db)).toEqual([{ id: row?.id, kind: 'swap', state: 'confirmed', rule: 'take_profit[0]' }]);
    await first.stop();

    // A new process on the same database: the journal says the rule filled, so nothing fires.
    const second = await run(w.restart(), loaded);
    await ticks(second, 6);
    expect(count(second, 'planned')).toBe(0);
    expect(swapsLanded(w)).toHaveLength(1);
    expect(intentRows(second.stack.db)).toHaveLength(1);
    expect(actions(second.stack.db, 'intent.planned')).toHaveLength(1);
    expect(actions(second.stack.db, 'fill')).toHaveLength(1);
    expect(verifyAuditChain(second.stack.db).ok).toBe(true);
    await second.stop();
  });

  it('re-arms a finished generation at the price then, so a relative level fires again (rearm: true)', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-rearm' });
    w.sim.control.fund(w.wallet.address, 10_000_000_000n);
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(`${HEADER}name: sol-rearm
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
rearm: true
take_profit:
  - at: "+1%"
    sell: "100%"
`);
    const r = await run(w, loaded);
    await ticks(r, 2);
    const swapped = async (n: number): Promise<void> => {
      for (let i = 0; i < 6 && swapsLanded(w).length < n; i++) await ticks(r, 1);
      expect(swapsLanded(w)).toHaveLength(n);
    };
    w.sim.control.setPrice(SOL, 151.6); // +1.07% over 150
    await swapped(1);
    await ticks(r, 3); // generation 1 arms at 151.6
    w.sim.control.setPrice(SOL, 152.5); // +0.6% over 151.6: not yet
    await ticks(r, 3);
    expect(swapsLanded(w)).toHaveLength(1);
    w.sim.control.setPrice(SOL, 153.5); // +1.25%
    await swapped(2);
    expect(intentRows(r.stack.db).map((row) => row.id.replace(/^.*\/take_profit\[0\]\//, ''))).toEqual(['g0', 'g1']);
    const armed = actions(r.stack.db, 'strategy.armed').map((a) => JSON.parse(a.data) as { generation: number; referencePriceUsd: string });
    // Generation 1's reference is the price when it armed (about 151.6), not 150 and not the price of each tick.
    expect(armed.map((a) => a.generation)).toEqual([0, 1]);
    expect(Number(armed[1]?.referencePriceUsd)).toBeGreaterThan(151);
    expect(Number(armed[1]?.referencePriceUsd)).toBeLessThan(152.3);
    await r.stop();
  });

  it('a strategy that acts every tick does not starve the others (round robin)', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-round-robin' });
    w.sim.control.fund(w.wallet.address, 10_000_000_000n);
    w.sim.control.setPrice(SOL, 150);
    const everyMinute = `${DCA_SWAP.replace('name: sol-dca', 'name: a-dca').replace('"5 13 * * *"', '"* * * * *"')}min_interval: 1m\nmax_runs_per_day: 1440\n`;
    const loaded = await strategies(everyMinute, LOCAL_TP.replace('name: sol-local-tp', 'name: b-tp'));
    const r = await run(w, loaded, { intervalMs: 60_000 });
    await ticks(r, 3, 60_000);
    expect(intentRows(r.stack.db).filter((row) => row.rule === 'run').length).toBeGreaterThan(0);
    // b-tp's level is crossed while a-dca is due at every tick.
    w.sim.control.setPrice(SOL, 210);
    for (let i = 0; i < 8 && !intentRows(r.stack.db).some((row) => row.rule === 'take_profit[0]'); i++) await ticks(r, 1, 60_000);
    expect(intentRows(r.stack.db).filter((row) => row.rule === 'take_profit[0]')).toHaveLength(1);
    await r.stop();
  });

  it('a hot reload (a new version of the file) does not fire a rule that already swapped', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-reload' });
    w.sim.control.fund(w.wallet.address, 10_000_000_000n);
    w.sim.control.setPrice(SOL, 210);
    const loaded = await strategies(LOCAL_TP);
    const r = await run(w, loaded);
    for (let i = 0; i < 5 && count(r, 'executed') === 0; i++) await ticks(r, 1);
    expect(swapsLanded(w)).toHaveLength(1);
    // The watcher swaps in the edited file: a new hash, so new intent ids — but the same slots.
    const edited = await strategies(`${LOCAL_TP}# edited\n`);
    const before = loaded.get('sol-local-tp')?.hash;
    loaded.set('sol-local-tp', edited.get('sol-local-tp') as never);
    expect(loaded.get('sol-local-tp')?.hash).not.toBe(before);
    await ticks(r, 5);
    expect(intentRows(r.stack.db)).toHaveLength(1);
    expect(swapsLanded(w)).toHaveLength(1);
    await r.stop();
  });

  it('a dca with execution: swap runs at its scheduled local time, once', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-dca' });
    const loaded = await strategies(DCA_SWAP);
    const first = await run(w, loaded, { intervalMs: 60_000 });
    const usdcBefore = w.sim.control.balance(w.wallet.address, USDC);
    await ticks(first, 4, 60_000); // 12:04
    expect(intentRows(first.stack.db)).toEqual([]);

    const executed = first.ticks.events.next('executed');
    await ticks(first, 1, 60_000); // 12:05: due
    const done = await executed;
    expect(done.state).toBe('confirmed');
    expect(done.intentId).toMatch(/^sol-dca\/[0-9a-f]{12}\/run\/2026-01-01T12:05:00\.000Z$/);
    expect(usdcBefore - w.sim.control.balance(w.wallet.address, USDC)).toBe(25_000_000n);

    await ticks(first, 5, 60_000);
    expect(intentRows(first.stack.db)).toHaveLength(1);
    await first.stop();

    // A restart starts a new process clock; the journal still accounts for the 12:05 run.
    const second = await run(w.restart(), loaded, { intervalMs: 60_000 });
    await ticks(second, 3, 60_000);
    expect(count(second, 'planned')).toBe(0);
    expect(swapsLanded(w)).toHaveLength(1);
    await second.stop();
  });

  it('runs missed while the daemon was down are caught up per policy after a restart, counted from the first start', async () => {
    const DAY = 86_400_000;
    const w = testStack({ kinds: ['swap'], seed: 'tick-dca-catch-up' });
    const loaded = await strategies(DCA_SWAP.replace('timezone: Europe/Berlin', 'timezone: Europe/Berlin\ncatch_up: run_all'));
    // Started at 12:00 UTC, stopped before the 12:05 (13:05 Berlin) run.
    const first = await run(w, loaded, { intervalMs: 60_000 });
    await ticks(first, 2, 60_000);
    expect(intentRows(first.stack.db)).toEqual([]);
    await first.stop();

    // Down for two days: 12:05 on days 0, 1 and 2 are missed.
    await w.clock.advance(2 * DAY + 3_600_000);
    const second = await run(w.restart(), loaded, { intervalMs: 60_000 });
    for (let i = 0; i < 5 && intentRows(second.stack.db).filter((r) => r.state === 'confirmed').length < 3; i++) await ticks(second, 1, 60_000);
    const runs = intentRows(second.stack.db).map((r) => [r.id.replace(/^sol-dca\/[0-9a-f]{12}\/run\//, ''), r.state]);
    expect(runs).toEqual([
      ['2026-01-01T12:05:00.000Z', 'confirmed'],
      ['2026-01-02T12:05:00.000Z', 'confirmed'],
      ['2026-01-03T12:05:00.000Z', 'confirmed'],
    ]);
    await ticks(second, 3, 60_000);
    expect(intentRows(second.stack.db)).toHaveLength(3);
    await second.stop();
  });

  it('with catch_up: skip, missed runs are recorded as skipped and the next scheduled one runs', async () => {
    const DAY = 86_400_000;
    const w = testStack({ kinds: ['swap'], seed: 'tick-dca-skip' });
    const loaded = await strategies(DCA_SWAP.replace('timezone: Europe/Berlin', 'timezone: Europe/Berlin\ncatch_up: skip'));
    const first = await run(w, loaded, { intervalMs: 60_000 });
    await ticks(first, 2, 60_000);
    await first.stop();
    await w.clock.advance(DAY + 3_600_000); // day 1, 13:02 UTC: 12:05 on days 0 and 1 missed
    const second = await run(w.restart(), loaded, { intervalMs: 60_000 });
    await ticks(second, 3, 60_000);
    expect(intentRows(second.stack.db)).toEqual([]);
    // The memory row says they were accounted for: another restart does not run them either.
    expect(JSON.parse((second.stack.db.prepare("SELECT state FROM strategy_state WHERE strategy = 'sol-dca'").get() as { state: string }).state)).toMatchObject(
      {
        startedAt: Date.UTC(2026, 0, 1, 12),
        lastScheduledRun: Date.UTC(2026, 0, 2, 12, 5),
      },
    );
    // To day 2, 12:00 with the daemon down (a day of polls on a running one would only cost time):
    // nothing was missed since the memory row's run, and the next scheduled one runs.
    await second.stop();
    await w.clock.advance(Date.UTC(2026, 0, 3, 12) - w.clock.now());
    const third = await run(w.restart(), loaded, { intervalMs: 60_000 });
    const executed = third.ticks.events.next('executed');
    await ticks(third, 6, 60_000);
    expect((await executed).intentId).toMatch(/\/run\/2026-01-03T12:05:00\.000Z$/);
    expect(intentRows(third.stack.db)).toHaveLength(1);
    await third.stop();
  });

  it('holds on a stale price: a crossed level seen more than 2 minutes ago is not acted on', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-stale' });
    w.sim.control.setPrice(SOL, 210);
    let open!: () => void;
    const ready = new Promise<void>((resolve) => (open = resolve));
    const r = await run(w, await strategies(LOCAL_TP), { ready });
    // The feed saw 210 once; then it stops and its value ages past STALE_PRICE_MS.
    r.stopPrices();
    await w.clock.advance(121_000);
    const tick = r.ticks.events.next('tick');
    const decided = r.ticks.events.next('decided');
    open();
    const first = await tick;
    expect(first).toMatchObject({ strategies: 1, intents: 0, skipped: null });
    expect((await decided).holds).toEqual([{ rule: '*', reason: 'the SOL price is stale (121s old)' }]);
    await ticks(r, 3, INTERVAL * 1.5); // no price reads wake it now: the time-based clock does
    expect(intentRows(r.stack.db)).toEqual([]);
    expect(swapsLanded(w)).toEqual([]);
    await r.stop();
  });

  it('the first tick waits for reconciliation', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-ready' });
    w.sim.control.setPrice(SOL, 210);
    let open!: () => void;
    const ready = new Promise<void>((resolve) => (open = resolve));
    const r = await run(w, await strategies(LOCAL_TP), { ready });
    await w.clock.advance(5 * 10_000);
    expect(r.ticks.status().ticks).toBe(0);
    expect(intentRows(r.stack.db)).toEqual([]);
    const executed = r.ticks.events.next('executed');
    open();
    expect((await executed).state).toBe('confirmed');
    expect(r.seen[0]?.name).toBe('planned');
    await r.stop();
  });
});

describe('tick loop: intents without a handler', () => {
  it('a vault DCA is deferred and recorded once, never journaled, across ticks and a restart', async () => {
    const w = testStack({ kinds: ['swap'], seed: 'tick-vault' });
    const loaded = await strategies(DCA_VAULT);
    const first = await run(w, loaded);
    await ticks(first, 4);
    expect(count(first, 'deferred')).toBe(1);
    expect(first.ticks.status().deferred).toEqual({ 'place-dca-vault-order': 1 });
    expect(intentRows(first.stack.db)).toEqual([]);
    const recorded = actions(first.stack.db, 'intent.deferred');
    expect(recorded).toHaveLength(1);
    expect(JSON.parse(recorded[0]?.data ?? '{}')).toMatchObject({ kind: 'place-dca-vault-order', code: 'NO_HANDLER' });
    await first.stop();

    const second = await run(w.restart(), loaded);
    await ticks(second, 2);
    expect(count(second, 'deferred')).toBe(0);
    expect(second.ticks.status().deferred).toEqual({ 'place-dca-vault-order': 1 });
    expect(actions(second.stack.db, 'intent.deferred')).toHaveLength(1);
    expect(intentRows(second.stack.db)).toEqual([]);
    await second.stop();
  });
});
