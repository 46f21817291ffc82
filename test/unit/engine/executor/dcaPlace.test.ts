import { describe, expect, it } from 'vitest';
import { placeDcaVaultOrderRoute } from '../../../../src/engine/executor/dca/placeDcaOrder.js';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { dcaVaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { SOL, USDC } from '../../../support/mints.js';
import { deposits, simDca } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const DCA: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'place-dca-vault-order'];

const crafts = (s: TestStack): number => s.routes.filter((r) => r === '/trigger/v2/deposit/craft').length;
const creates = (s: TestStack): number => s.routes.filter((r) => r === '/trigger/v2/orders/dca').length;

describe('DCA vault handler: placing a Trigger V2 DCA order', () => {
  it('the route journals amounts as strings with the strategy hash, evidence and reason', () => {
    const plan = dcaVaultIntent({ orderType: 'price_conditional', maxPriceUsd: '250', triggerMint: SOL });
    expect(placeDcaVaultOrderRoute.kind).toBe('place-dca-vault-order');
    expect(plan).toMatchObject({
      kind: 'place-dca-vault-order',
      strategy: 'dca-vault',
      rule: 'vault_dca',
      params: {
        orderType: 'price_conditional',
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: '60000000',
        orderCount: 3,
        intervalSeconds: 60,
        maxPriceUsd: '250',
        triggerMint: SOL,
        strategyHash: 'ef'.repeat(32),
      },
      evidence: { perRound: '20000000', trigger: 'g0' },
      reason: 'place a DCA order buying SOL',
    });
    expect(JSON.parse(JSON.stringify(plan.params))).toEqual(plan.params);
  });

  it('places the order once across repeated drives and a restart; the mirror holds it as ours', async () => {
    const first = testStack({ kinds: DCA, seed: 'dca' });
    const row = await first.executor.execute(dcaVaultIntent());
    expect(row.state).toBe('confirmed');
    expect(row.orderId).not.toBeNull();
    expect(row.depositRequestId).not.toBeNull();
    expect(deposits(first)).toBe(1);
    // The session logs in at the first authenticated call, as the daemon's does.
    expect(first.routes).toEqual([
      '/trigger/v2/auth/challenge',
      '/trigger/v2/auth/verify',
      '/trigger/v2/vault',
      '/trigger/v2/vault/register',
      '/trigger/v2/deposit/craft',
      '/trigger/v2/orders/dca',
      // The created order, by its id: not the whole history.
      '/trigger/v2/orders/history/dca/{id}',
    ]);
    expect(first.orders.get(row.orderId ?? '')).toMatchObject({
      intentId: row.id,
      strategy: 'dca-vault',
      adopted: false,
      family: 'dca',
      orderType: 'time_based',
      depositSignature: row.signature,
      inputDecimals: 6,
      outputDecimals: 9,
    });
    const before = first.routes.length;
    expect((await first.executor.execute(dcaVaultIntent())).state).toBe('confirmed');
    expect(first.routes.length).toBe(before);
    expect(actions(first.db, 'order.placed')).toHaveLength(1);
    expect(actions(first.db, 'deposit.crafted')).toHaveLength(1);
    first.crash();

    const second = first.restart();
    await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect((await second.executor.execute(dcaVaultIntent())).state).toBe('confirmed');
    expect(second.routes).toEqual([]);
    expect(deposits(first)).toBe(1);
    expect(simDca(first)).toEqual([expect.objectContaining({ id: row.orderId })]);
    expect(verifyAuditChain(second.db).ok).toBe(true);
  });

  it('a crash after signing, before the create: on restart the same deposit, one order', async () => {
    const first = testStack({ kinds: DCA, seed: 'dca-crash' });
    first.executor.events.on('signed', () => first.executor.stop());
    const stuck = await first.executor.execute(dcaVaultIntent());
    expect(stuck.state).toBe('signed');
    expect(stuck.depositRequestId).not.toBeNull();
    expect(deposits(first)).toBe(0);
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock, audit: second.audit });
    expect(report.outcomes[stuck.id]).toBe('confirmed');
    const row = second.journal.require(stuck.id);
    expect(row.signature).toBe(stuck.signature);
    expect(row.attempts).toBe(1);
    expect(crafts(second)).toBe(0);
    expect(creates(second)).toBe(1);
    expect(deposits(first)).toBe(1);
    expect(simDca(first)).toHaveLength(1);
    expect(actions(second.db, 'order.placed')).toHaveLength(1);
  });

  it('a lost create answer: the order is found in DCA history by the deposit signature, never created twice', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-lost' });
    s.sim.control.injectFault({ path: '/trigger/v2/orders/dca', method: 'POST', kind: 'reset', phase: 'after', count: 1 });
    const row = await s.executor.execute(dcaVaultIntent());
    expect(row.state).toBe('confirmed');
    expect(actions(s.db, 'intent.outcome_unknown')).toHaveLength(1);
    expect(creates(s)).toBe(1);
    expect(crafts(s)).toBe(1);
    expect(deposits(s)).toBe(1);
    expect(simDca(s)).toEqual([expect.objectContaining({ id: row.orderId })]);
    expect(s.orders.get(row.orderId ?? '')?.depositSignature).toBe(row.signature);
    expect(actions(s.db, 'order.placed')).toHaveLength(1);
  });

  it('a create that never reached Jupiter: history first, then the same bytes again, one order', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-before' });
    s.sim.control.injectFault({ path: '/trigger/v2/orders/dca', method: 'POST', kind: 'reset', phase: 'before', count: 1 });
    const row = await s.executor.execute(dcaVaultIntent());
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    const afterUnknown = s.routes.slice(s.routes.indexOf('/trigger/v2/orders/dca') + 1);
    expect(afterUnknown.slice(0, 2)).toEqual(['/trigger/v2/orders/history/dca', '/trigger/v2/orders/dca']);
    expect(crafts(s)).toBe(1);
    expect(deposits(s)).toBe(1);
    expect(simDca(s)).toHaveLength(1);
  });

  it('params Jupiter would refuse fail the intent before anything is crafted or signed', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-invalid' });
    // A price-conditional order whose bounds are crossed.
    const row = await s.executor.execute(dcaVaultIntent({ orderType: 'price_conditional', minPriceUsd: '300', maxPriceUsd: '200', triggerMint: SOL }));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('PARAMS_INVALID');
    expect(s.routes).toEqual([]);
    expect(deposits(s)).toBe(0);
  });
});
