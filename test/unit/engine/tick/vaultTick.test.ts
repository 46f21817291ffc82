import { describe, expect, it } from 'vitest';
import { createBalancesFeed } from '../../../../src/engine/feeds/balances.js';
import { createPricesFeed } from '../../../../src/engine/feeds/prices.js';
import { startReconcileLoop } from '../../../../src/engine/reconcile.js';
import { startTickLoop } from '../../../../src/engine/tick/tickLoop.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { HEADER } from '../../strategies/helpers.js';
import { simFetch } from '../executor/support.js';
import { SOL, vaultWorld, type VaultWorld } from '../executor/vaultSupport.js';
import { INTERVAL, strategies } from './support.js';

const VAULT_TP = `${HEADER}name: sol-vault-tp
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: vault
take_profit:
  - at: "300"
`;

/** Feeds, reconciliation and ticks on a vault stack (the vault handlers wired: vaultOrders true). */
async function run(w: VaultWorld, loaded: ReadonlyMap<string, LoadedStrategy>): Promise<{ stack: ReturnType<VaultWorld['bootVault']>; next: () => Promise<void>; stop: () => Promise<void> }> {
  const stack = w.bootVault();
  const abort = new AbortController();
  const mints = (): string[] => [...loaded.values()].flatMap((s) => Object.values(s.tokens).map((t) => t?.mint ?? ''));
  const prices = createPricesFeed({ client: stack.authed, clock: w.clock, intervalMs: INTERVAL, mints });
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: w.clock, fetch: simFetch(w.sim) });
  const balances = createBalancesFeed({ rpc, clock: w.clock, wallet: w.wallet.address, intervalMs: INTERVAL });
  const first = Promise.all([prices.events.next('updated'), balances.events.next('updated')]);
  prices.start(abort.signal);
  balances.start(abort.signal);
  await first;
  const reconcile = startReconcileLoop({ journal: stack.journal, executor: stack.executor, clock: w.clock, audit: stack.audit, intervalMs: 30_000, signal: abort.signal });
  const ticks = startTickLoop({
    clock: w.clock,
    db: stack.db,
    journal: stack.journal,
    audit: stack.audit,
    executor: stack.executor,
    strategies: () => loaded,
    sources: () => ({ prices: prices.state(), balances: balances.state() }),
    refreshBalances: () => balances.pollSoon(),
    intervalMs: INTERVAL,
    ready: reconcile.ready,
    signal: abort.signal,
    vaultOrders: true,
  });
  await ticks.events.next('tick');
  return {
    stack,
    async next() {
      const tick = ticks.events.next('tick');
      await w.clock.advance(INTERVAL);
      await tick;
    },
    async stop() {
      stack.executor.stop();
      abort.abort();
      await Promise.allSettled([ticks.done, reconcile.done, prices.done, balances.done]);
      stack.db.close();
    },
  };
}

describe('tick loop: vault orders', () => {
  it('a vault take-profit is placed once (journaled, not deferred) across ticks and a restart', async () => {
    const w = vaultWorld('tick-vault-tp');
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(VAULT_TP);
    const first = await run(w, loaded);
    for (let i = 0; i < 4; i++) await first.next();
    const rows = first.stack.db.prepare("SELECT id, state, order_id FROM intents WHERE kind = 'place-vault-order'").all() as Array<{ id: string; state: string; order_id: string }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.state).toBe('confirmed');
    expect(first.stack.db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'intent.deferred'").get()).toEqual({ n: 0 });
    await first.stop();

    const second = await run(w, loaded);
    for (let i = 0; i < 3; i++) await second.next();
    expect(second.stack.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'place-vault-order'").get()).toEqual({ n: 1 });
    expect(w.deposits()).toBe(1);
    expect(w.simOrders()).toEqual([expect.objectContaining({ id: rows[0]?.order_id, orderType: 'single' })]);
    await second.stop();
  });
});
