import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { actionKinds, dcaIntent, fills, plan, SOL, USDC, world } from './support.js';

describe('executor: a swap intent', () => {
  it('executes once, and the ledger, the journal, fills and the audit log agree', async () => {
    const w = world();
    const s = w.boot();
    const usdcBefore = w.sim.control.balance(w.wallet.address, USDC);
    const solBefore = w.sim.control.balance(w.wallet.address, SOL);
    const confirmed = s.executor.events.next('confirmed');
    const row = await s.executor.execute(plan(dcaIntent()));
    expect((await confirmed).row.id).toBe(row.id);

    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(row.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(w.swapsLanded()).toEqual([row.signature]);
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.signed', 'intent.sent', 'intent.confirmed', 'fill']);

    const [fill] = fills(s.db, row.id);
    expect(fills(s.db, row.id)).toHaveLength(1);
    expect(fill).toMatchObject({ signature: row.signature, idx: 0, in_mint: USDC, out_mint: SOL });
    // Both legs agree with the simulator's ledger (network fees aside, paid in SOL).
    expect(usdcBefore - w.sim.control.balance(w.wallet.address, USDC)).toBe(BigInt(fill?.in_amount ?? -1));
    const ledgerSol = w.sim.control
      .dumpLedger()
      .entries.filter((e) => e.ref === row.signature && e.wallet === w.wallet.address && e.mint === SOL && e.reason === 'swap');
    expect(ledgerSol.reduce((sum, e) => sum + BigInt(e.delta), 0n)).toBe(BigInt(fill?.out_amount ?? -1));
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeGreaterThan(solBefore);

    // The planned row carries the evidence that fired the intent.
    const planned = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.planned'").get() as { data: string };
    expect(JSON.parse(planned.data)).toMatchObject({ evidence: { solUsd: '187.25' }, params: { amount: '25000000' } });
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('planning the same intent twice executes it once, sequentially or concurrently', async () => {
    const w = world();
    const s = w.boot();
    const intent = plan(dcaIntent());
    const [a, b] = await Promise.all([s.executor.execute(intent), s.executor.execute(intent)]);
    const c = await s.executor.execute(intent);
    expect([a.state, b.state, c.state]).toEqual(['confirmed', 'confirmed', 'confirmed']);
    expect(w.swapsLanded()).toHaveLength(1);
    expect(s.routes.filter((r) => r === '/swap/v2/order')).toHaveLength(1);
    expect((s.db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n).toBe(1);
    expect(actionKinds(s.db, a.id).filter((k) => k === 'intent.planned')).toHaveLength(1);
  });

  it('a guard refusal fails the intent, is recorded, and is never retried', async () => {
    const w = world();
    // A priority-fee cap below what the simulator asks for: the guard must refuse to sign.
    const s = w.boot({ guard: { maxPriorityFeeLamports: 1n } });
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
    expect(w.swapsLanded()).toEqual([]);
  });

  it("enforces the intent's price-impact limit on the quote before signing", async () => {
    const w = world();
    const s = w.boot();
    const row = await s.executor.execute(plan(dcaIntent({ amount: 400_000_000n, maxPriceImpactBps: 0 })));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('RISK_PRICE_IMPACT');
    expect(actionKinds(s.db, row.id)).toEqual(['intent.planned', 'intent.failed']);
    expect(w.swapsLanded()).toEqual([]);
  });

  it('fails for good when Jupiter cannot build the swap (insufficient funds)', async () => {
    const w = world();
    const s = w.boot();
    const row = await s.executor.execute(plan(dcaIntent({ amount: 900_000_000n })));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'QUOTE_UNBUILDABLE' });
    expect(w.swapsLanded()).toEqual([]);
  });
});
