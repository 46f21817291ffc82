import { describe, expect, it } from 'vitest';
import { startVaultOrderSync } from '../../../../src/engine/mirror/orderSync.js';
import { createPriceOrdersFeed } from '../../../../src/engine/feeds/orders.js';
import { HEADER } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { simOrders } from '../../../support/simViews.js';
import { testStack, type TestStack, type TestStackOptions } from '../../../support/testStack.js';
import { run as runTicks, strategies, ticks } from './support.js';

/**
 * The vault handlers, and what the decide loop may journal through them: placements and cancels
 * (the withdrawals). A renewal is deferred: these tests are about the withdrawal alone.
 */
const VAULT: Pick<TestStackOptions, 'kinds' | 'intents'> = {
  kinds: ['place-vault-order', 'cancel-vault-order'],
  intents: ['place-vault-order', 'cancel-vault-order'],
};

const HOUR = 3_600_000;

const VAULT_SL = `${HEADER}name: sol-vault-sl
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: vault
stop_loss:
  at: "100"
expires_after: 2h
renew_before: 10m
`;

/** The vault tick stack plus the orders feed and its sync, as the composition root (engine.ts) wires them. */
async function run(stack: TestStack, loaded: Awaited<ReturnType<typeof strategies>>) {
  const feed = createPriceOrdersFeed({ client: stack.authed, clock: stack.clock, intervalMs: 10_000 });
  const stopSync = startVaultOrderSync({ feed, orders: stack.orders, journal: stack.journal, clock: stack.clock });
  const abort = new AbortController();
  const firstRead = feed.events.next('updated');
  feed.start(abort.signal);
  await firstRead;
  const running = await runTicks(stack, loaded);
  return {
    stack,
    running,
    async stop() {
      stopSync();
      abort.abort();
      await feed.done;
      await running.stop();
    },
  };
}

describe('a vault order that expired while the daemon was down', () => {
  it('has its funds withdrawn from the vault and is placed again after the restart (as a retry of its rule), once', async () => {
    const w = testStack({ ...VAULT, seed: 'vault-expiry' });
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(VAULT_SL);
    const first = await run(w, loaded);
    await ticks(first.running, 3);
    const [order] = simOrders(w);
    expect(simOrders(w)).toHaveLength(1);
    await first.stop();

    // Down for 3 hours: the 2 h order expired unfilled in the vault (its deposit returned).
    await w.clock.advance(3 * HOUR);

    const second = await run(w.restart(), loaded);
    await ticks(second.running, 4);

    const rows = second.stack.db.prepare("SELECT id, state FROM intents WHERE kind = 'place-vault-order' ORDER BY created_at").all() as {
      id: string;
      state: string;
    }[];
    expect(rows.map((r) => [r.id.replace(/^.*\/stop_loss\//, ''), r.state])).toEqual([
      ['g0', 'confirmed'],
      ['g0~r1', 'confirmed'],
    ]);
    // First the expired order's funds came back out of the vault, once.
    expect(second.stack.db.prepare("SELECT id, state FROM intents WHERE kind = 'cancel-vault-order'").all()).toEqual([
      { id: `sol-vault-sl/engine/withdraw/${order?.id ?? ''}`, state: 'confirmed' },
    ]);
    const live = simOrders(w).filter((o) => o.orderState === 'open');
    expect(live).toHaveLength(1);
    expect(live[0]?.id).not.toBe(order?.id);
    const planned = second.stack.db.prepare("SELECT data FROM actions WHERE kind = 'intent.planned' AND intent_id LIKE '%~r1'").get() as { data: string };
    expect(JSON.parse(planned.data)).toMatchObject({ evidence: { previousError: 'VAULT_ORDER_ENDED', retry: 1 } });
    await ticks(second.running, 3);
    expect(simOrders(w).filter((o) => o.orderState === 'open')).toHaveLength(1);
    await second.stop();
  });

  it('an expired order the API then lost: its withdrawal is asked 3 times, backing off, then fails VAULT_ORDER_GONE; the strategies decide meanwhile', async () => {
    const w = testStack({ ...VAULT, seed: 'vault-expiry-lost' });
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(VAULT_SL);
    const first = await run(w, loaded);
    await ticks(first.running, 3);
    const [order] = simOrders(w);
    const orderId = order?.id ?? '';
    await first.stop();
    await w.clock.advance(3 * HOUR);
    // The daemon had seen it expire (its funds still in the vault); then the API lost it.
    expect(w.sim.control.forgetOrders([orderId])).toEqual([orderId]);
    const second = await run(w.restart(), loaded);
    second.stack.db.prepare("UPDATE trigger_orders SET state = 'expired' WHERE id = ?").run(orderId);
    const cancels = (): number => second.stack.routes.filter((r) => r === '/trigger/v2/orders/price/cancel/{orderId}').length;
    const seen = await ticks(second.running, 14);
    expect(cancels()).toBe(3);
    const withdraw = second.stack.journal.require(`sol-vault-sl/engine/withdraw/${orderId}`);
    expect(withdraw).toMatchObject({ state: 'failed', errorCode: 'VAULT_ORDER_GONE' });
    // Only the 3 ticks that asked the API skipped the strategies; the next one decides on the balances
    // read the attempt asked for (a read that began after it, in the same instant of the manual clock).
    // The back-off in between is not an action, so the rule decides — and holds: its SOL is in the vault.
    expect(seen.map((t) => (t.skipped !== null ? 'stale' : t.holds))).toEqual([0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1]);
    await second.stop();
  });
});
