import { describe, expect, it } from 'vitest';
import { syncDcaOrders } from '../../../../src/engine/mirror/dcaOrderSync.js';
import { cancelVaultOrderRoute } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { placeVaultOrderRoute } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { getAllDcaHistory } from '../../../../src/jupiter/trigger.js';
import { dcaCancelIntent, dcaVaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { USDC } from '../../../support/mints.js';
import { simDca, withdrawals } from '../../../support/simViews.js';
import { type StackKind, testStack } from '../../../support/testStack.js';

const DCA: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'place-dca-vault-order'];

describe('vault cancel handler: DCA orders, two steps', () => {
  it('one route plans cancels of both families; the place route wraps vaultPlacePlan', () => {
    const key = { strategy: 's', version: 'ab'.repeat(32), rule: 'cancel', trigger: 'o1' };
    for (const family of ['price', 'dca'] as const) {
      const plan = cancelVaultOrderRoute.plan({
        kind: 'cancel-vault-order',
        key,
        id: `s/x/cancel/${family}`,
        reason: 'r',
        evidence: { a: 1 },
        orderId: 'o1',
        family,
      });
      expect(plan).toMatchObject({
        kind: 'cancel-vault-order',
        params: { orderId: 'o1', family, strategyHash: key.version },
        evidence: { a: 1, trigger: 'o1' },
      });
    }
    expect(cancelVaultOrderRoute.kind).toBe('cancel-vault-order');
    expect(placeVaultOrderRoute.kind).toBe('place-vault-order');
  });

  it('"cannot cancel while depositing" leaves it planned; a later pass cancels once and refunds the rest', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-cancel' });
    const placed = await s.executor.execute(dcaVaultIntent());
    const orderId = placed.orderId ?? '';
    const early = await s.executor.execute(dcaCancelIntent(orderId));
    expect(early.state).toBe('planned');
    expect(actions(s.db, 'intent.error').map((a) => JSON.parse(a.data) as { code: string })).toEqual([
      expect.objectContaining({ code: 'TRIGGER_BAD_REQUEST' }),
    ]);

    await s.sim.control.advance(1_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock });
    expect(report.outcomes[early.id]).toBe('confirmed');
    const row = s.journal.require(early.id);
    expect(row.cancelRequestId).not.toBeNull();
    expect(s.routes).toContain('/trigger/v2/orders/dca/cancel/{id}');
    expect(s.routes).toContain('/trigger/v2/orders/dca/confirm-cancel/{id}');
    expect(simDca(s)).toEqual([expect.objectContaining({ id: orderId, state: 'cancelled', roundsFilled: 1 })]);
    expect(s.orders.get(orderId)?.state).toBe('cancelled');
    expect(actions(s.db, 'order.cancelled')).toHaveLength(1);
    expect(JSON.parse(actions(s.db, 'cancel.requested')[0]?.data ?? '{}')).toMatchObject({ family: 'dca', refundAmount: '40000000', roundsRemaining: 2 });
    expect(withdrawals(s, USDC)).toBe(1);

    // The round filled before the cancel is still recorded by the next read (the order is no longer live).
    const items = await getAllDcaHistory(s.authed);
    expect(syncDcaOrders(items, s.sync)).toBe(1);
    expect(syncDcaOrders(items, s.sync)).toBe(0);
    expect(actions(s.db, 'order.cancelled')).toHaveLength(1);
    expect(s.orders.get(orderId)?.state).toBe('cancelled');
  });

  it('a crash between the steps: the restart confirms the same bytes, step 1 is not asked again, one withdrawal', async () => {
    const first = testStack({ kinds: DCA, seed: 'dca-cancel-crash' });
    const placed = await first.executor.execute(dcaVaultIntent());
    await first.sim.control.advance(1_000);
    first.executor.events.on('signed', ({ row }) => {
      if (row.kind === 'cancel-vault-order') first.executor.stop();
    });
    const stuck = await first.executor.execute(dcaCancelIntent(placed.orderId ?? ''));
    expect(stuck.state).toBe('signed');
    expect(stuck.cancelRequestId).not.toBeNull();
    expect(simDca(first)[0]?.state).toBe('withdrawing');
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(report.outcomes[stuck.id]).toBe('confirmed');
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(row.cancelRequestId).toBe(stuck.cancelRequestId);
    expect(second.routes).not.toContain('/trigger/v2/orders/dca/cancel/{id}');
    expect(simDca(first)[0]?.state).toBe('cancelled');
    expect(withdrawals(first, USDC)).toBe(1);
    await second.executor.drive(stuck.id);
    expect(withdrawals(first, USDC)).toBe(1);
    expect(actions(second.db, 'order.cancelled')).toHaveLength(1);
  });

  it('a crash after step 1, before signing: the restart asks step 1 again (it supersedes), one withdrawal', async () => {
    const first = testStack({ kinds: DCA, seed: 'dca-cancel-step1' });
    const placed = await first.executor.execute(dcaVaultIntent());
    await first.sim.control.advance(1_000);
    const plan = dcaCancelIntent(placed.orderId ?? '');
    first.executor.plan(plan);
    first.journal.recordTriggerIds(plan.id, { cancelRequestId: 'lost-in-crash' }, 'cancel.requested', {});
    first.crash();

    const second = first.restart();
    const row = await second.executor.drive(plan.id);
    expect(row.state).toBe('confirmed');
    expect(row.cancelRequestId).not.toBe('lost-in-crash');
    expect(simDca(first)[0]?.state).toBe('cancelled');
    expect(withdrawals(first, USDC)).toBe(1);
  });
});
