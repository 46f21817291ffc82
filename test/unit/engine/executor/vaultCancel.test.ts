import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { cancelIntent, vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { simOrders, withdrawals } from '../../../support/simViews.js';
import { type StackKind, testStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order'];

describe('vault handler: the two-step cancel', () => {
  it('"not ready" just after creation leaves the cancel planned; a later pass cancels the order once', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-cancel' });
    const placed = await s.executor.execute(vaultIntent());
    const orderId = placed.orderId ?? '';
    const early = await s.executor.execute(cancelIntent(orderId));
    expect(early.state).toBe('planned');
    expect(actions(s.db, 'intent.error').map((a) => JSON.parse(a.data) as { code: string })).toEqual([
      expect.objectContaining({ code: 'TRIGGER_BAD_REQUEST' }),
    ]);

    await s.sim.control.advance(6_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(report.outcomes[early.id]).toBe('confirmed');
    const row = s.journal.require(early.id);
    expect(row.cancelRequestId).not.toBeNull();
    expect(simOrders(s)).toEqual([expect.objectContaining({ id: orderId, orderState: 'cancelled' })]);
    expect(s.orders.get(orderId)?.state).toBe('cancelled');
    expect(actions(s.db, 'order.cancelled')).toHaveLength(1);
    expect(withdrawals(s, SOL)).toBe(1);
  });

  it('a cancel of an order that already filled fails VAULT_ORDER_NOT_OPEN at once, with no call, instead of retrying forever', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-cancel-filled' });
    const placed = await s.executor.execute(vaultIntent());
    const orderId = placed.orderId ?? '';
    // As the orders feed's sync records it once the keeper has filled the order.
    s.db.prepare("UPDATE trigger_orders SET state = 'filled' WHERE id = ?").run(orderId);
    s.routes.length = 0;
    const row = await s.executor.execute(cancelIntent(orderId));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_NOT_OPEN' });
    expect(s.routes).toEqual([]);
    expect(withdrawals(s, SOL)).toBe(0);
  });

  it('a crash between the steps (withdrawal signed, not confirmed): the restart confirms the same bytes, once', async () => {
    const first = testStack({ kinds: VAULT, seed: 'vault-cancel-crash' });
    const placed = await first.executor.execute(vaultIntent());
    await first.sim.control.advance(6_000);
    first.executor.events.on('signed', ({ row }) => {
      if (row.kind === 'cancel-vault-order') first.executor.stop();
    });
    const stuck = await first.executor.execute(cancelIntent(placed.orderId ?? ''));
    expect(stuck.state).toBe('signed');
    expect(stuck.cancelRequestId).not.toBeNull();
    expect(simOrders(first)[0]?.orderState).toBe('pending_withdraw');
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(report.outcomes[stuck.id]).toBe('confirmed');
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(row.cancelRequestId).toBe(stuck.cancelRequestId);
    // Step 1 was not asked again: the journaled cancelRequestId and bytes were enough.
    expect(second.routes).not.toContain('/trigger/v2/orders/price/cancel/{orderId}');
    expect(simOrders(first)[0]?.orderState).toBe('cancelled');
    expect(withdrawals(first, SOL)).toBe(1);
    // Confirming again (a lost answer, another pass) is harmless: the same signature, nothing moves.
    await second.executor.drive(stuck.id);
    expect(withdrawals(first, SOL)).toBe(1);
  });

  it('a crash after step 1, before signing: the restart asks step 1 again (it supersedes), one withdrawal', async () => {
    const first = testStack({ kinds: VAULT, seed: 'vault-cancel-step1' });
    const placed = await first.executor.execute(vaultIntent());
    await first.sim.control.advance(6_000);
    const plan = cancelIntent(placed.orderId ?? '');
    first.executor.plan(plan);
    first.journal.recordTriggerIds(plan.id, { cancelRequestId: 'lost-in-crash' }, 'cancel.requested', {});
    first.crash();

    const second = first.restart();
    const row = await second.executor.drive(plan.id);
    expect(row.state).toBe('confirmed');
    expect(row.cancelRequestId).not.toBe('lost-in-crash');
    expect(simOrders(first)[0]?.orderState).toBe('cancelled');
    expect(withdrawals(first, SOL)).toBe(1);
  });
});
