import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { actionKinds, dcaIntent, fills, plan, world, type Stack } from './support.js';

/** Simulates a process death: no further calls from this stack, its database connection closed. */
function crash(s: Stack): void {
  s.executor.stop();
  s.db.close();
}

const signedAudit = (s: Stack, id: string): string[] =>
  (s.db.prepare("SELECT signature FROM actions WHERE intent_id = ? AND kind = 'intent.signed' ORDER BY id").all(id) as { signature: string }[]).map(
    (r) => r.signature,
  );

describe('executor: crashes, unknown outcomes and expiry', () => {
  it('a crash after recordSigned, before submit: reconciliation sends the same bytes, one swap', async () => {
    const w = world();
    const first = w.boot();
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('signed');
    expect(w.swapsLanded()).toEqual([]);
    const bytes = Buffer.from(stuck.signedTx ?? []).toString('base64');
    crash(first);

    const second = w.boot();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock, audit: second.audit });
    expect(report).toMatchObject({ examined: 1, stillPending: 0, outcomes: { [stuck.id]: 'confirmed' } });
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(Buffer.from(row.signedTx ?? []).toString('base64')).toBe(bytes);
    expect(row.attempts).toBe(1);
    expect(w.swapsLanded()).toEqual([stuck.signature]);
    expect(fills(second.db, row.id)).toHaveLength(1);
    expect(second.routes.filter((r) => r === '/swap/v2/order')).toEqual([]);
  });

  it('re-sends the same bytes through RPC when Jupiter has forgotten the requestId', async () => {
    const w = world();
    const first = w.boot();
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    crash(first);
    w.sim.control.injectFault({
      path: '/swap/v2/execute',
      kind: 'status',
      status: 200,
      body: { status: 'Failed', code: -1, error: 'Order not found, it might have expired', slot: '0' },
      count: 1,
    });

    const second = w.boot();
    await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock });
    const row = second.journal.require(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(w.swapsLanded()).toEqual([stuck.signature]);
    expect(actionKinds(second.db, row.id)).toContain('intent.outcome_unknown');
    // The amounts came from re-polling /execute (idempotent), recorded once.
    expect(fills(second.db, row.id)).toHaveLength(1);
  });

  it('a crash after submit with the answer lost: reconciliation confirms by signature, no second swap', async () => {
    const w = world();
    const first = w.boot();
    // The swap lands, the connection drops before the answer: the outcome is unknown to us.
    w.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    first.executor.events.on('sent', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('sent');
    expect(w.swapsLanded()).toEqual([stuck.signature]);
    expect(actionKinds(first.db, stuck.id)).toContain('intent.outcome_unknown');
    crash(first);

    const second = w.boot();
    const confirmed = second.executor.events.next('confirmed');
    await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock });
    expect((await confirmed).row).toMatchObject({ id: stuck.id, state: 'confirmed', signature: stuck.signature, attempts: 1 });
    expect(w.swapsLanded()).toEqual([stuck.signature]);
    expect(fills(second.db, stuck.id)).toHaveLength(1);
    expect(second.routes.filter((r) => r === '/swap/v2/order')).toEqual([]);
  });

  it('an unknown outcome without a crash is resolved at once by signature', async () => {
    const w = world();
    const s = w.boot();
    w.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('confirmed');
    expect(w.swapsLanded()).toEqual([row.signature]);
    expect(fills(s.db, row.id)).toHaveLength(1);
  });

  it('blockhash expiry without landing: a new attempt with a new signature, one swap overall', async () => {
    const w = world();
    const s = w.boot();
    const fault = w.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'status', status: 503 });
    const stuck = await s.executor.execute(plan(dcaIntent()));
    expect(stuck.state).toBe('sent');
    expect(actionKinds(s.db, stuck.id).filter((k) => k === 'intent.resent')).toHaveLength(1);

    // Still valid: reconciliation re-sends the same bytes and never re-signs.
    await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock });
    expect(s.journal.require(stuck.id)).toMatchObject({ state: 'sent', signature: stuck.signature, attempts: 1 });
    expect(signedAudit(s, stuck.id)).toHaveLength(1);

    // Past lastValidBlockHeight (150 blocks of 400 ms), never landed.
    await w.sim.control.advance(61_000);
    expect(w.sim.control.state().blockHeight).toBeGreaterThan(stuck.lastValidBlockHeight ?? Infinity);
    w.sim.control.clearFaults(fault);
    const expired = s.executor.events.next('expired');
    await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock });
    expect((await expired).row.signature).toBe(stuck.signature);

    const row = s.journal.require(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(2);
    expect(row.signature).not.toBe(stuck.signature);
    expect(signedAudit(s, stuck.id)).toEqual([stuck.signature, row.signature]);
    expect(w.swapsLanded()).toEqual([row.signature]);
    expect(actionKinds(s.db, row.id)).toEqual(expect.arrayContaining(['intent.expired', 'intent.rearmed']));
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('gives up after maxAttempts expired attempts, and says so', async () => {
    const w = world();
    const s = w.boot({ maxAttempts: 1 });
    w.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'status', status: 503 });
    const stuck = await s.executor.execute(plan(dcaIntent()));
    await w.sim.control.advance(61_000);
    await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock });
    expect(s.journal.require(stuck.id)).toMatchObject({ state: 'failed', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 1 });
    expect(w.swapsLanded()).toEqual([]);
  });

  it('records fills exactly once across repeated reconciliations and restarts', async () => {
    const w = world();
    const first = w.boot();
    w.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 1 });
    first.executor.events.on('sent', () => first.executor.stop());
    const stuck = await first.executor.execute(plan(dcaIntent()));
    crash(first);

    const second = w.boot();
    for (let i = 0; i < 3; i++) await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock });
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
      at: w.clock.now(),
    };
    expect(second.journal.recordFills(stuck.id, [replay, replay])).toBe(0);
    crash(second);

    const third = w.boot();
    await reconcile({ journal: third.journal, executor: third.executor, clock: w.clock });
    expect(fills(third.db, stuck.id)).toHaveLength(1);
    expect(actionKinds(third.db, stuck.id).filter((k) => k === 'fill')).toHaveLength(1);
    expect(w.swapsLanded()).toHaveLength(1);
  });
});
