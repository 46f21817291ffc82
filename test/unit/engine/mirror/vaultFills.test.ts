import { describe, expect, it } from 'vitest';
import { priceOrderColumns } from '../../../../src/engine/mirror/orderColumns.js';
import { startVaultOrderSync, syncVaultOrders } from '../../../../src/engine/mirror/orderSync.js';
import type { FeedEvents, Poller } from '../../../../src/engine/feeds/poller.js';
import type { OrderSnapshot } from '../../../../src/engine/feeds/orders.js';
import type { OrderHistoryItem } from '../../../../src/jupiter/trigger.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';
import { getAllOrderHistory } from '../../../../src/jupiter/trigger.js';
import { vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { SOL } from '../../../support/mints.js';
import { type StackKind, testStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order'];

describe('vault handler: an OCO placed, filled and recorded once', () => {
  it('fills when the price crosses the take-profit; the fill is recorded once, the stop-loss leg cancelled', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-oco' });
    const price = s.sim.control.price(SOL);
    const row = await s.executor.execute(
      vaultIntent(
        {
          orderType: 'oco',
          triggerCondition: undefined,
          triggerPriceUsd: undefined,
          tpPriceUsd: (price * 1.1).toFixed(2),
          slPriceUsd: (price * 0.9).toFixed(2),
        },
        'oco',
      ),
    );
    expect(row.state).toBe('confirmed');
    const legs = (s.db.prepare('SELECT id, state FROM trigger_orders WHERE intent_id = ? ORDER BY id').all(row.id) as Array<{ id: string; state: string }>).map(
      (l) => l.id,
    );
    expect(legs).toHaveLength(2);
    expect(legs).toContain(row.orderId);
    expect(actions(s.db, 'order.placed')).toHaveLength(1);

    await s.sim.control.advance(2_000);
    s.sim.control.setPrice(SOL, price * 1.2);
    await s.sim.control.advance(3_000);

    const items = await getAllOrderHistory(s.authed);
    const sync = { orders: s.orders, journal: s.journal, clock: s.clock };
    expect(syncVaultOrders(items, sync)).toBe(1);
    // The same history read again (the next poll, a restart): nothing new.
    expect(syncVaultOrders(items, sync)).toBe(0);
    expect(syncVaultOrders(await getAllOrderHistory(s.authed), sync)).toBe(0);

    expect(s.journal.fillCount(row.id)).toBe(1);
    const fill = s.db.prepare('SELECT source, trigger_order_id, in_mint, in_amount, out_amount FROM fills WHERE intent_id = ?').get(row.id) as Record<
      string,
      string
    >;
    expect(fill).toMatchObject({ source: 'trigger', trigger_order_id: row.orderId, in_mint: SOL, in_amount: '1000000000' });
    expect(BigInt(fill['out_amount'] ?? '0')).toBeGreaterThan(0n);
    expect(actions(s.db, 'fill')).toHaveLength(1);
    expect(s.orders.get(row.orderId ?? '')?.state).toBe('filled');
    const sibling = legs.find((id) => id !== row.orderId) ?? '';
    expect(s.orders.get(sibling)?.state).toBe('cancelled');
    const cancelled = actions(s.db, 'order.cancelled');
    expect(cancelled).toHaveLength(1);
    expect(JSON.parse(cancelled[0]?.data ?? '{}')).toMatchObject({ orderId: sibling, via: 'history' });
  });

  it('an order already mirrored as filled (written by another path) still has its fill recorded by the next read', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-mirrored-filled' });
    const price = s.sim.control.price(SOL);
    const row = await s.executor.execute(vaultIntent({ triggerCondition: 'above', triggerPriceUsd: (price * 1.1).toFixed(2) }));
    expect(row.state).toBe('confirmed');
    await s.sim.control.advance(2_000);
    s.sim.control.setPrice(SOL, price * 1.2);
    await s.sim.control.advance(3_000);
    const items = await getAllOrderHistory(s.authed);
    const item = items.find((i) => i.id === row.orderId);
    expect(item?.orderState).toBe('filled');
    // Another path (a handler mirroring the order it acted on, a process killed right after) wrote
    // the filled row exactly as history shows it, without its fill.
    const before = s.orders.get(row.orderId ?? '');
    if (!before || !item) throw new Error('the order is not mirrored');
    s.orders.upsert(priceOrderColumns(item), { ...before, depositSignature: before.depositSignature }, s.clock.now());
    expect(s.journal.fillCount(row.id)).toBe(0);
    const sync = { orders: s.orders, journal: s.journal, clock: s.clock };
    expect(syncVaultOrders(items, sync)).toBe(1);
    expect(syncVaultOrders(items, sync)).toBe(0);
    expect(s.journal.fillCount(row.id)).toBe(1);
  });

  it('the orders feed drives the sync: each read records what is new, once; unsubscribing stops it', async () => {
    const s = testStack({ kinds: VAULT, seed: 'vault-oco-feed' });
    const price = s.sim.control.price(SOL);
    const row = await s.executor.execute(vaultIntent({ triggerPriceUsd: (price * 1.1).toFixed(2) }));
    await s.sim.control.advance(2_000);
    s.sim.control.setPrice(SOL, price * 1.2);
    await s.sim.control.advance(3_000);
    const events = new TypedEmitter<FeedEvents<OrderSnapshot<OrderHistoryItem>>>();
    const feed = { events } as unknown as Poller<OrderSnapshot<OrderHistoryItem>>;
    const stop = startVaultOrderSync({ feed, orders: s.orders, journal: s.journal, clock: s.clock });
    const items = await getAllOrderHistory(s.authed);
    const read = { feed: 'orders', value: { active: [], recentPast: items }, at: s.clock.now(), durationMs: 0 };
    events.emit('updated', read);
    events.emit('updated', read);
    expect(s.journal.fillCount(row.id)).toBe(1);
    expect(actions(s.db, 'fill')).toHaveLength(1);
    stop();
    expect(s.orders.get(row.orderId ?? '')?.state).toBe('filled');
  });
});
