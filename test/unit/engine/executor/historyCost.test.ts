/**
 * What placing or changing one order costs must not grow with the wallet's past. The simulator is
 * given 10,000 ended orders of the same mints (`control.pastOrders`, as a long-used wallet brings)
 * and served over HTTP; every request it receives is counted, and a placement and a PATCH must cost
 * exactly what they cost on a wallet with no past at all.
 */
import { describe, expect, it } from 'vitest';
import { vaultPatchPlan } from '../../../../src/engine/executor/vault/patchVaultOrder.js';
import { recentPriceOrders } from '../../../../src/jupiter/recentHistory.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { dcaVaultIntent, vaultIntent } from '../../../support/intentPlans.js';
import { SOL, USDC } from '../../../support/mints.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const PAST = 10_000;

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'patch-vault-order', 'place-dca-vault-order'];

/**
 * The simulator served over HTTP on 127.0.0.1, its Trigger session logged in (logging in is not what
 * the work costs): every request it answers from here is counted, as `METHOD path` (RPC calls as `rpc method`).
 */
async function counted(options: { seed: string; prepare: (s: TestStack) => void }): Promise<{ s: TestStack; requests: () => string[] }> {
  const s = testStack({ kinds: VAULT, seed: options.seed, http: true });
  options.prepare(s);
  await s.session.token();
  s.sent.length = 0;
  const requests = (): string[] => s.sent.map((r) => (r.path === '/rpc' ? `rpc ${(r.body as { method: string }).method}` : `${r.method} ${r.path}`));
  return { s, requests };
}

function patchIntent(orderId: string, triggerPriceUsd: string): PlanInput {
  const key = { strategy: 'tp-sol', version: 'cd'.repeat(32), rule: 'trailing_stop', trigger: `ratchet:${triggerPriceUsd}` };
  return vaultPatchPlan({
    kind: 'patch-vault-order',
    key,
    id: `tp-sol/${key.version.slice(0, 12)}/trailing_stop/${key.trigger}`,
    reason: 'raise the stop',
    evidence: {},
    orderId,
    orderType: 'single',
    triggerPriceUsd,
  });
}

/** The requests of one vault placement (a single take-profit, or an OCO pair) on a wallet with `past` ended orders of SOL. */
async function placement(past: number, oco: boolean): Promise<{ requests: string[]; legs: number }> {
  const { s, requests } = await counted({
    seed: 'history-cost',
    prepare: (stack) => {
      // The vault exists in both worlds, so both placements take the same path.
      stack.sim.control.pastOrders(stack.wallet.address, Math.max(1, past));
      if (past === 0) stack.sim.control.forgetOrders();
    },
  });
  const intent = oco
    ? vaultIntent({ orderType: 'oco', triggerCondition: undefined, triggerPriceUsd: undefined, tpPriceUsd: '300', slPriceUsd: '100' })
    : vaultIntent();
  const row = await s.executor.execute(intent);
  expect(row.state).toBe('confirmed');
  const legs = s.db.prepare('SELECT count(*) AS n FROM trigger_orders WHERE intent_id = ?').get(row.id) as { n: number };
  return { requests: requests(), legs: legs.n };
}

describe('calls that scale with the work, not with the history', () => {
  it(`a vault placement costs the same requests with ${PAST.toLocaleString('en')} past orders as with none: one history page`, async () => {
    const none = await placement(0, false);
    const long = await placement(PAST, false);
    expect(long.requests).toEqual(none.requests);
    expect(long.requests.filter((r) => r.includes('/orders/history'))).toEqual(['GET /trigger/v2/orders/history']);
    expect(long.requests).toEqual([
      'GET /trigger/v2/vault',
      'POST /trigger/v2/deposit/craft',
      'rpc getMultipleAccounts',
      'rpc simulateTransaction',
      'rpc getBlockHeight',
      'POST /trigger/v2/orders/price',
      'GET /trigger/v2/orders/history',
    ]);
    expect(long.legs).toBe(1);
  });

  it('an OCO placement finds both legs in that one page', async () => {
    const long = await placement(PAST, true);
    expect(long.legs).toBe(2);
    expect(long.requests.filter((r) => r.includes('/orders/history'))).toEqual(['GET /trigger/v2/orders/history']);
    expect(long.requests).toEqual((await placement(0, true)).requests);
  });

  it(`a PATCH costs the PATCH and one history page, with ${PAST.toLocaleString('en')} past orders`, async () => {
    const { s, requests } = await counted({ seed: 'history-cost-patch', prepare: (stack) => stack.sim.control.pastOrders(stack.wallet.address, PAST) });
    s.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
    expect(placed.state).toBe('confirmed');
    await s.sim.control.advance(2_000);
    s.sent.length = 0;
    const row = await s.executor.execute(patchIntent(placed.orderId ?? '', '130'));
    expect(row.state).toBe('confirmed');
    expect(requests()).toEqual(['PATCH /trigger/v2/orders/price/' + (placed.orderId ?? ''), 'GET /trigger/v2/orders/history']);
    expect(s.db.prepare('SELECT trigger_price_usd AS t FROM trigger_orders WHERE id = ?').get(placed.orderId)).toEqual({ t: '130' });
  });

  it(`a PATCH whose answer was lost is settled from one history page, with ${PAST.toLocaleString('en')} past orders`, async () => {
    const { s, requests } = await counted({ seed: 'history-cost-settle', prepare: (stack) => stack.sim.control.pastOrders(stack.wallet.address, PAST) });
    s.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
    await s.sim.control.advance(2_000);
    const plan = patchIntent(placed.orderId ?? '', '130');
    s.executor.plan(plan);
    s.journal.markSent(plan.id, { mode: 'call' });
    s.sent.length = 0;
    // Sent, then nothing known (a crash, a lost answer): history decides, then the PATCH is made.
    const settled = await s.executor.drive(plan.id);
    expect(settled.state).toBe('confirmed');
    expect(requests()).toEqual([
      'GET /trigger/v2/orders/history',
      'PATCH /trigger/v2/orders/price/' + (placed.orderId ?? ''),
      'GET /trigger/v2/orders/history',
    ]);
  });

  it(`a DCA placement reads its order by id, with ${PAST.toLocaleString('en')} past DCA orders`, async () => {
    const { s, requests } = await counted({
      seed: 'history-cost-dca',
      prepare: (stack) => stack.sim.control.pastOrders(stack.wallet.address, PAST, { family: 'dca', inputMint: USDC, outputMint: SOL }),
    });
    const row = await s.executor.execute(dcaVaultIntent());
    expect(row.state).toBe('confirmed');
    expect(requests()).toEqual([
      'GET /trigger/v2/vault',
      'POST /trigger/v2/deposit/craft',
      'rpc getMultipleAccounts',
      'rpc simulateTransaction',
      'rpc getBlockHeight',
      'POST /trigger/v2/orders/dca',
      `GET /trigger/v2/orders/history/dca/${row.orderId ?? ''}`,
    ]);
  });

  it('a bounded read that cannot reach back to the instant asked about says so, never "absent"', async () => {
    const { s, requests } = await counted({ seed: 'history-cost-bound', prepare: (stack) => stack.sim.control.pastOrders(stack.wallet.address, 1_000) });
    const now = s.clock.now();
    // One every 43.2 minutes over 30 days, the newest an hour ago: the last two hours hold two, on one page.
    const recent = await recentPriceOrders(s.authed, { mint: SOL, since: now - 2 * 3_600_000 });
    expect(recent.map((o) => [o.orderState, o.createdAt])).toEqual([
      ['cancelled', now - 3_600_000],
      ['cancelled', now - 3_600_000 - 2_592_000],
    ]);
    expect(requests()).toEqual(['GET /trigger/v2/orders/history']);
    // Back 31 days: 1,000 orders, more than 5 pages of 100.
    await expect(recentPriceOrders(s.authed, { mint: SOL, since: now - 31 * 86_400_000 })).rejects.toMatchObject({
      code: 'TRIGGER_HISTORY_INCOMPLETE',
      message: `5 pages of price orders of ${SOL} did not reach back to ${new Date(now - 31 * 86_400_000).toISOString()}: the order is neither found nor shown absent`,
    });
  });
});
