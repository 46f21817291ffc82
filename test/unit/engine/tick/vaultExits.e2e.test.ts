/**
 * Vault exits end to end, through the engine's real decide loop: the feeds
 * poll the simulator, the tick loop builds the snapshot (vault orders from the mirror the order
 * syncs keep), decide() runs, routes journal the intents and the executor drives them; the
 * simulator's keeper fills orders as scripted prices cross them on a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db.js';
import { filledVaultIntents, strategyRows } from '../../../../src/store/strategyRecords.js';
import { strategyProgress } from '../../../../src/engine/tick/strategyProgress.js';
import { vaultOrderViews } from '../../../../src/engine/tick/vaultOrderViews.js';
import { HEADER } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { depositAmounts, simOrder, simOrders } from '../../../support/simViews.js';
import { testWorld } from '../../../support/testStack.js';
import { strategies } from './support.js';
import { orderViews } from '../../../../src/audit/orderViews.js';
import { listPriceSamples } from '../../../../src/store/priceSamples.js';
import { countRows, startTradingStack } from './tradingSupport.js';

const OCO = `${HEADER}name: sol-oco
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: vault
take_profit:
  - at: "180"
stop_loss:
  at: "135"
`;

/** The bonk-trailing-stop.yaml shape, on SOL (the simulator's keeper trades it). */
const TRAILING = `${HEADER}name: sol-trailing-stop
kind: price-order
sell: SOL
receive: USDC
amount: "1"
trailing_stop:
  distance: "12%"
  mode: ratchet
  ratchet_step: "1%"
expires_after: 3d
renew_before: 2h
`;

const RENEWING = `${HEADER}name: sol-renewing-tp
kind: price-order
sell: SOL
receive: USDC
amount: "1"
take_profit:
  - at: "300"
expires_after: 1h
renew_before: 10m
`;

const MINUTE = 60_000;
const HOUR = 3_600_000;

describe('vault exits end to end, through the decide loop', () => {
  it('a take-profit/stop-loss OCO placed, filled by the keeper, the fill recorded once and the rule filled across ticks and a restart', async () => {
    const w = testWorld({ seed: 'e2e-oco' });
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(OCO);
    const s = await startTradingStack(w, loaded);
    await s.tick(2);
    const place = placeRows(s.db);
    expect(place).toEqual([expect.objectContaining({ rule: 'take_profit[0]', state: 'confirmed' })]);
    expect(JSON.parse(place[0]?.params ?? '{}')).toMatchObject({ orderType: 'oco', tpPriceUsd: '180', slPriceUsd: '135', inputAmount: '1000000000' });
    const orderId = place[0]?.order_id ?? '';
    expect(simOrder(w, orderId)?.orderState).toBe('open');

    // The price runs up through the take-profit: the keeper fills the OCO, the next orders poll sees it.
    w.sim.control.setPrice(SOL, 190);
    await s.tick(3);
    expect(simOrder(w, orderId)?.orderState).toBe('filled');
    // The price history: one sample per minute (the default), the first price polled in it, the path
    // crossing the take-profit kept as polled (the simulator adds its own small noise).
    const samples = listPriceSamples(s.db, { mints: [SOL] });
    expect(samples.length).toBeGreaterThanOrEqual(1);
    expect(samples.every((p) => p.at % 60_000 === 0)).toBe(true);
    expect(new Set(samples.map((p) => p.at)).size).toBe(samples.length);
    expect(Number(samples[0]?.usd)).toBeCloseTo(150, 0);
    const placeId = place[0]?.id ?? '';
    expect(s.orders.get(orderId)?.state).toBe('filled');
    expect(s.journal.fillCount(placeId)).toBe(1);
    expect(fillRows(s.db)).toEqual([expect.objectContaining({ intent_id: placeId, trigger_order_id: orderId, source: 'trigger', in_amount: '1000000000' })]);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'fill' AND intent_id = ?", placeId)).toBe(1);

    // The rule counts as filled: polls re-read the same history, decide() places nothing new.
    expect(filledRules(s.db, 'sol-oco')).toEqual(['take_profit[0]']);
    await s.tick(4);
    expect(s.journal.fillCount(placeId)).toBe(1);
    expect(placeRows(s.db)).toHaveLength(1);
    // A new minute began during those ticks: its sample is the price polled after the run-up.
    const later = listPriceSamples(s.db, { mints: [SOL] });
    expect(later.length).toBe(samples.length + 1);
    expect(Number(later.at(-1)?.usd)).toBeCloseTo(190, 0);
    await s.stop();

    // A restart on the same file: reconciliation, the first polls and more ticks change nothing.
    const again = await startTradingStack(w, loaded);
    await again.tick(4);
    expect(placeRows(again.db)).toHaveLength(1);
    expect(again.journal.fillCount(placeId)).toBe(1);
    expect(countRows(again.db, "SELECT count(*) AS n FROM actions WHERE kind = 'fill'")).toBe(1);
    expect(countRows(again.db, "SELECT count(*) AS n FROM actions WHERE kind = 'intent.deferred'")).toBe(0);
    expect(filledRules(again.db, 'sol-oco')).toEqual(['take_profit[0]']);
    expect(depositAmounts(w)).toEqual([1_000_000_000n]);
    await again.stop();
  });

  it("an OCO's stop-loss leg filled as the price falls: the fill recorded once against the placing intent, the rung filled", async () => {
    const w = testWorld({ seed: 'e2e-oco-stop' });
    w.sim.control.setPrice(SOL, 150);
    const s = await startTradingStack(w, await strategies(OCO));
    const [place] = placeRows(s.db);
    const placeId = place?.id ?? '';
    w.sim.control.setPrice(SOL, 130);
    await s.tick(3);
    // The stop-loss leg is its own order in history: its fill is the one recorded.
    const legs = s.db.prepare('SELECT id, state FROM trigger_orders WHERE intent_id = ? ORDER BY id').all(placeId) as Array<{ id: string; state: string }>;
    expect(legs.map((l) => l.state).sort()).toEqual(['cancelled', 'filled']);
    const stopLeg = legs.find((l) => l.state === 'filled')?.id;
    expect(stopLeg).not.toBe(place?.order_id);
    expect(fillRows(s.db)).toEqual([expect.objectContaining({ intent_id: placeId, trigger_order_id: stopLeg, in_amount: '1000000000' })]);
    expect(filledRules(s.db, 'sol-oco')).toEqual(['take_profit[0]']);
    await s.tick(4);
    expect(placeRows(s.db)).toHaveLength(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'fill'")).toBe(1);
    // `jupbot audit orders`: the placed leg cancelled with its sibling's fill, the stop leg filled.
    const views = orderViews(s.db);
    expect(views.map((o) => [o.id === stopLeg ? 'stop' : 'take', o.state, o.input.amount, o.input.symbol, o.events.map((e) => e.event)]).sort()).toEqual([
      ['stop', 'filled', '1', 'SOL', ['filled']],
      ['take', 'cancelled', '1', 'SOL', ['placed', 'cancelled']],
    ]);
    await s.stop();
  });

  it('a trailing stop (ratchet) raised by PATCH as the price rises, filled by the keeper as it falls, the fill recorded once', async () => {
    const w = testWorld({ seed: 'e2e-ratchet' });
    w.sim.control.setPrice(SOL, 150);
    const s = await startTradingStack(w, await strategies(TRAILING));
    await s.tick(1);
    const place = placeRows(s.db);
    expect(place).toEqual([expect.objectContaining({ rule: 'trailing_stop', state: 'confirmed' })]);
    const orderId = place[0]?.order_id ?? '';
    // 12% under the peak ($150, give or take the simulator's walk).
    expect(simOrder(w, orderId)?.triggerPriceUsd).toBeCloseTo(132, 0);

    // The price rises: each step of at least 1% raises the stop by PATCH (a tick to see the price, one to act).
    for (const price of [160, 170]) {
      w.sim.control.setPrice(SOL, price);
      await s.tick(3);
    }
    const raised = patchRows(s.db);
    expect(raised.map((r) => r.state)).toEqual(['confirmed', 'confirmed']);
    const [first, second] = raised.map((r) => Number((JSON.parse(r.params) as { triggerPriceUsd: string }).triggerPriceUsd));
    expect(first).toBeCloseTo(140.8, 0);
    expect(second).toBeCloseTo(149.6, 0);
    // The order and the mirror (what decide() sees next) carry the last raise.
    expect(simOrder(w, orderId)?.triggerPriceUsd).toBe(second);
    expect(Number(vaultOrderViews(s.db).get('sol-trailing-stop')?.[0]?.triggerPriceUsd ?? 0n) / 1e18).toBeCloseTo(second ?? 0, 9);
    // Noise under the step: no PATCH.
    w.sim.control.setPrice(SOL, 171);
    await s.tick(3);
    expect(patchRows(s.db)).toHaveLength(2);

    // The price falls through the stop: the keeper fills it, the orders poll records it.
    w.sim.control.setPrice(SOL, 145);
    await s.tick(3);
    expect(simOrder(w, orderId)?.orderState).toBe('filled');
    expect(s.orders.get(orderId)?.state).toBe('filled');
    const placeId = place[0]?.id ?? '';
    expect(s.journal.fillCount(placeId)).toBe(1);
    // More polls and decisions: still one fill, nothing placed or raised again.
    await s.tick(4);
    expect(s.journal.fillCount(placeId)).toBe(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'fill'")).toBe(1);
    expect(placeRows(s.db)).toHaveLength(1);
    expect(patchRows(s.db)).toHaveLength(2);
    expect(depositAmounts(w)).toEqual([1_000_000_000n]);
    // `jupbot audit orders`: placed, raised twice, filled.
    expect(orderViews(s.db).map((o) => [o.id, o.state, o.events.map((e) => e.event)])).toEqual([
      [orderId, 'filled', ['placed', 'patched', 'patched', 'filled']],
    ]);
    await s.stop();
  });

  it('a vault order renewed before expiry: cancelled and replaced once, the replacement live, nothing double-deposited', async () => {
    const w = testWorld({ seed: 'e2e-renew' });
    w.sim.control.setPrice(SOL, 150);
    // Minute ticks: the order lives an hour.
    const loaded = await strategies(RENEWING);
    const s = await startTradingStack(w, loaded, MINUTE);
    const [first] = placeRows(s.db);
    const oldId = first?.order_id ?? '';
    const oldExpiry = simOrder(w, oldId)?.expiresAt ?? 0;
    expect(oldExpiry).toBe(w.clock.now() + HOUR);
    // Before the renew window (10 minutes before expiry): nothing more.
    await s.tick(48);
    expect(placeRows(s.db)).toHaveLength(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'renew-vault-order'")).toBe(0);

    // Into the window: renewed once (a renewal row that, confirmed, plans and places the replacement), never journaled as a cancel.
    await s.tick(4);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'renew-vault-order'")).toBe(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'cancel-vault-order'")).toBe(0);
    expect(simOrder(w, oldId)?.orderState).toBe('cancelled');
    const places = placeRows(s.db);
    expect(places).toHaveLength(2);
    const replacementId = places[1]?.order_id ?? '';
    expect(places[1]).toMatchObject({ rule: 'take_profit[0]', state: 'confirmed' });
    expect(simOrder(w, replacementId)).toMatchObject({ orderState: 'open', initialInputAmount: '1000000000' });
    expect(simOrder(w, replacementId)?.expiresAt).toBeGreaterThan(oldExpiry);

    // Later ticks: the replacement stays, nothing more is cancelled or deposited.
    await s.tick(5);
    expect(simOrder(w, replacementId)?.orderState).toBe('open');
    expect(countRows(s.db, "SELECT count(*) AS n FROM intents WHERE kind = 'renew-vault-order'")).toBe(1);
    expect(placeRows(s.db)).toHaveLength(2);
    expect(depositAmounts(w)).toEqual([1_000_000_000n, 1_000_000_000n]);
    expect(simOrders(w).filter((o) => o.orderState === 'open')).toHaveLength(1);
    // `jupbot audit orders`: the old order placed, renewed and cancelled; its replacement placed and open.
    expect(orderViews(s.db).map((o) => [o.id, o.state, o.events.map((e) => e.event)])).toEqual([
      [oldId, 'cancelled', ['placed', 'cancelled', 'renewed']],
      [replacementId, 'open', ['placed']],
    ]);
    // One SOL out to the vault, back, and out again: the wallet holds 1 SOL less than funded (fees aside).
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeGreaterThan(990_000_000n);
    expect(w.sim.control.balance(w.wallet.address, SOL)).toBeLessThan(1_000_000_000n);
    await s.stop();

    // A restart: the replacement (a `renew:` trigger, not the rule's gN) is still the rule's live order.
    const again = await startTradingStack(w, loaded, MINUTE);
    await again.tick(5);
    expect(placeRows(again.db)).toHaveLength(2);
    expect(countRows(again.db, "SELECT count(*) AS n FROM intents WHERE kind = 'renew-vault-order'")).toBe(1);
    expect(simOrder(w, replacementId)?.orderState).toBe('open');
    expect(depositAmounts(w)).toHaveLength(2);
    await again.stop();
  });
});

function placeRows(db: Db): Array<{ id: string; rule: string; state: string; order_id: string; params: string }> {
  return db.prepare("SELECT id, rule, state, order_id, params FROM intents WHERE kind = 'place-vault-order' ORDER BY created_at, id").all() as never;
}

function fillRows(db: Db): Array<{ intent_id: string; trigger_order_id: string | null; source: string; in_amount: string }> {
  return db.prepare('SELECT intent_id, trigger_order_id, source, in_amount FROM fills ORDER BY id').all() as never;
}
function patchRows(db: Db): Array<{ state: string; params: string }> {
  return db.prepare("SELECT state, params FROM intents WHERE kind = 'patch-vault-order' ORDER BY created_at, id").all() as never;
}

/** The rules the tick loop counts as filled (what it gives decide() as `filledRules`). */
function filledRules(db: Db, strategy: string): string[] {
  return [...strategyProgress(strategyRows(db, strategy), Date.UTC(2026, 0, 1), () => undefined, filledVaultIntents(db, strategy)).filledRules];
}
