import { describe, expect, it } from 'vitest';
import { dcaOrders, startDcaOrderSync } from '../../../../src/engine/mirror/dcaOrderSync.js';
import { adoptOrders } from '../../../../src/engine/mirror/orderAdoption.js';
import { startVaultOrderSync } from '../../../../src/engine/mirror/orderSync.js';
import { reconcile } from '../../../../src/engine/reconcile.js';
import { type DcaHistoryItem, getAllDcaHistory, getAllOrderHistory, type OrderHistoryItem } from '../../../../src/jupiter/trigger.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import { dcaCancelIntent, dcaVaultIntent } from '../../../support/intentPlans.js';
import { actions, rows } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { deposits, simDca } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';
import { foreignDca, foreignPrice } from './foreignOrders.js';
import { histories, manualFeed } from './manualFeed.js';

const DCA: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'place-dca-vault-order'];

interface FillRow {
  source: string;
  intent_id: string | null;
  strategy: string | null;
  trigger_order_id: string;
}

/** One poll of both feeds through the real sync plumbing (adoption enabled), awaited. */
async function poll(s: TestStack, at: number): Promise<void> {
  const price = manualFeed<OrderHistoryItem>();
  const dca = manualFeed<DcaHistoryItem>();
  const stops = [startVaultOrderSync({ feed: price.feed, ...s.sync }), startDcaOrderSync({ feed: dca.feed, ...s.sync })];
  const read = await histories(s.authed);
  price.emit(read.price, at);
  dca.emit(read.dca, at);
  for (const stop of stops) {
    await stop.idle();
    stop();
  }
}

describe('adoption: Trigger orders history shows but the database does not know', () => {
  it('a DCA order placed elsewhere is adopted once, its rounds recorded once, and it is never cancelled', async () => {
    const first = testStack({ kinds: DCA, seed: 'adopt-dca' });
    const foreign = await foreignDca(first, 3);
    await first.sim.control.advance(1_000);
    await poll(first, first.clock.now());
    await poll(first, first.clock.now());
    expect(first.orders.get(foreign.id)).toMatchObject({
      adopted: true,
      intentId: null,
      strategy: null,
      family: 'dca',
      orderType: 'time_based',
      depositSignature: foreign.txSignature,
      inputDecimals: 6,
      outputDecimals: 9,
    });
    const adopted = actions(first.db, 'order.adopted');
    expect(adopted).toHaveLength(1);
    expect(JSON.parse(adopted[0]?.data ?? '{}')).toMatchObject({ orderId: foreign.id, family: 'dca', depositSignature: foreign.txSignature });
    expect(rows<FillRow>(first.db, 'SELECT * FROM fills')).toEqual([
      expect.objectContaining({ source: 'dca', intent_id: null, strategy: null, trigger_order_id: foreign.id }),
    ]);
    expect(first.orders.live()).toEqual([]);

    // The daemon never cancels it: a cancel intent for it fails before any call.
    const before = first.routes.length;
    const cancel = await first.executor.execute(dcaCancelIntent(foreign.id));
    expect(cancel.state).toBe('failed');
    expect(cancel.errorCode).toBe('VAULT_ORDER_ADOPTED');
    expect(first.routes.length).toBe(before);
    first.crash();

    await first.sim.control.advance(60_000);
    const second = first.restart();
    await poll(second, first.clock.now());
    await poll(second, first.clock.now());
    expect(actions(second.db, 'order.adopted')).toHaveLength(1);
    expect(rows<FillRow>(second.db, 'SELECT * FROM fills')).toHaveLength(2);
    expect(actions(second.db, 'fill')).toHaveLength(2);
    expect(simDca(first)).toEqual([expect.objectContaining({ id: foreign.id, state: 'active', roundsFilled: 2 })]);
    expect(second.routes.filter((r) => r.includes('cancel'))).toEqual([]);
    expect(verifyAuditChain(second.db).ok).toBe(true);
  });

  it('a price order placed elsewhere is adopted once and its fill recorded once with no intent', async () => {
    const s = testStack({ kinds: DCA, seed: 'adopt-price' });
    const price = s.sim.control.price(SOL);
    const foreign = await foreignPrice(s, Number((price * 1.1).toFixed(2)));
    await poll(s, s.clock.now());
    expect(s.orders.get(foreign.id)).toMatchObject({
      adopted: true,
      intentId: null,
      family: 'price',
      orderType: 'single',
      inputDecimals: 9,
      outputDecimals: 6,
    });
    await s.sim.control.advance(2_000);
    s.sim.control.setPrice(SOL, price * 1.2);
    await s.sim.control.advance(3_000);
    await poll(s, s.clock.now());
    await poll(s, s.clock.now());
    expect(actions(s.db, 'order.adopted')).toHaveLength(1);
    expect(rows<FillRow>(s.db, 'SELECT * FROM fills')).toEqual([expect.objectContaining({ source: 'trigger', intent_id: null, trigger_order_id: foreign.id })]);
    expect(actions(s.db, 'fill')).toHaveLength(1);
    expect(s.orders.get(foreign.id)?.state).toBe('filled');
  });

  it("a foreign OCO's two legs are both adopted (the stop-loss leg by its first leg's deposit), once", async () => {
    const s = testStack({ kinds: DCA, seed: 'adopt-oco' });
    const price = s.sim.control.price(SOL);
    const foreign = await foreignPrice(s, Number((price * 1.1).toFixed(2)), Number((price * 0.9).toFixed(2)));
    await poll(s, s.clock.now());
    await poll(s, s.clock.now());
    const legs = rows<{ id: string; adopted: number; deposit_signature: string }>(
      s.db,
      'SELECT id, adopted, deposit_signature FROM trigger_orders ORDER BY id',
    );
    expect(legs).toHaveLength(2);
    expect(legs.map((l) => l.id)).toContain(foreign.id);
    expect(legs.every((l) => l.adopted === 1 && l.deposit_signature === foreign.txSignature)).toBe(true);
    expect(actions(s.db, 'order.adopted')).toHaveLength(2);
  });

  it('our order whose create answer was lost is ours (its deposit signature is journaled), never adopted', async () => {
    const first = testStack({ kinds: DCA, seed: 'adopt-ours' });
    first.sim.control.injectFault({ path: '/trigger/v2/orders/dca', method: 'POST', kind: 'reset', phase: 'after', count: 1 });
    first.executor.events.on('sent', () => first.executor.stop());
    const stuck = await first.executor.execute(dcaVaultIntent());
    expect(stuck.state).toBe('sent');
    expect(stuck.orderId).toBeNull();
    expect(simDca(first)).toHaveLength(1);
    // History shows the order before any reconcile pass: the deposit signature matches our intent.
    await poll(first, first.clock.now());
    expect(actions(first.db, 'order.adopted')).toHaveLength(0);
    expect(first.orders.get(simDca(first)[0]?.id ?? '')).toBeUndefined();
    first.crash();

    const second = first.restart();
    const report = await reconcile({ journal: second.journal, executor: second.executor, clock: second.clock });
    expect(report.outcomes[stuck.id]).toBe('confirmed');
    const row = second.journal.require(stuck.id);
    expect(second.orders.get(row.orderId ?? '')).toMatchObject({ adopted: false, intentId: stuck.id });
    expect(actions(second.db, 'order.placed')).toHaveLength(1);
    await poll(second, first.clock.now());
    expect(actions(second.db, 'order.adopted')).toHaveLength(0);
    expect(deposits(first)).toBe(1);
  });

  it('an order whose deposit signature history does not show yet waits for a later read', async () => {
    const s = testStack({ kinds: DCA, seed: 'adopt-wait' });
    const foreign = await foreignDca(s);
    const [item] = await getAllDcaHistory(s.authed);
    if (!item) throw new Error('no item');
    const options = { orders: s.orders, audit: s.audit, clock: s.clock, decimalsOf: s.sync.decimalsOf ?? (() => 6) };
    const depositing = { ...item, events: (item.events ?? []).map((e) => (e.type === 'deposit' ? { ...e, txSignature: null, state: 'pending' } : e)) };
    expect(await adoptOrders([depositing], dcaOrders, options)).toEqual([]);
    expect(s.orders.get(foreign.id)).toBeUndefined();
    expect((await adoptOrders([item], dcaOrders, options)).map((i) => i.id)).toEqual([foreign.id]);
    expect(await adoptOrders([item], dcaOrders, options)).toEqual([]);
    expect(actions(s.db, 'order.adopted')).toHaveLength(1);
    expect(await getAllOrderHistory(s.authed)).toEqual([]);
  });
});
