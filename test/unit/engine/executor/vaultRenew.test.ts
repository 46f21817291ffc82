import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../../src/engine/reconcile.js';
import type { RenewVaultOrderIntent, VaultOrderParams } from '../../../../src/strategies/intents.js';
import { STALE_PRICE_MS } from '../../../../src/strategies/snapshot.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { cancelIntent, SOL_TAKE_PROFIT, vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { depositAmounts, simOrder, simOrders, withdrawals } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';
import { vaultRenewPlan, successorId } from '../../../../src/engine/executor/vault/renewVaultOrder.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'renew-vault-order', 'patch-vault-order'];

const OLD_EXPIRY = Date.UTC(2026, 0, 8);
const NEW_EXPIRY = Date.UTC(2026, 0, 11);

function renewIntent(orderId: string, replacement: Partial<VaultOrderParams> = {}, strategy = 'tp-sol'): RenewVaultOrderIntent {
  const key = { strategy, version: 'cd'.repeat(32), rule: 'take_profit[0]', trigger: `renew:${orderId}@${OLD_EXPIRY}` };
  return {
    kind: 'renew-vault-order',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`,
    reason: 'take profit on SOL: the order expires soon',
    evidence: { expiresAt: OLD_EXPIRY },
    orderId,
    replacement: {
      ...SOL_TAKE_PROFIT,
      expiresAt: NEW_EXPIRY,
      ...replacement,
    },
  };
}

function renewPlan(orderId: string, replacement: Partial<VaultOrderParams> = {}): PlanInput {
  const plan = vaultRenewPlan(renewIntent(orderId, replacement));
  if (!plan) throw new Error('no plan');
  return plan;
}

/** 1 SOL take-profit placed, old enough to be cancelled. */
async function placed(s: TestStack): Promise<string> {
  const row = await s.executor.execute(vaultIntent());
  expect(row.state).toBe('confirmed');
  await s.sim.control.advance(6_000);
  return row.orderId ?? '';
}

describe('vault renewal: the withdrawal, then the replacement, chained in the journal', () => {
  it('cancels the old order and places the replacement in one drive: one new deposit, of the old amount', async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-ok' });
    const oldId = await placed(s);
    const plan = renewPlan(oldId);
    const row = await s.executor.execute(plan);
    expect(row).toMatchObject({ state: 'confirmed', kind: 'renew-vault-order' });
    const next = s.journal.require(successorId(plan.id));
    expect(next).toMatchObject({ state: 'confirmed', kind: 'place-vault-order', strategy: 'tp-sol', rule: 'take_profit[0]' });
    expect(next.params).toMatchObject({ inputAmount: '1000000000', expiresAt: NEW_EXPIRY, triggerPriceUsd: '300' });
    expect(simOrder(s, oldId)?.orderState).toBe('cancelled');
    const replacement = simOrder(s, next.orderId ?? '');
    expect(replacement).toMatchObject({ initialInputAmount: '1000000000', expiresAt: NEW_EXPIRY });
    expect(depositAmounts(s)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(withdrawals(s, SOL)).toBe(1);
    expect(simOrders(s)).toHaveLength(2);
    // The successor was planned in the transaction that confirmed the cancel: adjacent audit rows.
    const rows = s.db.prepare("SELECT id, kind, intent_id FROM actions WHERE kind IN ('intent.confirmed', 'intent.planned') ORDER BY id").all() as Array<{
      id: number;
      kind: string;
      intent_id: string;
    }>;
    const confirmedAt = rows.findIndex((r) => r.kind === 'intent.confirmed' && r.intent_id === plan.id);
    expect(rows[confirmedAt + 1]).toMatchObject({ kind: 'intent.planned', intent_id: next.id, id: (rows[confirmedAt]?.id ?? 0) + 1 });
    expect(JSON.parse(actions(s.db, 'intent.confirmed').find((a) => a.intent_id === plan.id)?.data ?? '{}')).toMatchObject({ successor: next.id });
    // Deciding the renewal again finds both rows: nothing more happens.
    await s.executor.execute(plan);
    expect(depositAmounts(s)).toHaveLength(2);
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('a crash between the cancel confirmed and the replacement driven: reconciliation places it, however old', async () => {
    const first = testStack({ kinds: VAULT, seed: 'renew-crash-between' });
    const oldId = await placed(first);
    first.executor.events.on('confirmed', ({ row }) => {
      if (row.kind === 'renew-vault-order') first.executor.stop();
    });
    const plan = renewPlan(oldId);
    expect((await first.executor.execute(plan)).state).toBe('confirmed');
    expect(first.journal.require(successorId(plan.id)).state).toBe('planned');
    expect(simOrder(first, oldId)?.orderState).toBe('cancelled');
    expect(depositAmounts(first)).toHaveLength(1);
    first.crash();

    // Down longer than a market price stays fresh: the replacement is not dropped as stale.
    await first.clock.advance(10 * 60_000);
    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[successorId(plan.id)]).toBe('confirmed');
    expect(depositAmounts(first)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(simOrders(first).filter((o) => o.orderState !== 'cancelled')).toHaveLength(1);
  });

  it('a crash mid-cancel (withdrawal signed, not confirmed): the restart finishes the cancel, then the replacement', async () => {
    const first = testStack({ kinds: VAULT, seed: 'renew-crash-mid' });
    const oldId = await placed(first);
    first.executor.events.on('signed', ({ row }) => {
      if (row.kind === 'renew-vault-order') first.executor.stop();
    });
    const plan = renewPlan(oldId);
    expect((await first.executor.execute(plan)).state).toBe('signed');
    expect(first.journal.get(successorId(plan.id))).toBeUndefined();
    first.crash();

    await first.clock.advance(10 * 60_000);
    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[plan.id]).toBe('confirmed');
    expect(second.journal.require(successorId(plan.id)).state).toBe('confirmed');
    expect(withdrawals(first, SOL)).toBe(1);
    expect(depositAmounts(first)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(simOrders(first).filter((o) => o.orderState === 'open' || o.orderState === 'pending')).toHaveLength(1);
    // Another pass: nothing left, nothing more deposited.
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, staleAfterMs: STALE_PRICE_MS });
    expect(depositAmounts(first)).toHaveLength(2);
  });

  it('a replacement that could never be placed fails the renewal before anything is withdrawn', async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-refused' });
    const oldId = await placed(s);
    const row = await s.executor.execute(renewPlan(oldId, { expiresAt: s.clock.now() - 1 }));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_EXPIRED' });
    expect(simOrder(s, oldId)?.orderState).toBe('open');
    expect(withdrawals(s, SOL)).toBe(0);
    expect(s.calls).not.toContain('POST /trigger/v2/orders/price/cancel/{orderId}');
  });

  it('a plain cancel, through the same withdrawal steps, has no successor', async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-plain' });
    const oldId = await placed(s);
    const row = await s.executor.execute(cancelIntent(oldId));
    expect(row.state).toBe('confirmed');
    expect(s.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'place-vault-order'").get()).toEqual({ n: 1 });
    expect(simOrder(s, oldId)?.orderState).toBe('cancelled');
  });

  it('a cancel row carrying a replacement (how renewals were once journaled) is refused before any call: only renew-vault-order renews', async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-old-shape' });
    const oldId = await placed(s);
    const plan = renewPlan(oldId);
    const row = await s.executor.execute({ ...plan, kind: 'cancel-vault-order' });
    expect(row).toMatchObject({ state: 'failed', errorCode: 'PARAMS_INVALID' });
    expect(s.journal.get(successorId(plan.id))).toBeUndefined();
    expect(simOrder(s, oldId)?.orderState).toBe('open');
    expect(s.calls).not.toContain('POST /trigger/v2/orders/price/cancel/{orderId}');
  });

  it("staleness: a planned renewal is resumed however old (its levels are the strategy's own), then its replacement", async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-stale-renewal' });
    const oldId = await placed(s);
    const plan = renewPlan(oldId);
    s.executor.plan(plan);
    await s.clock.advance(10 * 60_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[plan.id]).toBe('confirmed');
    expect(s.journal.require(successorId(plan.id)).state).toBe('confirmed');
    expect(simOrder(s, oldId)?.orderState).toBe('cancelled');
  });

  it('staleness: a planned PATCH (decided on a price) is cancelled when old; a planned placement never is', async () => {
    const s = testStack({ kinds: VAULT, seed: 'renew-stale' });
    const place = vaultIntent();
    s.executor.plan(place);
    const patch = {
      id: 'tp-sol/cdcdcdcdcdcd/trailing_stop/ratchet:140',
      kind: 'patch-vault-order',
      strategy: 'tp-sol',
      rule: 'trailing_stop',
      params: { orderId: 'x', orderType: 'single', triggerPriceUsd: '140' },
    };
    s.executor.plan(patch);
    await s.clock.advance(10 * 60_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: s.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes).toEqual({ [patch.id]: 'cancelled', [place.id]: 'confirmed' });
    expect(s.journal.require(patch.id).errorCode).toBe('STALE_INTENT');
  });

  it('the route defers a renewal whose replacement id would not fit the journal', () => {
    expect(vaultRenewPlan(renewIntent('o'.repeat(44), {}, 'a-strategy-name-that-is-long-enough-to-overflow-the-journal-id'))).toBeUndefined();
    const plan = vaultRenewPlan(renewIntent('o'.repeat(44)));
    expect(plan?.params).toMatchObject({ orderId: 'o'.repeat(44), family: 'price', then: { params: { inputAmount: '1000000000', expiresAt: NEW_EXPIRY } } });
  });
});
