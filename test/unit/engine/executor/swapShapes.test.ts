/**
 * The executor on the transaction shapes mainnet builds, against the simulator: a route in an older
 * form through a venue the guard cannot read is asked for again without it; a gasless swap (its
 * payer signs at /execute, after us) whose answer is lost is found on chain by our signature in it,
 * confirmed once, and its fill read back from the chain when Jupiter has forgotten the request.
 */
import { describe, expect, it } from 'vitest';
import { pendingFillJson, pendingFillWords } from '../../../../src/audit/trades.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { listPendingFills, type PendingFill } from '../../../../src/store/pendingFills.js';
import { dcaIntent, plan } from '../../../support/intentPlans.js';
import { actionKinds, fills } from '../../../support/journalRows.js';
import { SOL, USDC } from '../../../support/mints.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack } from '../../../support/testStack.js';

const orderUrls = (urls: readonly string[]): URL[] => urls.map((u) => new URL(u)).filter((u) => u.pathname === '/swap/v2/order');

describe('a route through a venue the guard cannot read', () => {
  it('is asked for again without that venue, journaled, and lands', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'unreadable-venue' });
    // Jupiter answers in the older `route` form, whose amounts follow the plan, through a venue past every table.
    s.sim.control.setRouting({ form: 'route', venues: ['Unlisted AMM A', 'Orca Whirlpool'] });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('confirmed');
    const orders = orderUrls(s.urls);
    expect(orders.map((u) => u.searchParams.get('excludeDexes'))).toEqual([null, 'Unlisted AMM A']);
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(actionKinds(s.db, row.id)).toEqual([
      'intent.planned',
      'guard.refused',
      'intent.requoted',
      'intent.signed',
      'intent.sent',
      'intent.confirmed',
      'fill',
    ]);
    const requoted = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.requoted'").get() as { data: string };
    expect(JSON.parse(requoted.data)).toEqual({
      excludeDexes: ['Unlisted AMM A'],
      label: 'Unlisted AMM A',
      variant: 230,
      reason: 'ROUTE_PLAN_UNDECODABLE',
      sealed: [expect.objectContaining({ table: 'intents' })],
    });
    const signed = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.signed'").get() as { data: string };
    expect(JSON.parse(signed.data)).toMatchObject({ route: [{ form: 'route', venues: ['Whirlpool'], unknownVenue: null }] });
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });

  it('gives up after two re-asks with a reason that names the venue, and signs nothing', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'unreadable-venues' });
    s.sim.control.setRouting({ form: 'route', venues: ['Unlisted AMM A', 'Unlisted AMM B', 'Unlisted AMM C', 'Orca Whirlpool'] });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('ROUTE_VENUES_UNREADABLE');
    expect(row.errorMessage).toBe(
      "Jupiter's route for this swap goes through Unlisted AMM C (Swap variant 232), which the guard cannot read in the form Jupiter built; asked again without Unlisted AMM A and Unlisted AMM B: nothing was signed",
    );
    expect(orderUrls(s.urls).map((u) => u.searchParams.get('excludeDexes'))).toEqual([null, 'Unlisted AMM A', 'Unlisted AMM A,Unlisted AMM B']);
    expect(row.signedTx).toBeNull();
    expect(swapsLanded(s)).toEqual([]);
  });

  it('a v2 route through a venue past the bundled table is signed as it is: its amounts come first', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'v2-new-venue' });
    s.sim.control.setRouting({ form: 'route_v2', venues: ['Aurora CLOB'] });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('confirmed');
    expect(orderUrls(s.urls)).toHaveLength(1);
    const signed = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.signed'").get() as { data: string };
    // This stack has no venue book: the bundled table stops at 109, and the venue is reported.
    expect(JSON.parse(signed.data)).toMatchObject({
      route: [{ form: 'route_v2', venues: [], unknownVenue: { variant: 141, step: 0 }, venueTable: 'bundled (109 venues)' }],
    });
  });
});

describe('a gasless swap, its payer signing at /execute after us', () => {
  it('is found on chain by our signature when the answer is lost, confirmed once, its fill read from the chain', async () => {
    // No SOL: Jupiter's gas wallet pays, so the transaction's id is its signature, added after ours.
    const s = testStack({ kinds: ['swap'], seed: 'gasless-lost', funds: { sol: 0n } });
    // Landed, and every answer about it lost: the first /execute and the re-poll for its amounts.
    s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 2 });
    const row = await s.executor.execute(plan(dcaIntent({ amount: 25_000_000n })));
    const own = (s.db.prepare("SELECT signature FROM actions WHERE kind = 'intent.signed'").get() as { signature: string }).signature;
    expect(row.state).toBe('confirmed');
    expect(row.attempts).toBe(1);
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(row.signature).not.toBe(own);
    const identified = s.db.prepare("SELECT signature, data FROM actions WHERE kind = 'intent.transaction_id'").get() as { signature: string; data: string };
    expect(identified.signature).toBe(row.signature);
    expect(JSON.parse(identified.data)).toEqual({ ownSignature: own, via: 'chain', sealed: [expect.objectContaining({ table: 'intents', key: row.id })] });
    // The fill, from the chain: exactly what the ledger moved for our wallet.
    const [fill] = fills(s.db, row.id);
    const moved = (mint: string): bigint =>
      s.sim.control
        .dumpLedger()
        .entries.filter((e) => e.ref === row.signature && e.wallet === s.wallet.address && e.mint === mint)
        .reduce((sum, e) => sum + BigInt(e.delta), 0n);
    expect(fill).toMatchObject({ signature: row.signature, in_mint: USDC, out_mint: SOL });
    expect(BigInt(fill?.in_amount ?? 0)).toBe(-moved(USDC));
    expect(BigInt(fill?.out_amount ?? 0)).toBe(moved(SOL));
    const confirmed = s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.confirmed'").get() as { data: string };
    expect(JSON.parse(confirmed.data)).toMatchObject({ via: 'chain' });
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });
});

describe('a landed swap whose fill cannot be learned yet', () => {
  it('is a pending fill (audited, listed) until the chain answers, then recorded once', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'fill-pending' });
    // The execute answer and its re-poll lost, and the node failing getTransaction once: no amounts anywhere.
    s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after', count: 2 });
    s.sim.control.injectFault({ path: '/rpc', rpcMethod: 'getTransaction', kind: 'status', status: 503, count: 1 });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row.state).toBe('confirmed');
    expect(swapsLanded(s)).toEqual([row.signature]);
    expect(fills(s.db, row.id)).toEqual([]);
    const pending = listPendingFills(s.db);
    expect(pending).toMatchObject([{ intentId: row.id, signature: row.signature, attempts: 0 }]);
    expect(pending[0]?.reason).toMatch(/the chain did not say either \(rpc getTransaction → RPC_HTTP_ERROR: HTTP 503\)$/);
    // Not silently absent: the audit's trades list it.
    expect(pendingFillWords(pendingFillJson(pending[0] as PendingFill))).toContain(`fill pending: dca-sol ${row.id} landed as ${row.signature}`);

    // The next look (past Jupiter's memory of the request): the chain answers, the fill is recorded once.
    await s.clock.advance(180_000);
    expect(await s.executor.recoverFills()).toBe(1);
    expect(await s.executor.recoverFills()).toBe(0);
    expect(listPendingFills(s.db)).toEqual([]);
    const [fill] = fills(s.db, row.id);
    expect(fill).toMatchObject({ signature: row.signature, in_mint: USDC, out_mint: SOL, in_amount: '25000000' });
    expect(actionKinds(s.db, row.id).slice(-2)).toEqual(['fill', 'fill.recovered']);
    expect(verifyAuditChain(s.db).ok).toBe(true);
  });
});

describe('connections reset after /execute ran', () => {
  it('every swap that landed is a fill: ten swaps, every answer lost', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'resets-after-execute' });
    s.sim.control.injectFault({ path: '/swap/v2/execute', kind: 'reset', phase: 'after' });
    for (let i = 0; i < 10; i++) {
      await s.executor.execute(plan(dcaIntent({}, `2026-01-01T12:${String(i).padStart(2, '0')}:00.000Z`)));
      await s.clock.advance(60_000);
    }
    const landed = swapsLanded(s);
    expect(landed).toHaveLength(10);
    const recorded = s.db.prepare("SELECT DISTINCT signature FROM fills WHERE source = 'swap' ORDER BY signature").all() as { signature: string }[];
    expect(recorded.map((r) => r.signature)).toEqual([...landed].sort());
    expect(listPendingFills(s.db)).toEqual([]);
  });
});
