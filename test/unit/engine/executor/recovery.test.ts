import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { dcaIntent, plan } from '../../../support/intentPlans.js';
import { actionKinds, fills } from '../../../support/journalRows.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack, type TestStack } from '../../../support/testStack.js';

const signedAudit = (s: TestStack, id: string): string[] =>
  (s.db.prepare("SELECT signature FROM actions WHERE intent_id = ? AND kind = 'intent.signed' ORDER BY id").all(id) as { signature: string }[]).map(
    (r) => r.signature,
  );

describe('executor: crashes, unknown outcomes and expiry', () => {
  it('a crash after recordSigned, before submit: reconciliation sends the same bytes, one swap', async () => {
    const first = testStack({ kinds: ['swap'] });
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('signed');
    expect(swapsLanded(first)).toEqual([]);
    const bytes = Buffer.from(stuck.signedTx ?? []).toString('base64');
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, audit: second.audit });
    expect(report).toMatchObject({ examined: 1, stillPending: 0, outcomes: { [stuck.id]: 'confirmed' } });
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(Buffer.from(row.signedTx ?? []).toString('base64')).toBe(bytes);
    expect(row.attempts).toBe(1);
    expect(swapsLanded(first)).toEqual([stuck.signature]);
    expect(fills(second.db, row.id)).toHaveLength(1);
    expect(second.routes.filter((r) => r === '/swap/v2/order')).toEqual([]);
  });

  it('re-sends the same bytes through RPC when Jupiter has forgotten the requestId', async () => {
    const first = testStack({ kinds: ['swap'] });
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    first.crash();
    first.sim.control.injectFault({
      path: '/swap/v2/execute',
      kind: 'status',
      status: 200,
      body: { status: 'Failed', code: -1, error: 'Order not found, it might have expired', slot: '0' },
      count: 1,
    });

    const second = first.restart();
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    const row = second.journal.require(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(swapsLanded(first)).toEqual([stuck.signature]);
    expect(actionKinds(second.db, row.id)).toContain('intent.outcome_unknown');
    // The amounts came from re-polling /execute (idempotent), recorded once.
    expect(fills(second.db, row.id)).toHaveLength(1);
  });

  it('a crash after submit with the answer lost: reconciliation confirms by signature, no second swap', async () => {
    const first = testStack({ kinds: ['swap'] });
    // The swap lands, the connection drops before the answer: the outcome is unknown to us.
    first.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    first.executor.events.on('sent', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('sent');
    expect(swapsLanded(first)).toEqual([stuck.signature]);
    expect(actionKinds(first.db, stuck.id)).toContain('intent.outcome_unknown');
    first.crash();

    const second = first.restart();
    const confirmed = second.executor.events.next('confirmed');
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect((await confirmed).row).toMatchObject({ id: stuck.id, state: 'confirmed', signature: stuck.signature, attempts: 1 });
    expect(swapsLanded(first)).toEqual([stuck.signature]);
    expect(fills(second.db, stuck.id)).toHaveLength(1);
    expect(second.routes.filter((r) => r === '/swap/v2/order')).toEqual([]);
  });

  it('an unknown outcome without a crash is resolved at once by signature', async () => {
    const s = testStack({ kinds: ['swap'] });
    s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('confirmed');
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(fills(s.db, row.id)).toHaveLength(1);
  });

  it('blockhash expiry without landing: a new attempt with a new signature, one swap overall', async () => {
    const s = testStack({ kinds: ['swap'] });
    const fault = s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'status', status: 503 });
    const stuck = await s.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('sent');
    expect(actionKinds(s.db, stuck.id).filter((k) => k === 'intent.resent')).toHaveLength(1);

    // Still valid: reconciliation re-sends the same bytes and never re-signs.
    await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(s.journal.require(stuck.id)).toMatchObject({ state: 'sent', signature: stuck.signature, attempts: 1 });
    expect(signedAudit(s, stuck.id)).toHaveLength(1);

    // Past lastValidBlockHeight (150 blocks of 400 ms), never landed.
    await s.sim.control.advance(61_000);
    expect(s.sim.control.state().blockHeight).toBeGreaterThan(stuck.lastValidBlockHeight ?? Infinity);
    s.sim.control.clearFaults(fault);
    const expired = s.executor.events.next('expired');
    await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect((await expired).row.signature).toBe(stuck.signature);

    const row = s.journal.require(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(2);
    expect(row.signature).not.toBe(stuck.signature);
    expect(signedAudit(s, stuck.id)).toEqual([stuck.signature, row.signature]);
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(actionKinds(s.db, row.id)).toEqual(expect.arrayContaining(['intent.expired', 'intent.rearmed']));
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('gives up after maxAttempts expired attempts, and says so', async () => {
    const s = testStack({ kinds: ['swap'], maxAttempts: 1 });
    s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'status', status: 503 });
    const stuck = await s.executor.execute(plan(dcaIntent()));
    await s.sim.control.advance(61_000);
    await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(s.journal.require(stuck.id)).toMatchObject({ state: 'failed', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 1 });
    expect(swapsLanded(s)).toEqual([]);
  });

  it('records fills exactly once across repeated reconciliations and restarts', async () => {
    const first = testStack({ kinds: ['swap'] });
    first.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    first.executor.events.on('sent', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    first.crash();

    const second = first.restart();
    for (let i = 0; i < 3; i++) await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    const [fill] = fills(second.db, stuck.id);
    expect(fill?.signature).toBe(stuck.signature);
    // Replaying the same fill (a re-poll, a history import) inserts nothing and audits nothing.
    const replay = {
      signature: fill?.signature ?? '',
      idx: 0,
      source: 'swap' as const,
      inMint: fill?.in_mint ?? '',
      inAmount: fill?.in_amount ?? '0',
      inDecimals: 6,
      outMint: fill?.out_mint ?? '',
      outAmount: fill?.out_amount ?? '0',
      outDecimals: 9,
      at: first.clock.now(),
    };
    expect(second.journal.recordFills(stuck.id, [replay, replay])).toBe(0);
    second.crash();

    const third = second.restart();
    await reconcile({ journal: third.journal, executor: third.executor, clock: third.clock });
    expect(fills(third.db, stuck.id)).toHaveLength(1);
    expect(actionKinds(third.db, stuck.id).filter((k) => k === 'fill')).toHaveLength(1);
    expect(swapsLanded(first)).toHaveLength(1);
  });
});
