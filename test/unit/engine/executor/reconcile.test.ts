import { describe, expect, it } from 'vitest';
import { reconcile, startReconcileLoop } from '../../../../src/engine/reconcile.js';
import { dcaIntent, plan } from '../../../support/intentPlans.js';
import { actionKinds } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack } from '../../../support/testStack.js';

describe('reconciliation', () => {
  it('resumes a planned-but-never-signed intent at start', async () => {
    const s = testStack({ kinds: ['swap'] });
    const row = s.executor.plan(plan(dcaIntent()));
    expect(s.routes).toEqual([]);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock, audit: s.audit });
    expect(report.outcomes).toEqual({ [row.id]: 'confirmed' });
    expect(swapsLanded(s)).toHaveLength(1);
    const pass = s.db.prepare("SELECT data FROM actions WHERE kind = 'reconcile.pass'").get() as { data: string };
    expect(JSON.parse(pass.data)).toMatchObject({ examined: 1, stillPending: 0 });
  });

  it('cancels, instead of resuming, a planned intent older than staleAfterMs', async () => {
    const s = testStack({ kinds: ['swap'] });
    const row = s.executor.plan(plan(dcaIntent()));
    await s.sim.control.advance(10 * 60_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock, staleAfterMs: 5 * 60_000 });
    expect(report.outcomes).toEqual({ [row.id]: 'cancelled' });
    expect(s.journal.require(row.id)).toMatchObject({ state: 'cancelled', errorCode: 'STALE_INTENT' });
    expect(s.routes).toEqual([]);
    expect(swapsLanded(s)).toEqual([]);
  });

  it('a transaction that lands and fails on chain fails the intent, with no new attempt', async () => {
    const first = testStack({ kinds: ['swap'] });
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent({ slippageBps: 10 })));
    first.db.close();
    // SOL jumps 5 % before the send: the quoted minimum output can no longer be met (error 6001).
    first.sim.control.setPrice(SOL, first.sim.control.price(SOL) * 1.05);
    const second = first.restart();
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(second.journal.require(stuck.id)).toMatchObject({ state: 'failed', errorCode: 'LANDED_FAILED', attempts: 1 });
    expect(swapsLanded(second)).toEqual([]);
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(second.routes.filter((r) => r === '/swap/v2/order')).toEqual([]);
    expect(actionKinds(second.db, stuck.id).at(-1)).toBe('intent.failed');
  });

  it('runs at once, then periodically on the injected clock, until stopped', async () => {
    const s = testStack({ kinds: ['swap'] });
    const stop = new AbortController();
    const loop = startReconcileLoop({ journal: s.journal, executor: s.executor, clock: s.clock, intervalMs: 30_000, signal: stop.signal });
    expect((await loop.ready).examined).toBe(0);
    const row = s.executor.plan(plan(dcaIntent()));
    const confirmed = s.executor.events.next('confirmed');
    await s.clock.advance(30_000);
    expect((await confirmed).row.id).toBe(row.id);
    stop.abort();
    await loop.done;
    expect(swapsLanded(s)).toHaveLength(1);
  });
});

describe('reconciliation and unknown kinds', () => {
  it('leaves an intent whose kind has no handler pending, recorded, never failed', async () => {
    const s = testStack({ kinds: ['swap'] });
    s.journal.plan({ id: 'vault/1/tp/0', kind: 'trigger.place', strategy: 'tp', params: { amount: '1' } });
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(report).toMatchObject({ outcomes: { 'vault/1/tp/0': 'planned' }, stillPending: 1 });
    expect(actionKinds(s.db, 'vault/1/tp/0')).toEqual(['intent.planned', 'intent.error']);
  });
});
