/**
 * The guard's effects check while the wallet's balances move under it, end to end through the
 * engine's real stack (the composition root over the simulator): SOL leaving the wallet from elsewhere (the
 * owner spending from another device, a transaction of ours landing) between the check's read of
 * our accounts and its simulation. The simulator's `transfer` fault lands it there. And a renewal's
 * funds are never left in the vault while a replacement takes fresh ones.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db.js';
import type { Hold } from '../../../../src/strategies/intents.js';
import { HEADER, JUP_MINT } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { simOrder, swapsLanded } from '../../../support/simViews.js';
import { testWorld, type TestWorld } from '../../../support/testStack.js';
import { strategies } from './support.js';
import { countRows, startTradingStack } from './tradingSupport.js';

const MINUTE = 60_000;
/** Where SOL goes when it leaves the wallet from elsewhere. */
const ELSEWHERE = 'BhbuNgiMxfLwyy1AneQXxjXTQVY9JQd91UqrdLSuhRva';

/** 50 JUP between a take-profit and a stop-loss (one OCO pair), living an hour, renewed 10 minutes before. */
const JUP_OCO = `${HEADER}name: jup-oco
kind: price-order
sell: ${JUP_MINT}
receive: USDC
amount: "50"
execution: vault
take_profit:
  - at: "5"
stop_loss:
  at: "0.1"
expires_after: 1h
renew_before: 10m
`;

const STOP_LOCAL = `${HEADER}name: sol-stop-local
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: local
stop_loss:
  at: "135"
`;

/** `lamports` of SOL leave the wallet just before each RPC call named (a transaction signed elsewhere). */
function outflow(w: TestWorld, rpcMethod: string | readonly string[], lamports: bigint, count?: number): number {
  return w.sim.control.injectFault({
    path: '/rpc',
    rpcMethod,
    kind: 'transfer',
    transfer: { from: w.wallet.address, to: ELSEWHERE, amount: lamports.toString() },
    ...(count === undefined ? {} : { count }),
  });
}

function placeRows(db: Db): Array<{ id: string; state: string; order_id: string | null }> {
  return db.prepare("SELECT id, state, order_id FROM intents WHERE kind = 'place-vault-order' ORDER BY created_at, id").all() as never;
}

function refusals(db: Db): Array<{ intent_id: string; reason: string }> {
  return (db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'guard.refused' ORDER BY id").all() as Array<{ intent_id: string; data: string }>).map(
    (r) => ({ intent_id: r.intent_id, reason: (JSON.parse(r.data) as { reason: string }).reason }),
  );
}

/** JUP deposited into the vault by our wallet, one amount per landed deposit. */
function jupDeposits(w: TestWorld): bigint[] {
  return w.sim.control
    .dumpLedger()
    .entries.filter((e) => e.reason === 'deposit' && e.wallet === w.wallet.address && e.mint === JUP_MINT && BigInt(e.delta) < 0n)
    .map((e) => -BigInt(e.delta));
}

async function jupWorld(seed: string): Promise<{ w: TestWorld; loaded: Awaited<ReturnType<typeof strategies>> }> {
  const w = testWorld({ seed });
  w.sim.control.fund(w.wallet.address, 200_000_000n, JUP_MINT);
  return { w, loaded: await strategies(JUP_OCO) };
}

describe('the effects check while our balances move', () => {
  it('a renewal whose check sees 0.02 SOL leave the wallet in between: not refused, the old pair withdrawn, the replacement placed once', async () => {
    const { w, loaded } = await jupWorld('effects-race-renew');
    const s = await startTradingStack(w, loaded, MINUTE);
    const [first] = placeRows(s.db);
    const oldId = first?.order_id ?? '';
    await s.tick(48);
    expect(simOrder(w, oldId)?.orderState).toBe('open');
    // The renewal's withdrawal is checked next: our own 0.02 SOL DCA swap lands between its read and its simulation.
    outflow(w, 'simulateTransaction', 20_000_000n, 1);
    await s.tick(4);
    expect(w.sim.control.balance(ELSEWHERE)).toBe(20_000_000n);
    expect(refusals(s.db)).toEqual([]);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(0);
    expect(s.db.prepare("SELECT kind, state FROM intents WHERE kind LIKE '%-vault-order' AND kind <> 'place-vault-order'").all()).toEqual([
      { kind: 'renew-vault-order', state: 'confirmed' },
    ]);
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    const places = placeRows(s.db);
    expect(places.map((p) => p.state)).toEqual(['confirmed', 'confirmed']);
    expect(simOrder(w, places[1]?.order_id ?? '')?.orderState).toBe('open');
    // 50 JUP in, back, and in again: nothing stranded, nothing fresh.
    expect(jupDeposits(w)).toEqual([50_000_000n, 50_000_000n]);
    expect(w.sim.control.balance(w.wallet.address, JUP_MINT)).toBe(150_000_000n);
    await s.stop();
  });

  it('a renewal racing SOL that keeps leaving for a whole pass waits (EFFECT_STATE_MOVED), takes no fresh funds meanwhile, then completes', async () => {
    const { w, loaded } = await jupWorld('effects-race-chaos');
    const s = await startTradingStack(w, loaded, MINUTE);
    const holds: Hold[] = [];
    s.ticks.events.on('decided', (d) => holds.push(...d.holds));
    // The first renewal, untroubled: the rule's own placement has ended, its replacement is the live pair.
    await s.tick(52);
    expect(placeRows(s.db).map((p) => p.state)).toEqual(['confirmed', 'confirmed']);
    const renewedId = placeRows(s.db)[1]?.order_id ?? '';

    // The second renewal: 0.02 SOL leaves the wallet before every read and simulation the guard makes.
    const race = outflow(w, ['getMultipleAccounts', 'simulateTransaction'], 20_000_000n);
    for (let i = 0; i < 70 && countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'renew-vault-order'") < 2; i++) await s.tick();
    const renewal = s.db.prepare("SELECT id, state FROM intents WHERE kind = 'renew-vault-order' ORDER BY created_at DESC LIMIT 1").get() as {
      id: string;
      state: string;
    };
    expect(renewal.state).toBe('planned');
    expect(refusals(s.db)).toEqual([{ intent_id: renewal.id, reason: 'EFFECT_STATE_MOVED' }]);
    // Passes go by with the race on: the pair is mirrored as being withdrawn, the rule holds, retries refuse again, nothing fails.
    await s.tick(3);
    expect(s.orders.get(renewedId)?.state).toBe('pending_withdraw');
    expect(holds.map((h) => h.reason)).toContain(
      `order ${renewedId} is being withdrawn (pending_withdraw): placed again once its funds are back in the wallet`,
    );
    expect(new Set(refusals(s.db).map((r) => `${r.intent_id} ${r.reason}`))).toEqual(new Set([`${renewal.id} EFFECT_STATE_MOVED`]));
    expect(placeRows(s.db)).toHaveLength(2);

    // The race stops: the renewal goes through on the next pass.
    w.sim.control.clearFaults(race);
    await s.tick(3);
    expect(s.db.prepare('SELECT state FROM intents WHERE id = ?').get(renewal.id)).toEqual({ state: 'confirmed' });
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(0);
    const places = placeRows(s.db);
    expect(places.map((p) => [p.id.endsWith('#place'), p.state])).toEqual([
      [false, 'confirmed'],
      [true, 'confirmed'],
      [true, 'confirmed'],
    ]);
    expect(simOrder(w, renewedId)?.orderState).toBe('cancelled');
    expect(simOrder(w, places[2]?.order_id ?? '')?.orderState).toBe('open');
    // Three deposits of the same 50 JUP, each withdrawn before the next: the wallet keeps its other 150.
    expect(jupDeposits(w)).toEqual([50_000_000n, 50_000_000n, 50_000_000n]);
    expect(w.sim.control.balance(w.wallet.address, JUP_MINT)).toBe(150_000_000n);
    await s.stop();
  });

  it('a local stop-loss whose check races SOL leaving the wallet: built again and signed on the next pass, not failed', async () => {
    const w = testWorld({ seed: 'effects-race-stop' });
    w.sim.control.setPrice(SOL, 150);
    const s = await startTradingStack(w, await strategies(STOP_LOCAL));
    const race = outflow(w, ['getMultipleAccounts', 'simulateTransaction'], 1_000_000n);
    w.sim.control.setPrice(SOL, 130);
    await s.tick();
    const swap = s.db.prepare("SELECT id, state, attempts FROM intents WHERE kind = 'swap'").get() as { id: string; state: string; attempts: number };
    expect(swap).toMatchObject({ state: 'planned', attempts: 0 });
    expect(refusals(s.db)).toEqual([{ intent_id: swap.id, reason: 'EFFECT_STATE_MOVED' }]);
    expect(s.db.prepare("SELECT data FROM actions WHERE kind = 'intent.error' AND intent_id = ?").all(swap.id)).not.toHaveLength(0);

    w.sim.control.clearFaults(race);
    await s.tick(2);
    expect(s.db.prepare('SELECT state, attempts FROM intents WHERE id = ?').get(swap.id)).toEqual({ state: 'confirmed', attempts: 1 });
    expect(new Set(refusals(s.db).map((r) => r.reason))).toEqual(new Set(['EFFECT_STATE_MOVED']));
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(0);
    expect(swapsLanded(w)).toHaveLength(1);
    await s.stop();
  });

  it('a renewal refused for real leaves its pair being withdrawn: the engine withdraws it, and the rule places again only with the funds back', async () => {
    const { w, loaded } = await jupWorld('effects-race-refused');
    const s = await startTradingStack(w, loaded, MINUTE);
    const holds: Hold[] = [];
    s.ticks.events.on('decided', (d) => holds.push(...d.holds));
    const oldId = placeRows(s.db)[0]?.order_id ?? '';
    await s.tick(48);
    // The renewal's withdrawal comes back hostile (a transfer to a stranger): refused, the renewal fails for good.
    w.sim.control.injectFault({ path: '/trigger/v2/orders/price/cancel/*', method: 'POST', kind: 'hostile', variant: 'transfer-to-stranger', count: 1 });
    await s.tick(2);
    const renewal = s.db.prepare("SELECT id, state, error_code FROM intents WHERE kind = 'renew-vault-order'").get() as { id: string; state: string };
    expect(renewal).toMatchObject({ state: 'failed', error_code: 'GUARD_REFUSED' });
    expect(refusals(s.db)).toEqual([{ intent_id: renewal.id, reason: 'WITHDRAWAL_OUTFLOW' }]);

    await s.tick(4);
    // Nobody else would finish that withdrawal: the engine does, once, and the funds come back.
    const withdraw = s.db.prepare('SELECT state FROM intents WHERE id = ?').get(`jup-oco/engine/withdraw/${oldId}`);
    expect(withdraw).toEqual({ state: 'confirmed' });
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    // Only then is the rule placed again (a retry of its placement), from the 50 JUP that came back.
    const places = placeRows(s.db);
    expect(places.map((p) => p.state)).toEqual(['confirmed', 'confirmed']);
    expect(places[1]?.id).toMatch(/~r1$/);
    expect(jupDeposits(w)).toEqual([50_000_000n, 50_000_000n]);
    expect(w.sim.control.balance(w.wallet.address, JUP_MINT)).toBe(150_000_000n);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(1);
    await s.stop();
  });
});
