import { describe, expect, it } from 'vitest';
import { vaultRenewPlan, successorId } from '../../../../src/engine/executor/vault/renewVaultOrder.js';
import { reconcile } from '../../../../src/engine/reconcile.js';
import type { RenewVaultOrderIntent, VaultOrderParams } from '../../../../src/strategies/intents.js';
import { STALE_PRICE_MS } from '../../../../src/strategies/snapshot.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { bootFull, crash, depositAmounts, type FullVaultStack, simOrder } from './patchRenewSupport.js';
import { actions, cancelIntent, SOL, SOL_TAKE_PROFIT, vaultIntent, vaultWorld, type VaultWorld } from './vaultSupport.js';

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
async function placed(w: VaultWorld, s: FullVaultStack): Promise<string> {
  const row = await s.executor.execute(vaultIntent());
  expect(row.state).toBe('confirmed');
  await w.sim.control.advance(6_000);
  return row.orderId ?? '';
}

const withdrawals = (w: VaultWorld): number =>
  w.sim.control.dumpLedger().entries.filter((e) => e.reason === 'withdrawal' && e.wallet === w.wallet.address && e.mint === SOL && BigInt(e.delta) > 0n).length;

describe('vault renewal: the withdrawal, then the replacement, chained in the journal', () => {
  it('cancels the old order and places the replacement in one drive: one new deposit, of the old amount', async () => {
    const w = vaultWorld('renew-ok');
    const s = bootFull(w);
    const oldId = await placed(w, s);
    const plan = renewPlan(oldId);
    const row = await s.executor.execute(plan);
    expect(row).toMatchObject({ state: 'confirmed', kind: 'renew-vault-order' });
    const next = s.journal.require(successorId(plan.id));
    expect(next).toMatchObject({ state: 'confirmed', kind: 'place-vault-order', strategy: 'tp-sol', rule: 'take_profit[0]' });
    expect(next.params).toMatchObject({ inputAmount: '1000000000', expiresAt: NEW_EXPIRY, triggerPriceUsd: '300' });
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    const replacement = simOrder(w, next.orderId ?? '');
    expect(replacement).toMatchObject({ initialInputAmount: '1000000000', expiresAt: NEW_EXPIRY });
    expect(depositAmounts(w)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(withdrawals(w)).toBe(1);
    expect(w.simOrders()).toHaveLength(2);
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
    expect(depositAmounts(w)).toHaveLength(2);
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('a crash between the cancel confirmed and the replacement driven: reconciliation places it, however old', async () => {
    const w = vaultWorld('renew-crash-between');
    const first = bootFull(w);
    const oldId = await placed(w, first);
    first.executor.events.on('confirmed', ({ row }) => {
      if (row.kind === 'renew-vault-order') first.executor.stop();
    });
    const plan = renewPlan(oldId);
    expect((await first.executor.execute(plan)).state).toBe('confirmed');
    expect(first.journal.require(successorId(plan.id)).state).toBe('planned');
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    expect(depositAmounts(w)).toHaveLength(1);
    crash(first);

    // Down longer than a market price stays fresh: the replacement is not dropped as stale.
    await w.clock.advance(10 * 60_000);
    const second = bootFull(w);
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[successorId(plan.id)]).toBe('confirmed');
    expect(depositAmounts(w)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(w.simOrders().filter((o) => o.orderState !== 'cancelled')).toHaveLength(1);
  });

  it('a crash mid-cancel (withdrawal signed, not confirmed): the restart finishes the cancel, then the replacement', async () => {
    const w = vaultWorld('renew-crash-mid');
    const first = bootFull(w);
    const oldId = await placed(w, first);
    first.executor.events.on('signed', ({ row }) => {
      if (row.kind === 'renew-vault-order') first.executor.stop();
    });
    const plan = renewPlan(oldId);
    expect((await first.executor.execute(plan)).state).toBe('signed');
    expect(first.journal.get(successorId(plan.id))).toBeUndefined();
    crash(first);

    await w.clock.advance(10 * 60_000);
    const second = bootFull(w);
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[plan.id]).toBe('confirmed');
    expect(second.journal.require(successorId(plan.id)).state).toBe('confirmed');
    expect(withdrawals(w)).toBe(1);
    expect(depositAmounts(w)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(w.simOrders().filter((o) => o.orderState === 'open' || o.orderState === 'pending')).toHaveLength(1);
    // Another pass: nothing left, nothing more deposited.
    await reconcile({ journal: second.journal, executor: second.executor, clock: w.clock, staleAfterMs: STALE_PRICE_MS });
    expect(depositAmounts(w)).toHaveLength(2);
  });

  it('a replacement that could never be placed fails the renewal before anything is withdrawn', async () => {
    const w = vaultWorld('renew-refused');
    const s = bootFull(w);
    const oldId = await placed(w, s);
    const row = await s.executor.execute(renewPlan(oldId, { expiresAt: w.clock.now() - 1 }));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_EXPIRED' });
    expect(simOrder(w, oldId)?.orderState).toBe('open');
    expect(withdrawals(w)).toBe(0);
    expect(s.routes).not.toContain('POST /trigger/v2/orders/price/cancel/{orderId}');
  });

  it('a plain cancel, through the same withdrawal steps, has no successor', async () => {
    const w = vaultWorld('renew-plain');
    const s = bootFull(w);
    const oldId = await placed(w, s);
    const row = await s.executor.execute(cancelIntent(oldId));
    expect(row.state).toBe('confirmed');
    expect(s.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'place-vault-order'").get()).toEqual({ n: 1 });
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
  });

  it('a cancel row carrying a replacement (how renewals were once journaled) is refused before any call: only renew-vault-order renews', async () => {
    const w = vaultWorld('renew-old-shape');
    const s = bootFull(w);
    const oldId = await placed(w, s);
    const plan = renewPlan(oldId);
    const row = await s.executor.execute({ ...plan, kind: 'cancel-vault-order' });
    expect(row).toMatchObject({ state: 'failed', errorCode: 'PARAMS_INVALID' });
    expect(s.journal.get(successorId(plan.id))).toBeUndefined();
    expect(simOrder(w, oldId)?.orderState).toBe('open');
    expect(s.routes).not.toContain('POST /trigger/v2/orders/price/cancel/{orderId}');
  });

  it("staleness: a planned renewal is resumed however old (its levels are the strategy's own), then its replacement", async () => {
    const w = vaultWorld('renew-stale-renewal');
    const s = bootFull(w);
    const oldId = await placed(w, s);
    const plan = renewPlan(oldId);
    s.executor.plan(plan);
    await w.clock.advance(10 * 60_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes[plan.id]).toBe('confirmed');
    expect(s.journal.require(successorId(plan.id)).state).toBe('confirmed');
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
  });

  it('staleness: a planned PATCH (decided on a price) is cancelled when old; a planned placement never is', async () => {
    const w = vaultWorld('renew-stale');
    const s = bootFull(w);
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
    await w.clock.advance(10 * 60_000);
    const report = await reconcile({ journal: s.journal, executor: s.executor, clock: w.clock, staleAfterMs: STALE_PRICE_MS });
    expect(report.outcomes).toEqual({ [patch.id]: 'cancelled', [place.id]: 'confirmed' });
    expect(s.journal.require(patch.id).errorCode).toBe('STALE_INTENT');
  });

  it('the route defers a renewal whose replacement id would not fit the journal', () => {
    expect(vaultRenewPlan(renewIntent('o'.repeat(44), {}, 'a-strategy-name-that-is-long-enough-to-overflow-the-journal-id'))).toBeUndefined();
    const plan = vaultRenewPlan(renewIntent('o'.repeat(44)));
    expect(plan?.params).toMatchObject({ orderId: 'o'.repeat(44), family: 'price', then: { params: { inputAmount: '1000000000', expiresAt: NEW_EXPIRY } } });
  });
});
