import { describe, expect, it } from 'vitest';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { HEADER } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { deposits, simOrders } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';
import { vaultOrderViews } from '../../../../src/engine/tick/vaultOrderViews.js';
import { run as runTicks, strategies, ticks } from './support.js';

/** The vault handlers the decide loop may journal through: placements and their cancels. */
const VAULT: readonly StackKind[] = ['place-vault-order', 'cancel-vault-order'];

const VAULT_TP = `${HEADER}name: sol-vault-tp
kind: price-order
sell: SOL
receive: USDC
amount: "1"
execution: vault
take_profit:
  - at: "300"
`;

/** Feeds, reconciliation and ticks on a vault stack (the vault handlers wired). */
async function run(
  stack: TestStack,
  loaded: ReadonlyMap<string, LoadedStrategy>,
): Promise<{ stack: TestStack; next: () => Promise<void>; stop: () => Promise<void> }> {
  const running = await runTicks(stack, loaded);
  return {
    stack,
    next: async () => {
      await ticks(running, 1);
    },
    stop: () => running.stop(),
  };
}

describe('vaultOrderViews', () => {
  it('shows a journaled placement not yet mirrored as pending, from its params', () => {
    const stack = testStack({ kinds: VAULT, seed: 'views-pending' });
    stack.journal.plan({
      id: 's/abc/stop_loss/g0',
      kind: 'place-vault-order',
      strategy: 's',
      rule: 'stop_loss',
      params: {
        orderType: 'single',
        inputMint: SOL,
        inputDecimals: 9,
        outputMint: SOL,
        inputAmount: '5',
        triggerMint: SOL,
        triggerPriceUsd: '135.5',
        expiresAt: 99,
      },
    });
    expect(vaultOrderViews(stack.db).get('s')).toEqual([
      {
        id: 's/abc/stop_loss/g0',
        rule: 'stop_loss',
        family: 'price',
        orderType: 'single',
        state: 'pending',
        expiresAt: 99,
        triggerPriceUsd: 135_500_000_000_000_000_000n,
        trailingBps: null,
        inputAmount: 5n,
      },
    ]);
    stack.journal.markFailed('s/abc/stop_loss/g0', { code: 'X', message: 'x' });
    expect(vaultOrderViews(stack.db).size).toBe(0);
    stack.db.close();
  });
});

describe('tick loop: vault orders', () => {
  it('a vault take-profit is placed once (journaled, not deferred) across ticks and a restart', async () => {
    const w = testStack({ kinds: VAULT, seed: 'tick-vault-tp' });
    w.sim.control.setPrice(SOL, 150);
    const loaded = await strategies(VAULT_TP);
    const first = await run(w, loaded);
    for (let i = 0; i < 4; i++) await first.next();
    const rows = first.stack.db.prepare("SELECT id, state, order_id FROM intents WHERE kind = 'place-vault-order'").all() as Array<{
      id: string;
      state: string;
      order_id: string;
    }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.state).toBe('confirmed');
    expect(first.stack.db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'intent.deferred'").get()).toEqual({ n: 0 });
    // decide() sees it as the rule's live order, with its expiry and amount.
    expect(vaultOrderViews(first.stack.db).get('sol-vault-tp')).toEqual([
      expect.objectContaining({ id: rows[0]?.order_id, rule: 'take_profit[0]', family: 'price', orderType: 'single', inputAmount: 1_000_000_000n }),
    ]);
    expect(vaultOrderViews(first.stack.db).get('sol-vault-tp')?.[0]?.expiresAt).toBeGreaterThan(w.clock.now());
    await first.stop();

    const second = await run(w.restart(), loaded);
    for (let i = 0; i < 3; i++) await second.next();
    expect(second.stack.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'place-vault-order'").get()).toEqual({ n: 1 });
    expect(deposits(w)).toBe(1);
    expect(simOrders(w)).toEqual([expect.objectContaining({ id: rows[0]?.order_id, orderType: 'single' })]);
    await second.stop();
  });
});
