import { describe, expect, it } from 'vitest';
import { computePnl } from '../../../../src/audit/pnl.js';
import { tokenNamer } from '../../../../src/audit/tokenNames.js';
import { toTrade } from '../../../../src/audit/trades.js';
import { listFills } from '../../../../src/store/fillRecords.js';
import { startDcaOrderSync, syncDcaOrders } from '../../../../src/engine/mirror/dcaOrderSync.js';
import { getAllDcaHistory, type DcaHistoryItem } from '../../../../src/jupiter/trigger.js';
import { dcaVaultIntent } from '../../../support/intentPlans.js';
import { actions, rows } from '../../../support/journalRows.js';
import { SOL, USDC } from '../../../support/mints.js';
import { simDca } from '../../../support/simViews.js';
import { type StackKind, testStack } from '../../../support/testStack.js';
import { manualFeed } from './manualFeed.js';

const DCA: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'place-dca-vault-order'];

interface FillRow {
  signature: string;
  idx: number;
  source: string;
  intent_id: string | null;
  trigger_order_id: string;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
}

describe('DCA vault handler: rounds executed by the keeper, recorded once', () => {
  it('each round is one fill after any number of re-syncs and a restart; completion is noted once', async () => {
    const first = testStack({ kinds: DCA, seed: 'dca-fills' });
    const row = await first.executor.execute(dcaVaultIntent());
    const orderId = row.orderId ?? '';
    await first.sim.control.advance(1_000);
    await first.sim.control.advance(60_000);
    expect(simDca(first)).toEqual([expect.objectContaining({ id: orderId, roundsFilled: 2, state: 'active' })]);

    expect(syncDcaOrders(await getAllDcaHistory(first.authed), first.sync)).toBe(2);
    expect(syncDcaOrders(await getAllDcaHistory(first.authed), first.sync)).toBe(0);
    expect(first.orders.get(orderId)?.state).toBe('active');
    first.crash();

    await first.sim.control.advance(60_000);
    expect(simDca(first)[0]).toMatchObject({ roundsFilled: 3, state: 'completed' });
    const second = first.restart();
    const items = await getAllDcaHistory(second.authed);
    expect(syncDcaOrders(items, second.sync)).toBe(1);
    expect(syncDcaOrders(items, second.sync)).toBe(0);
    expect(syncDcaOrders(await getAllDcaHistory(second.authed), second.sync)).toBe(0);

    const fills = rows<FillRow>(second.db, 'SELECT * FROM fills ORDER BY id');
    expect(fills).toHaveLength(3);
    expect(new Set(fills.map((f) => f.signature)).size).toBe(3);
    for (const fill of fills) {
      expect(fill).toMatchObject({ idx: 0, source: 'dca', intent_id: row.id, trigger_order_id: orderId, in_mint: USDC, in_amount: '20000000', out_mint: SOL });
      expect(BigInt(fill.out_amount)).toBeGreaterThan(0n);
    }
    expect(second.journal.fillCount(row.id)).toBe(3);
    expect(actions(second.db, 'fill')).toHaveLength(3);
    expect(second.orders.get(orderId)).toMatchObject({ state: 'completed', family: 'dca' });
    expect(actions(second.db, 'order.completed')).toHaveLength(1);

    // Read back by the audit: three buys of SOL for 20 USDC each, the order's 60 USDC the cost of what
    // it bought, and the SOL held exactly the output the order reports in total.
    const trades = listFills(second.db).map((fill) => toTrade(fill, tokenNamer(new Map())));
    expect(trades.map((t) => [t.side, t.source, t.counter.symbol, t.counter.units, t.token.symbol])).toEqual([
      ['buy', 'dca', 'USDC', 20_000_000n, 'SOL'],
      ['buy', 'dca', 'USDC', 20_000_000n, 'SOL'],
      ['buy', 'dca', 'USDC', 20_000_000n, 'SOL'],
    ]);
    const total = rows<{ output_amount: string }>(second.db, 'SELECT output_amount FROM trigger_orders WHERE id = ?', orderId)[0]?.output_amount ?? '';
    const [holding] = computePnl(trades).strategies[0]?.holdings ?? [];
    expect(holding).toMatchObject({ symbol: 'SOL', units: BigInt(total), costUsd: 60n * 10n ** 18n });
    expect(
      rows<{ input_used: string; output_amount: string }>(second.db, 'SELECT input_used, output_amount FROM trigger_orders WHERE id = ?', orderId)[0]
        ?.input_used,
    ).toBe('60000000');
  });

  it('a skipped round (price out of bounds) is not a fill', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-skip' });
    const price = s.sim.control.price(SOL);
    const row = await s.executor.execute(dcaVaultIntent({ orderType: 'price_conditional', maxPriceUsd: (price * 1.5).toFixed(2), triggerMint: SOL }, 2));
    expect(row.state).toBe('confirmed');
    s.sim.control.setPrice(SOL, price * 2);
    await s.sim.control.advance(1_000);
    const items = await getAllDcaHistory(s.authed);
    expect(items[0]?.events?.some((e) => e.type === 'fill' && e.state === 'rescheduled')).toBe(true);
    expect(syncDcaOrders(items, s.sync)).toBe(0);
    expect(s.orders.get(row.orderId ?? '')).toMatchObject({ orderType: 'price_conditional', state: 'active' });
    s.sim.control.setPrice(SOL, price);
    await s.sim.control.advance(60_000);
    expect(syncDcaOrders(await getAllDcaHistory(s.authed), s.sync)).toBe(1);
  });

  it('the dca feed drives the sync: each read records what is new, once; unsubscribing stops it', async () => {
    const s = testStack({ kinds: DCA, seed: 'dca-feed' });
    const row = await s.executor.execute(dcaVaultIntent());
    await s.sim.control.advance(1_000);
    const manual = manualFeed<DcaHistoryItem>();
    const emit = (items: readonly DcaHistoryItem[], at: number): void => manual.emit(items, at);
    const stop = startDcaOrderSync({ feed: manual.feed, ...s.sync });
    const items = await getAllDcaHistory(s.authed);
    emit(items, s.clock.now());
    emit(items, s.clock.now());
    await stop.idle();
    expect(s.journal.fillCount(row.id)).toBe(1);
    expect(actions(s.db, 'fill')).toHaveLength(1);
    expect(actions(s.db, 'order.adopted')).toHaveLength(0);
    stop();
    await s.sim.control.advance(60_000);
    emit(await getAllDcaHistory(s.authed), s.clock.now());
    await stop.idle();
    expect(s.journal.fillCount(row.id)).toBe(1);
  });
});
