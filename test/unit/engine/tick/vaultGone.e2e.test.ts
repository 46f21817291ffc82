/**
 * Orders the Trigger API lost ("a lost world"), end to end through the engine's real stack
 * (the composition root over the simulator): the orders feed stops listing them, the sync counts the reads,
 * a complete read of history decides, and the order is marked gone with its evidence, reported at
 * warn and to the webhooks, while the rule that placed it places a new one — once. A page the API did
 * not return on one poll proves nothing.
 */
import { describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '../../../../src/engine/feeds/orders.js';
import type { OrderHistoryItem } from '../../../../src/jupiter/trigger.js';
import { reportActions } from '../../../../src/ops/actionReports.js';
import { createLogger } from '../../../../src/ops/log.js';
import type { Notification } from '../../../../src/ops/notification.js';
import { verifyAuditChain } from '../../../../src/store/chainVerifier.js';
import type { Db } from '../../../../src/store/db.js';
import { MemoryStream } from '../../../support/memoryStream.js';
import { HEADER } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { testWorld, type TestWorld } from '../../../support/testStack.js';
import { strategies } from './support.js';
import { startTradingStack, type TradingStack } from './tradingSupport.js';

const TAKE_PROFIT = `${HEADER}name: sol-tp-lost
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: vault
take_profit:
  - at: "300"
expires_after: 1d
renew_before: 1h
`;

function placeRows(db: Db): Array<{ id: string; state: string; order_id: string | null }> {
  return db.prepare("SELECT id, state, order_id FROM intents WHERE kind = 'place-vault-order' ORDER BY created_at, id").all() as never;
}

function goneActions(db: Db): Array<{ intent_id: string; data: Record<string, unknown> }> {
  return (db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'order.gone' ORDER BY id").all() as Array<{ intent_id: string; data: string }>).map(
    (row) => ({ intent_id: row.intent_id, data: JSON.parse(row.data) as Record<string, unknown> }),
  );
}

/** The Trigger service loses `orderIds`, through its control surface. */
async function forget(w: TestWorld, orderIds: readonly string[]): Promise<void> {
  const answer = await w.sim.dispatch({
    method: 'POST',
    path: '/__sim/trigger/forget',
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    rawBody: JSON.stringify({ orderIds }),
  });
  expect(JSON.parse(answer.body)).toEqual({ forgotten: orderIds });
}

/** Every read of the price-orders feed from now on, and a way to tick until `n` more have come in. */
function readsOf(s: TradingStack): { reads: OrderSnapshot<OrderHistoryItem>[]; until(n: number): Promise<void> } {
  const reads: OrderSnapshot<OrderHistoryItem>[] = [];
  const orders = s.feeds.orders;
  if (!orders) throw new Error('no price-orders feed');
  orders.events.on('updated', ({ value }) => reads.push(value));
  return {
    reads,
    async until(n) {
      const target = reads.length + n;
      for (let guard = 0; reads.length < target && guard < 20; guard++) await s.tick(1);
      expect(reads.length).toBe(target);
    },
  };
}

const listed = (read: OrderSnapshot<OrderHistoryItem> | undefined, id: string): boolean =>
  [...(read?.active ?? []), ...(read?.recentPast ?? [])].some((item) => item.id === id);

describe('vault orders the Trigger API no longer knows', () => {
  it('are marked gone after 3 reads without them and a complete read, audited with what the vault holds, alerted, and placed again once the wallet holds what it protected', async () => {
    const w = testWorld({ seed: 'e2e-gone' });
    w.sim.control.setPrice(SOL, 150);
    const s = await startTradingStack(w, await strategies(TAKE_PROFIT));
    await s.tick(2);
    const [placed] = placeRows(s.db);
    const orderId = placed?.order_id ?? '';
    expect(s.orders.get(orderId)?.state).toBe('open');
    const out = new MemoryStream();
    const sent: Notification[] = [];
    const stopReports = reportActions({ audit: s.audit, log: createLogger({ destination: out }), notify: (n) => sent.push(n) });
    const feed = readsOf(s);

    await forget(w, [orderId]);
    // Two reads without it: not proof yet.
    await feed.until(2);
    expect(feed.reads.map((read) => listed(read, orderId))).toEqual([false, false]);
    expect(s.orders.get(orderId)?.state).toBe('open');
    expect(goneActions(s.db)).toEqual([]);

    // The third, then the complete read of history: gone.
    await feed.until(2);
    expect(s.orders.get(orderId)?.state).toBe('gone');
    const [gone, ...more] = goneActions(s.db);
    expect(more).toEqual([]);
    const vault = String((gone?.data['vaultFunds'] as { vault?: unknown } | undefined)?.vault);
    expect(gone).toEqual({
      intent_id: placed?.id,
      data: {
        orderId,
        family: 'price',
        lastState: 'open',
        lastRawState: 'open',
        lastSeenAt: expect.any(Number) as number,
        missedReads: 3,
        missingSince: expect.any(Number) as number,
        completeRead: { orders: 0, listed: false },
        inputMint: SOL,
        inputDecimals: 9,
        deposited: '1000000000',
        remaining: '1000000000',
        vaultFunds: { kind: 'held', vault, mint: SOL, amount: '1000000000' },
        sealed: [expect.objectContaining({ table: 'intents', key: placed?.id })],
      },
    });
    // The vault named is the one our deposit went to, and it still holds the deposit.
    const deposit = w.sim.control.dumpLedger().entries.find((e) => e.reason === 'deposit' && BigInt(e.delta) > 0n);
    expect(deposit?.wallet).toBe(vault);
    expect(w.sim.control.balance(vault, SOL)).toBeGreaterThanOrEqual(1_000_000_000n);
    expect(verifyAuditChain(s.db)).toMatchObject({ ok: true, breaks: 0 });

    const funds = `Stranded funds: the vault ${vault} still holds 1 SOL (1000000000 base units); the order held 1 SOL (1000000000 base units). Without the order only Jupiter can return them: check the vault in Jupiter's interface or ask Jupiter's support.`;
    const warned = out.lines().filter((line) => line['level'] === 'warn' && line['kind'] === 'order.gone');
    expect(warned.map((line) => line['msg'])).toEqual([
      `sol-tp-lost: vault order ${orderId} is gone: the Trigger API no longer lists it (missing from 3 order reads in a row and from a complete read of its history). ` +
        `No cancel or PATCH is tried on it any more; the rule that placed it sees it ended and places a new order if what it protected is still held. ${funds}`,
    ]);
    expect(sent.filter((n) => n.type === 'order' && n.action === 'gone')).toEqual([
      { type: 'order', strategy: 'sol-tp-lost', action: 'gone', orderId, detail: funds },
    ]);

    // The rule sees its order ended. The SOL it protected is in the vault, not the wallet: it holds.
    const holds: string[] = [];
    s.ticks.events.on('decided', ({ holds: h }) => holds.push(...h.map((hold) => `${hold.rule}: ${hold.reason}`)));
    await s.tick(2);
    expect(placeRows(s.db)).toHaveLength(1);
    expect(holds).toEqual(Array(2).fill('take_profit[0]: needs 1000000000 base units of SOL, the balance is 999995000'));
    // Once the wallet holds SOL to protect again, it is placed again, once, whatever more ticks come.
    w.sim.control.fund(w.wallet.address, 1_000_000_000n);
    await s.tick(4);
    const rows = placeRows(s.db);
    expect(rows.map((r) => [r.id.replace(/^.*\/take_profit\[0\]\//, ''), r.state])).toEqual([
      ['g0', 'confirmed'],
      ['g0~r1', 'confirmed'],
    ]);
    const open = (w.sim.control.dumpOrders() as { price: Array<{ id: string; orderState: string }> }).price.filter((o) => o.orderState === 'open');
    expect(open.map((o) => o.id)).toEqual([rows[1]?.order_id]);
    expect(goneActions(s.db)).toHaveLength(1);
    stopReports();
    await s.stop();
  });

  it('a page the API did not return on one poll (twice, apart) marks nothing gone and places nothing twice; the order lost for good is', async () => {
    const w = testWorld({ seed: 'e2e-gone-page' });
    w.sim.control.setPrice(SOL, 150);
    const s = await startTradingStack(w, await strategies(TAKE_PROFIT));
    await s.tick(2);
    const orderId = placeRows(s.db)[0]?.order_id ?? '';
    const feed = readsOf(s);
    const emptyPage = { orders: [], pagination: { total: 0, limit: 100, offset: 0 } };
    const dropPage = (): number => w.sim.control.injectFault({ path: '/trigger/v2/orders/history', kind: 'status', status: 200, body: emptyPage, count: 1 });

    for (let round = 0; round < 2; round++) {
      dropPage();
      await feed.until(1);
      await feed.until(2);
    }
    // The dropped pages did reach the feed: two reads did not list the order, never two in a row.
    expect(feed.reads.map((read) => listed(read, orderId))).toEqual([false, true, true, false, true, true]);
    expect(s.orders.get(orderId)?.state).toBe('open');
    expect(goneActions(s.db)).toEqual([]);
    expect(placeRows(s.db)).toHaveLength(1);
    expect((w.sim.control.dumpOrders() as { price: unknown[] }).price).toHaveLength(1);

    // Lost for good: three reads in a row and the complete read.
    await forget(w, [orderId]);
    await feed.until(4);
    expect(s.orders.get(orderId)?.state).toBe('gone');
    expect(goneActions(s.db).map((a) => a.data['missedReads'])).toEqual([3]);
    await s.stop();
  });
});
