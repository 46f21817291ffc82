import { describe, expect, it } from 'vitest';
import { vaultPatchPlan } from '../../../../src/engine/executor/vault/patchVaultOrder.js';
import { updatePriceOrder } from '../../../../src/jupiter/trigger.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { vaultIntent } from '../../../support/intentPlans.js';
import { actionKinds, actions } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { simOrder } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'patch-vault-order'];

const PATCH = 'PATCH /trigger/v2/orders/price/{orderId}';

/** A single stop-loss (sell SOL below $120) placed while SOL is at $150. */
async function placedStop(s: TestStack): Promise<string> {
  s.sim.control.setPrice(SOL, 150);
  const row = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
  expect(row.state).toBe('confirmed');
  // Open once its deposit settled (a PATCH before that is refused: "only open orders").
  await s.sim.control.advance(2_000);
  return row.orderId ?? '';
}

function patchIntent(orderId: string, triggerPriceUsd: string): PlanInput {
  const key = { strategy: 'tp-sol', version: 'cd'.repeat(32), rule: 'trailing_stop', trigger: `ratchet:${triggerPriceUsd}` };
  return vaultPatchPlan({
    kind: 'patch-vault-order',
    key,
    id: `tp-sol/${key.version.slice(0, 12)}/trailing_stop/${key.trigger}`,
    reason: 'raise the stop',
    evidence: {},
    orderId,
    orderType: 'single',
    triggerPriceUsd,
  });
}

const patches = (s: TestStack): number => s.calls.filter((r) => r === PATCH).length;

describe('vault handler: PATCH of a price order (the unsigned path)', () => {
  it('journals sent before the call, then confirms; the order and the mirror carry the new trigger', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-ok' });
    const orderId = await placedStop(s);
    const seenAtSend: Array<{ state: string; trigger: number | null | undefined }> = [];
    s.executor.events.on('sent', ({ row }) => {
      if (row.kind === 'patch-vault-order') seenAtSend.push({ state: s.journal.require(row.id).state, trigger: simOrder(s, orderId)?.triggerPriceUsd });
    });
    const row = await s.executor.execute(patchIntent(orderId, '130'));
    expect(row.state).toBe('confirmed');
    // Write-ahead: the row said sent while the order still had its old trigger.
    expect(seenAtSend).toEqual([{ state: 'sent', trigger: 120 }]);
    expect(simOrder(s, orderId)?.triggerPriceUsd).toBe(130);
    expect(s.db.prepare('SELECT trigger_price_usd AS t FROM trigger_orders WHERE id = ?').get(orderId)).toEqual({ t: '130' });
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.sent', 'intent.confirmed']);
    expect(row.signature).toBeNull();
    expect(patches(s)).toBe(1);
    // Deciding it again acts on the existing row: no second PATCH.
    expect((await s.executor.execute(patchIntent(orderId, '130'))).state).toBe('confirmed');
    expect(patches(s)).toBe(1);
  });

  it('a crash after markSent, before the call: the restart reads history, then PATCHes once', async () => {
    const first = testStack({ kinds: VAULT, seed: 'patch-crash-before' });
    const orderId = await placedStop(first);
    const plan = patchIntent(orderId, '131');
    first.executor.plan(plan);
    first.journal.markSent(plan.id, { mode: 'call' });
    first.crash();

    const second = first.restart();
    const row = await second.executor.drive(plan.id);
    expect(row.state).toBe('confirmed');
    // The new process logs in first, as the daemon's does.
    expect(second.calls.slice(0, 4)).toEqual(['POST /trigger/v2/auth/challenge', 'POST /trigger/v2/auth/verify', 'GET /trigger/v2/orders/history', PATCH]);
    expect(patches(second)).toBe(1);
    expect(simOrder(first, orderId)?.triggerPriceUsd).toBe(131);
    expect(actions(second.db, 'intent.recalled')).toHaveLength(1);
  });

  it('a crash after the PATCH took effect: history shows it, confirmed without a second PATCH', async () => {
    const first = testStack({ kinds: VAULT, seed: 'patch-crash-after' });
    const orderId = await placedStop(first);
    const plan = patchIntent(orderId, '132');
    first.executor.plan(plan);
    first.journal.markSent(plan.id, { mode: 'call' });
    await updatePriceOrder(first.authed, { orderId, orderType: 'single', triggerPriceUsd: 132 });
    first.crash();

    const second = first.restart();
    const row = await second.executor.drive(plan.id);
    expect(row.state).toBe('confirmed');
    expect(patches(second)).toBe(0);
    expect(JSON.parse(actions(second.db, 'intent.confirmed').at(-1)?.data ?? '{}')).toMatchObject({ via: 'history', mode: 'settle', triggerPriceUsd: '132' });
  });

  it('a lost answer (reset after the PATCH ran): stays sent; the next pass settles it from history', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-lost' });
    const orderId = await placedStop(s);
    s.sim.control.injectFault({ path: '/trigger/v2/orders/price/*', method: 'PATCH', kind: 'reset', phase: 'after', count: 1 });
    const stuck = await s.executor.execute(patchIntent(orderId, '133'));
    expect(stuck.state).toBe('sent');
    expect(actions(s.db, 'intent.outcome_unknown')).toHaveLength(1);
    const row = await s.executor.drive(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(patches(s)).toBe(1);
    expect(simOrder(s, orderId)?.triggerPriceUsd).toBe(133);
  });

  it('a 5xx: stays sent; the next pass finds the order unchanged and PATCHes again (idempotent)', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-503' });
    const orderId = await placedStop(s);
    const fault = s.sim.control.injectFault({ path: '/trigger/v2/orders/price/*', method: 'PATCH', kind: 'status', status: 503 });
    const stuck = await s.executor.execute(patchIntent(orderId, '134'));
    expect(stuck.state).toBe('sent');
    expect(stuck.errorCode).toBeNull();
    expect(simOrder(s, orderId)?.triggerPriceUsd).toBe(120);
    // Still failing: the pass reads history, PATCHes (bounded per drive), and leaves it sent.
    expect((await s.executor.drive(stuck.id)).state).toBe('sent');
    s.sim.control.clearFaults(fault);
    const row = await s.executor.drive(stuck.id);
    expect(row.state).toBe('confirmed');
    expect(simOrder(s, orderId)?.triggerPriceUsd).toBe(134);
  });

  it('a 4xx (the order filled meanwhile) fails the intent with the API code, for good', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-filled' });
    const orderId = await placedStop(s);
    s.sim.control.setPrice(SOL, 110);
    await s.sim.control.advance(30_000);
    expect(simOrder(s, orderId)?.orderState).toBe('filled');
    const row = await s.executor.execute(patchIntent(orderId, '135'));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('TRIGGER_BAD_REQUEST');
    expect(patches(s)).toBe(1);
    // Final: driving it again calls nothing.
    expect((await s.executor.drive(row.id)).state).toBe('failed');
    expect(patches(s)).toBe(1);
  });

  it('a sent PATCH whose order is no longer open (and never took it) fails VAULT_ORDER_NOT_OPEN on settle', async () => {
    const first = testStack({ kinds: VAULT, seed: 'patch-settle-closed' });
    const orderId = await placedStop(first);
    const plan = patchIntent(orderId, '136');
    first.executor.plan(plan);
    first.journal.markSent(plan.id, { mode: 'call' });
    first.crash();
    first.sim.control.setPrice(SOL, 110);
    await first.sim.control.advance(30_000);

    const second = first.restart();
    const row = await second.executor.drive(plan.id);
    expect(row).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_NOT_OPEN' });
    expect(patches(second)).toBe(0);
  });

  it('a PATCH of an order still pending (just created) is not failed: it stays sent and goes through once open', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-pending' });
    s.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
    const orderId = placed.orderId ?? '';
    const stuck = await s.executor.execute(patchIntent(orderId, '125'));
    expect(stuck.state).toBe('sent');
    expect(JSON.parse(actions(s.db, 'intent.outcome_unknown')[0]?.data ?? '{}')).toMatchObject({ code: 'VAULT_ORDER_NOT_YET_OPEN' });
    await s.sim.control.advance(2_000);
    expect((await s.executor.drive(stuck.id)).state).toBe('confirmed');
    expect(simOrder(s, orderId)?.triggerPriceUsd).toBe(125);
  });

  it('params that cannot parse fail PARAMS_INVALID without a call', async () => {
    const s = testStack({ kinds: VAULT, seed: 'patch-params' });
    const plan = { ...patchIntent('some-order', '1'), params: { orderId: 'some-order', orderType: 'single' } };
    const row = await s.executor.execute(plan);
    expect(row).toMatchObject({ state: 'failed', errorCode: 'PARAMS_INVALID' });
    expect(patches(s)).toBe(0);
  });
});
