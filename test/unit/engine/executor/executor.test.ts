import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { dcaIntent, plan } from '../../../support/intentPlans.js';
import { actionKinds, fills } from '../../../support/journalRows.js';
import { SOL, USDC } from '../../../support/mints.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack } from '../../../support/testStack.js';

describe('executor: a swap intent', () => {
  it('executes once, and the ledger, the journal, fills and the audit log agree', async () => {
    const s = testStack({ kinds: ['swap'] });
    const usdcBefore = s.sim.control.balance(s.wallet.address, USDC);
    const solBefore = s.sim.control.balance(s.wallet.address, SOL);
    const confirmed = s.executor.events.next('confirmed');
    const row = await s.executor.execute(plan(dcaIntent()));
    expect((await confirmed).row.id).toBe(row.id);

    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(row.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.signed', 'intent.sent', 'intent.confirmed', 'fill']);

    const [fill] = fills(s.db, row.id);
    expect(fills(s.db, row.id)).toHaveLength(1);
    expect(fill).toMatchObject({ signature: row.signature, idx: 0, in_mint: USDC, out_mint: SOL });
    // Both legs agree with the simulator's ledger (network fees aside, paid in SOL).
    expect(usdcBefore - s.sim.control.balance(s.wallet.address, USDC)).toBe(BigInt(fill?.in_amount ?? -1));
    const ledgerSol = s.sim.control
      .dumpLedger()
      .entries.filter((e) => e.ref === row.signature && e.wallet === s.wallet.address && e.mint === SOL && e.reason === 'swap');
    expect(ledgerSol.reduce((sum, e) => sum + BigInt(e.delta), 0n)).toBe(BigInt(fill?.out_amount ?? -1));
    expect(s.sim.control.balance(s.wallet.address, SOL)).toBeGreaterThan(solBefore);

    // The planned row carries the evidence that fired the intent.
    const planned = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.planned'").get() as { data: string };
    expect(JSON.parse(planned.data)).toMatchObject({ evidence: { solUsd: '187.25' }, params: { amount: '25000000' } });
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('planning the same intent twice executes it once, sequentially or concurrently', async () => {
    const s = testStack({ kinds: ['swap'] });
    const intent = plan(dcaIntent());
    const [a, b] = await Promise.all([s.executor.execute(intent), s.executor.execute(intent)]);
    const c = await s.executor.execute(intent);
    expect([a.state, b.state, c.state]).toEqual(['confirmed', 'confirmed', 'confirmed']);
    expect(swapsLanded(s)).toHaveLength(1);
    expect(s.routes.filter((r) => r === '/swap/v2/order')).toHaveLength(1);
    expect((s.db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n).toBe(1);
    expect(actionKinds(s.db, a.id).filter((k) => k === 'intent.planned')).toHaveLength(1);
  });

  it('a guard refusal fails the intent, is recorded, and is never retried', async () => {
    // A priority-fee cap below what the simulator asks for: the guard must refuse to sign.
    const s = testStack({ kinds: ['swap'], guard: { maxPriorityFeeLamports: 1n } });
    const failed = s.executor.events.next('failed');
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('GUARD_REFUSED');
    expect((await failed).code).toBe('GUARD_REFUSED');
    expect(row.signedTx).toBeNull();
    const refusal = s.db.prepare("SELECT data FROM actions WHERE kind = 'guard.refused'").get() as { data: string };
    expect(JSON.parse(refusal.data)).toMatchObject({ reason: 'PRIORITY_FEE_EXCEEDS_CAP', expectation: { kind: 'swap', maxInAmount: '25000000' } });

    // Not retried: neither by execute again, nor by reconciliation.
    await s.executor.execute(plan(dcaIntent()));
    await s.executor.drive(row.id);
    expect(s.routes.filter((r) => r === '/swap/v2/order')).toHaveLength(1);
    expect(s.journal.pending()).toEqual([]);
    expect(swapsLanded(s)).toEqual([]);
  });

  it("enforces the intent's price-impact limit on the quote before signing", async () => {
    const s = testStack({ kinds: ['swap'] });
    const row = await s.executor.execute(plan(dcaIntent({ amount: 400_000_000n, maxPriceImpactBps: 0 })));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('RISK_PRICE_IMPACT');
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.failed']);
    expect(swapsLanded(s)).toEqual([]);
  });

  it('fails for good when Jupiter cannot build the swap (insufficient funds)', async () => {
    const s = testStack({ kinds: ['swap'] });
    const row = await s.executor.execute(plan(dcaIntent({ amount: 900_000_000n })));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'QUOTE_UNBUILDABLE' });
    expect(swapsLanded(s)).toEqual([]);
  });
});
