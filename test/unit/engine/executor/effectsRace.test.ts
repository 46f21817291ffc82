/**
 * A real over-spend stays refused for real while our balances move: a route whose venue takes 2 SOL
 * besides the swap (the simulator's `venue-drain` answer: the bytes are genuine, only a simulation
 * shows it), checked while a stranger pays the wallet between the guard's read and its simulation.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_STRANGER, VENUE_DRAIN_LAMPORTS } from '../../../../src/sim/hostile.js';
import { SystemWallet } from '../../../../src/sim/ledger.js';
import type { Db } from '../../../../src/store/db.js';
import { dcaIntent, plan } from '../../../support/intentPlans.js';
import { actionKinds } from '../../../support/journalRows.js';
import { swapsLanded } from '../../../support/simViews.js';
import { testStack } from '../../../support/testStack.js';

const STRANGER = HOSTILE_STRANGER.toBase58();

function refusals(db: Db): string[] {
  return (db.prepare("SELECT data FROM actions WHERE kind = 'guard.refused' ORDER BY id").all() as { data: string }[]).map(
    (r) => (JSON.parse(r.data) as { reason: string }).reason,
  );
}

describe('a draining route while our balances move', () => {
  it('a stranger paying in exactly what the venue takes, between the read and the simulation, hides nothing: refused EFFECT_SOL_EXCEEDS_BUDGET', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'effects-race-drain' });
    s.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant: 'venue-drain', count: 1 });
    s.sim.control.injectFault({
      path: '/rpc',
      rpcMethod: 'simulateTransaction',
      kind: 'transfer',
      transfer: { from: SystemWallet.treasury, to: s.wallet.address, amount: VENUE_DRAIN_LAMPORTS.toString() },
      count: 1,
    });
    const row = await s.executor.execute(plan(dcaIntent()));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'GUARD_REFUSED', signedTx: null });
    expect(refusals(s.db)).toEqual(['EFFECT_SOL_EXCEEDS_BUDGET']);
    expect(swapsLanded(s)).toEqual([]);
    expect(s.sim.control.balance(STRANGER)).toBe(0n);
  });

  it('with the balances moving at every look it is not proven either way (EFFECT_STATE_MOVED, nothing signed); the next pass refuses it for real', async () => {
    const s = testStack({ kinds: ['swap'], seed: 'effects-race-drain-moving' });
    s.sim.control.injectFault({ path: '/swap/v2/order', kind: 'hostile', variant: 'venue-drain', count: 2 });
    const race = s.sim.control.injectFault({
      path: '/rpc',
      rpcMethod: ['getMultipleAccounts', 'simulateTransaction'],
      kind: 'transfer',
      transfer: { from: SystemWallet.treasury, to: s.wallet.address, amount: '1000000' },
    });
    const waiting = await s.executor.execute(plan(dcaIntent()));
    expect(waiting).toMatchObject({ state: 'planned', attempts: 0, signedTx: null });
    expect(refusals(s.db)).toEqual(['EFFECT_STATE_MOVED']);

    s.sim.control.clearFaults(race);
    await s.clock.advance(1_000);
    const refused = await s.executor.drive(waiting.id);
    expect(refused).toMatchObject({ state: 'failed', errorCode: 'GUARD_REFUSED' });
    expect(refusals(s.db)).toEqual(['EFFECT_STATE_MOVED', 'EFFECT_SOL_EXCEEDS_BUDGET']);
    expect(actionKinds(s.db, waiting.id)).toEqual(['intent.planned', 'guard.refused', 'intent.error', 'guard.refused', 'intent.failed']);
    expect(swapsLanded(s)).toEqual([]);
    expect(s.sim.control.balance(STRANGER)).toBe(0n);
  });
});
