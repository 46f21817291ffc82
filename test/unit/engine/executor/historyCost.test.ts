/**
 * What placing or changing one order costs must not grow with the wallet's past. The simulator is
 * given 10,000 ended orders of the same mints (`control.pastOrders`, as a long-used wallet brings)
 * and served over HTTP; every request it receives is counted, and a placement and a PATCH must cost
 * exactly what they cost on a wallet with no past at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { vaultPatchPlan } from '../../../../src/engine/executor/vault/patchVaultOrder.js';
import { recentPriceOrders } from '../../../../src/jupiter/recentHistory.js';
import type { Simulator } from '../../../../src/sim/simulator.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { dcaVaultIntent, dcaWorld } from './dcaSupport.js';
import { bootFull } from './patchRenewSupport.js';
import { SOL, USDC, vaultIntent, vaultWorld } from './vaultSupport.js';

const PAST = 10_000;

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * The simulator served over HTTP on 127.0.0.1; every request it answers is counted, as `METHOD path`
 * (RPC calls as `rpc method`). The stacks address `http://sim.local`: that origin becomes the server's.
 */
async function counted(sim: Simulator): Promise<{ fetch: typeof globalThis.fetch; requests: string[] }> {
  const server = await sim.listen();
  servers.push(server);
  const requests: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? init.body : '';
    const method = url.pathname === '/rpc' ? (JSON.parse(body) as { method: string }).method : null;
    requests.push(method === null ? `${init?.method ?? 'GET'} ${url.pathname}` : `rpc ${method}`);
    return globalThis.fetch(`${server.url}${url.pathname}${url.search}`, init);
  };
  return { fetch, requests };
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
  const w = vaultWorld('history-cost');
  // The vault exists in both worlds, so both placements take the same path.
  w.sim.control.pastOrders(w.wallet.address, Math.max(1, past));
  if (past === 0) w.sim.control.forgetOrders();
  const net = await counted(w.sim);
  const s = w.bootVault({ fetch: net.fetch });
  const intent = oco
    ? vaultIntent({ orderType: 'oco', triggerCondition: undefined, triggerPriceUsd: undefined, tpPriceUsd: '300', slPriceUsd: '100' })
    : vaultIntent();
  const row = await s.executor.execute(intent);
  expect(row.state).toBe('confirmed');
  const legs = s.db.prepare('SELECT count(*) AS n FROM trigger_orders WHERE intent_id = ?').get(row.id) as { n: number };
  return { requests: net.requests, legs: legs.n };
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
    const w = vaultWorld('history-cost-patch');
    w.sim.control.pastOrders(w.wallet.address, PAST);
    const net = await counted(w.sim);
    const s = bootFull(w, 'history-cost-patch', { fetch: net.fetch });
    w.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
    expect(placed.state).toBe('confirmed');
    await w.sim.control.advance(2_000);
    net.requests.length = 0;
    const row = await s.executor.execute(patchIntent(placed.orderId ?? '', '130'));
    expect(row.state).toBe('confirmed');
    expect(net.requests).toEqual(['PATCH /trigger/v2/orders/price/' + (placed.orderId ?? ''), 'GET /trigger/v2/orders/history']);
    expect(s.db.prepare('SELECT trigger_price_usd AS t FROM trigger_orders WHERE id = ?').get(placed.orderId)).toEqual({ t: '130' });
  });

  it(`a PATCH whose answer was lost is settled from one history page, with ${PAST.toLocaleString('en')} past orders`, async () => {
    const w = vaultWorld('history-cost-settle');
    w.sim.control.pastOrders(w.wallet.address, PAST);
    const net = await counted(w.sim);
    const s = bootFull(w, 'history-cost-settle', { fetch: net.fetch });
    w.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ triggerCondition: 'below', triggerPriceUsd: '120' }, 'trailing_stop'));
    await w.sim.control.advance(2_000);
    const plan = patchIntent(placed.orderId ?? '', '130');
    s.executor.plan(plan);
    s.journal.markSent(plan.id, { mode: 'call' });
    net.requests.length = 0;
    // Sent, then nothing known (a crash, a lost answer): history decides, then the PATCH is made.
    const settled = await s.executor.drive(plan.id);
    expect(settled.state).toBe('confirmed');
    expect(net.requests).toEqual([
      'GET /trigger/v2/orders/history',
      'PATCH /trigger/v2/orders/price/' + (placed.orderId ?? ''),
      'GET /trigger/v2/orders/history',
    ]);
  });

  it(`a DCA placement reads its order by id, with ${PAST.toLocaleString('en')} past DCA orders`, async () => {
    const w = dcaWorld('history-cost-dca');
    w.sim.control.pastOrders(w.wallet.address, PAST, { family: 'dca', inputMint: USDC, outputMint: SOL });
    const net = await counted(w.sim);
    const s = w.bootDca({ fetch: net.fetch });
    const row = await s.executor.execute(dcaVaultIntent());
    expect(row.state).toBe('confirmed');
    expect(net.requests).toEqual([
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
    const w = vaultWorld('history-cost-bound');
    w.sim.control.pastOrders(w.wallet.address, 1_000);
    const net = await counted(w.sim);
    const s = w.bootVault({ fetch: net.fetch });
    const now = w.clock.now();
    // One every 43.2 minutes over 30 days, the newest an hour ago: the last two hours hold two, on one page.
    const recent = await recentPriceOrders(s.authed, { mint: SOL, since: now - 2 * 3_600_000 });
    expect(recent.map((o) => [o.orderState, o.createdAt])).toEqual([
      ['cancelled', now - 3_600_000],
      ['cancelled', now - 3_600_000 - 2_592_000],
    ]);
    expect(net.requests).toEqual(['GET /trigger/v2/orders/history']);
    // Back 31 days: 1,000 orders, more than 5 pages of 100.
    await expect(recentPriceOrders(s.authed, { mint: SOL, since: now - 31 * 86_400_000 })).rejects.toMatchObject({
      code: 'TRIGGER_HISTORY_INCOMPLETE',
      message: `5 pages of price orders of ${SOL} did not reach back to ${new Date(now - 31 * 86_400_000).toISOString()}: the order is neither found nor shown absent`,
    });
  });
});
