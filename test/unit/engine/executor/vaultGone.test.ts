import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { cancelIntent, vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order'];

const CANCEL_ROUTE = '/trigger/v2/orders/price/cancel/{orderId}';

/** The Trigger service loses `orderIds`, through its control surface. */
async function forget(w: TestStack, orderIds: readonly string[]): Promise<unknown> {
  const answer = await w.sim.dispatch({
    method: 'POST',
    path: '/__sim/trigger/forget',
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    rawBody: JSON.stringify({ orderIds }),
  });
  return JSON.parse(answer.body) as unknown;
}

const codes = (w: { db: Parameters<typeof actions>[0] }, kind: string): string[] =>
  actions(w.db, kind).map((a) => (JSON.parse(a.data) as { code: string }).code);

describe('a cancel of an order the Trigger API no longer knows', () => {
  it('backs off after each 404 (30 s, then 60 s) and fails VAULT_ORDER_GONE at the third: three cancel calls in ten minutes of passes every 5 s', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-gone-cancel' });
    const placed = await s.executor.execute(vaultIntent());
    const orderId = placed.orderId ?? '';
    await s.sim.control.advance(6_000);
    expect(await forget(s, [orderId])).toEqual({ forgotten: [orderId] });
    s.routes.length = 0;

    const first = await s.executor.execute(cancelIntent(orderId));
    expect(first.state).toBe('planned');
    const calls = (): number => s.routes.filter((r) => r === CANCEL_ROUTE).length;
    const callsAt: number[] = [];
    let last = calls();
    callsAt.push(s.clock.now());
    for (let pass = 0; pass < 120; pass++) {
      await s.sim.control.advance(5_000);
      await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
      if (calls() > last) callsAt.push(s.clock.now());
      last = calls();
    }

    expect(calls()).toBe(3);
    // 30 s after the first 404, then 60 s after the second (passes are 5 s apart).
    expect(callsAt.map((t) => (t - (callsAt[0] ?? 0)) / 1000)).toEqual([0, 30, 90]);
    const row = s.journal.require(first.id);
    expect(row).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_GONE' });
    expect(row.errorMessage).toBe(
      `order ${orderId}: the Trigger API answered 404 to 3 cancel requests, it no longer knows the order: nothing to withdraw through it, not asked again`,
    );
    expect(codes(s, 'intent.error')).toEqual(['VAULT_ORDER_NOT_FOUND', 'VAULT_ORDER_NOT_FOUND']);
    expect(actions(s.db, 'intent.error').map((a) => (JSON.parse(a.data) as { message: string }).message)).toEqual([
      `order ${orderId}: the Trigger API answered 404 to the cancel (1 of 3): asked again in 30s`,
      `order ${orderId}: the Trigger API answered 404 to the cancel (2 of 3): asked again in 1m`,
    ]);
    // Waiting wrote nothing: two errors, one failure, no note per pass.
    expect(actions(s.db, 'intent.waiting')).toEqual([]);
  });

  it('keeps the count of 404s across a restart: the new process waits out the back-off and fails at the third', async () => {
    const first = testStack({ kinds: VAULT, seed: 'vault-gone-restart' });
    const placed = await first.executor.execute(vaultIntent());
    const orderId = placed.orderId ?? '';
    await first.sim.control.advance(6_000);
    await forget(first, [orderId]);
    const cancel = await first.executor.execute(cancelIntent(orderId));
    await first.sim.control.advance(30_000);
    await first.executor.drive(cancel.id);
    expect(codes(first, 'intent.error')).toEqual(['VAULT_ORDER_NOT_FOUND', 'VAULT_ORDER_NOT_FOUND']);
    first.crash();

    const second = first.restart();
    await first.sim.control.advance(30_000);
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(second.routes).not.toContain(CANCEL_ROUTE);
    await first.sim.control.advance(30_000);
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(second.routes.filter((r) => r === CANCEL_ROUTE)).toHaveLength(1);
    expect(second.journal.require(cancel.id)).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_GONE' });
  });

  it('fails VAULT_ORDER_GONE with no call when the mirror already marked the order gone', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-gone-mirror' });
    const placed = await s.executor.execute(vaultIntent());
    const orderId = placed.orderId ?? '';
    // As the order sync records it once history has stopped listing the order (vanishedOrders.ts).
    s.orders.setState(orderId, 'gone', s.clock.now());
    s.routes.length = 0;
    const row = await s.executor.execute(cancelIntent(orderId));
    expect(row).toMatchObject({
      state: 'failed',
      errorCode: 'VAULT_ORDER_GONE',
      errorMessage: `order ${orderId} is gone (the Trigger API no longer knows it): nothing to cancel through it`,
    });
    expect(s.routes).toEqual([]);
  });
});
