import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { deposits, simOrders } from '../../../support/simViews.js';
import { type StackKind, testStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order'];

describe('vault handler: placing a Trigger V2 order', () => {
  it('places a single take-profit once across repeated drives and a restart', async () => {
    const first = testStack({ kinds: VAULT, seed: 'vault' });
    const row = await first.executor.execute(vaultIntent());
    expect(row.state).toBe('confirmed');
    expect(row.orderId).not.toBeNull();
    expect(row.depositRequestId).not.toBeNull();
    expect(deposits(first)).toBe(1);
    await first.sim.control.advance(2_000);
    expect(simOrders(first)).toEqual([expect.objectContaining({ id: row.orderId, orderState: 'open', orderType: 'single' })]);
    // Deciding the same thing again acts on the existing row: no craft, no create.
    const before = first.routes.length;
    expect((await first.executor.execute(vaultIntent())).state).toBe('confirmed');
    expect(first.routes.length).toBe(before);
    expect(first.orders.get(row.orderId ?? '')).toMatchObject({ intentId: row.id, orderType: 'single', depositSignature: row.signature });
    expect(actions(first.db, 'order.placed')).toHaveLength(1);
    expect(actions(first.db, 'deposit.crafted')).toHaveLength(1);
    first.crash();

    const second = first.restart();
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect((await second.executor.execute(vaultIntent())).state).toBe('confirmed');
    expect(second.routes).toEqual([]);
    expect(deposits(first)).toBe(1);
    expect(simOrders(first)).toHaveLength(1);
    expect(verifyAuditChain(second.db).ok).toBe(true);
  });

  it('write-ahead order: the depositRequestId and unsigned bytes are journaled before signing, the signed bytes before the create', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault' });
    const kinds: string[] = [];
    s.executor.events.on('signed', ({ row }) => {
      kinds.push('signed');
      expect(row.depositRequestId).not.toBeNull();
      expect(deposits(s)).toBe(0);
    });
    const row = await s.executor.execute(vaultIntent());
    expect(kinds).toEqual(['signed']);
    const crafted = JSON.parse(actions(s.db, 'deposit.crafted')[0]?.data ?? '{}') as { depositRequestId: string; transaction: string };
    expect(crafted.depositRequestId).toBe(row.depositRequestId);
    expect(crafted.transaction.length).toBeGreaterThan(0);
    // The session logs in at the first authenticated call, as the daemon's does.
    expect(s.routes).toEqual([
      '/trigger/v2/auth/challenge',
      '/trigger/v2/auth/verify',
      '/trigger/v2/vault',
      '/trigger/v2/vault/register',
      '/trigger/v2/deposit/craft',
      '/trigger/v2/orders/price',
      '/trigger/v2/orders/history',
    ]);
    // The vault is known from then on: the next order goes straight to its deposit.
    s.routes.length = 0;
    await s.executor.execute(vaultIntent({}, 'take_profit[1]'));
    expect(s.routes[0]).toBe('/trigger/v2/deposit/craft');
  });

  it('a crash after recordSigned, before the create: on restart the same deposit, one order', async () => {
    const first = testStack({ kinds: VAULT, seed: 'vault' });
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(vaultIntent());
    expect(stuck.state).toBe('signed');
    expect(deposits(first)).toBe(0);
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, audit: second.audit });
    expect(report.outcomes[stuck.id]).toBe('confirmed');
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(row.attempts).toBe(1);
    expect(second.routes.filter((r) => r === '/trigger/v2/deposit/craft')).toEqual([]);
    expect(deposits(first)).toBe(1);
    expect(simOrders(first)).toHaveLength(1);
  });

  it('a lost create answer: the order is found in history by the deposit signature, never created twice', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault' });
    s.sim.control.injectFault({ path: '/trigger/v2/orders/price', method: 'POST', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(vaultIntent());
    expect(row.state).toBe('confirmed');
    expect(actions(s.db, 'intent.outcome_unknown')).toHaveLength(1);
    // One create call (its answer lost), never a second one: the deposit's signature settled it.
    expect(s.routes.filter((r) => r === '/trigger/v2/orders/price')).toHaveLength(1);
    expect(s.routes.filter((r) => r === '/trigger/v2/deposit/craft')).toHaveLength(1);
    expect(deposits(s)).toBe(1);
    expect(simOrders(s)).toEqual([expect.objectContaining({ id: row.orderId })]);
    expect(actions(s.db, 'order.placed')).toHaveLength(1);
  });

  it('a create that never reached Jupiter: history first, then the same bytes again, one order', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault' });
    s.sim.control.injectFault({ path: '/trigger/v2/orders/price', method: 'POST', kind: 'reset', phase: 'before', count: 1 });
    const row = await s.executor.execute(vaultIntent());
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(deposits(s)).toBe(1);
    expect(simOrders(s)).toHaveLength(1);
    // The resend looked in history before posting again.
    const afterUnknown = s.routes.slice(s.routes.indexOf('/trigger/v2/orders/price') + 1);
    expect(afterUnknown.slice(0, 2)).toEqual(['/trigger/v2/orders/history', '/trigger/v2/orders/price']);
    expect(s.routes.filter((r) => r === '/trigger/v2/deposit/craft')).toHaveLength(1);
  });

  it('a tampered deposit (more than the intent) is refused by the guard: failed, guard.refused, nothing deposited', async () => {
    // A compromised craft: asks the API for twice the amount, reports the intent's amount back.
    const tampering =
      (base: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes('/deposit/craft')) return base(input, init);
        const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { amount: string };
        const asked = body.amount;
        const answer = await base(input, { ...init, body: JSON.stringify({ ...body, amount: (BigInt(asked) * 2n).toString() }) });
        const json = (await answer.json()) as Record<string, unknown>;
        return new Response(JSON.stringify({ ...json, amount: asked }), { status: answer.status, headers: answer.headers });
      };
    const s = testStack({ kinds: VAULT, seed: 'vault', fetch: tampering });
    const row = await s.executor.execute(vaultIntent());
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('GUARD_REFUSED');
    expect(actions(s.db, 'guard.refused')).toHaveLength(1);
    expect(s.routes).not.toContain('/trigger/v2/orders/price');
    expect(deposits(s)).toBe(0);
  });
});
