/**
 * The slippage of vault price orders as the simulator receives it over HTTP (127.0.0.1): every create body of an OCO or
 * OTOCO names both legs' slippage (Trigger V2 gives a leg sent without one its own default, 2000 bps
 * for a stop-loss), nothing above the cap is signed or sent, and a PATCH sets a leg's slippage.
 */
import { describe, expect, it } from 'vitest';
import { vaultPatchPlan } from '../../../../src/engine/executor/vault/patchVaultOrder.js';
import type { PatchVaultOrderIntent, VaultOrderParams } from '../../../../src/strategies/intents.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { vaultIntent } from '../../../support/intentPlans.js';
import { actions } from '../../../support/journalRows.js';
import { SOL, USDC } from '../../../support/mints.js';
import type { SentRequest } from '../../../support/simFetch.js';
import { deposits } from '../../../support/simViews.js';
import { type StackKind, testStack, type TestStack } from '../../../support/testStack.js';

const VAULT: StackKind[] = ['place-vault-order', 'cancel-vault-order', 'patch-vault-order'];

type Override = { [K in keyof VaultOrderParams]?: VaultOrderParams[K] | undefined };

/** SOL sold by a take-profit at $300 or a stop at $100. */
const OCO: Override = { orderType: 'oco', triggerCondition: undefined, triggerPriceUsd: undefined, tpPriceUsd: '300', slPriceUsd: '100' };
/** 100 USDC buying SOL below $140, then a take-profit at $160 or a stop at $120. */
const OTOCO: Override = {
  orderType: 'otoco',
  inputMint: USDC,
  inputDecimals: 6,
  outputMint: SOL,
  inputAmount: 100_000_000n,
  triggerCondition: 'below',
  triggerPriceUsd: '140',
  tpPriceUsd: '160',
  slPriceUsd: '120',
};

/** The slippage fields of every create body the simulator received. */
const created = (sent: readonly SentRequest[]): Record<string, unknown>[] =>
  sent
    .filter((r) => r.method === 'POST' && r.path === '/trigger/v2/orders/price')
    .map((r) => {
      const body = r.body as Record<string, unknown>;
      return Object.fromEntries(['orderType', 'slippageBps', 'tpSlippageBps', 'slSlippageBps'].filter((k) => k in body).map((k) => [k, body[k]]));
    });

/** The simulator's price orders of our wallet: condition, trigger and the slippage each leg carries. */
function simLegs(s: TestStack): [unknown, unknown, unknown][] {
  const dump = s.sim.control.dumpOrders() as { price?: Array<Record<string, unknown>> };
  return (dump.price ?? []).filter((o) => o['userPubkey'] === s.wallet.address).map((o) => [o['triggerCondition'], o['triggerPriceUsd'], o['slippageBps']]);
}

describe('vault placements carry each leg’s slippage to Trigger V2', () => {
  it('an OCO sends both legs’ slippage and no order-wide one; the simulator’s legs carry them', async () => {
    const s = testStack({ kinds: VAULT, seed: 'slip-oco', http: true });
    const { sent } = s;
    s.sim.control.setPrice(SOL, 150);
    const row = await s.executor.execute(vaultIntent({ ...OCO, tpSlippageBps: 40, slSlippageBps: 150 }));
    expect(row.state).toBe('confirmed');
    expect(created(sent)).toEqual([{ orderType: 'oco', tpSlippageBps: 40, slSlippageBps: 150 }]);
    expect(simLegs(s)).toEqual([
      ['above', 300, 40],
      ['below', 100, 150],
    ]);
    expect(JSON.parse(actions(s.db, 'order.id')[0]?.data ?? '{}')).toMatchObject({ source: 'create', slippage: { tpSlippageBps: 40, slSlippageBps: 150 } });
  });

  it('an OTOCO sends its buy’s slippage and both legs’; its children carry them once the buy fills', async () => {
    const s = testStack({ kinds: VAULT, seed: 'slip-otoco', http: true });
    const { sent } = s;
    s.sim.control.setPrice(SOL, 150);
    const row = await s.executor.execute(vaultIntent({ ...OTOCO, slippageBps: 30, tpSlippageBps: 70, slSlippageBps: 200 }, 'entry'));
    expect(row.state).toBe('confirmed');
    expect(created(sent)).toEqual([{ orderType: 'otoco', slippageBps: 30, tpSlippageBps: 70, slSlippageBps: 200 }]);
    s.sim.control.setPrice(SOL, 139);
    await s.sim.control.advance(3_000);
    expect(simLegs(s)).toEqual([
      ['below', 140, 30],
      ['above', 160, 70],
      ['below', 120, 200],
    ]);
  });

  it('a row without leg slippage (journaled before legs carried their own) gives its legs its slippageBps, else the cap', async () => {
    const s = testStack({ kinds: VAULT, seed: 'slip-legacy', http: true, maxVaultSlippageBps: 250 });
    const { sent } = s;
    s.sim.control.setPrice(SOL, 150);
    expect((await s.executor.execute(vaultIntent({ ...OCO, slippageBps: 50 }, 'take_profit[0]'))).state).toBe('confirmed');
    expect((await s.executor.execute(vaultIntent({ ...OCO, inputAmount: 500_000_000n }, 'take_profit[1]'))).state).toBe('confirmed');
    expect((await s.executor.execute(vaultIntent({ inputAmount: 300_000_000n }, 'take_profit[2]'))).state).toBe('confirmed');
    expect(created(sent)).toEqual([
      { orderType: 'oco', tpSlippageBps: 50, slSlippageBps: 50 },
      { orderType: 'oco', tpSlippageBps: 250, slSlippageBps: 250 },
      { orderType: 'single', slippageBps: 250 },
    ]);
    // Not one leg left to the simulator's defaults (100 for a take-profit, 2000 for a stop).
    expect(simLegs(s).map(([, , bps]) => bps)).toEqual([50, 50, 250, 250, 250]);
  });

  it('refuses a row whose slippage exceeds the cap before crafting anything: VAULT_SLIPPAGE_EXCEEDS_CAP', async () => {
    const s = testStack({ kinds: VAULT, seed: 'slip-cap', http: true, maxVaultSlippageBps: 100 });
    const { sent } = s;
    const row = await s.executor.execute(vaultIntent({ ...OCO, tpSlippageBps: 40, slSlippageBps: 150 }));
    expect(row.state).toBe('failed');
    expect(row.errorCode).toBe('VAULT_SLIPPAGE_EXCEEDS_CAP');
    expect(row.errorMessage).toBe('slSlippageBps 150 above the vault slippage cap of 100 bps');
    expect(sent).toEqual([]);
    expect(deposits(s)).toBe(0);
  });
});

/** A PATCH of `orderId`'s slippage, decided under strategy version `version`. */
function patchSlippage(
  orderId: string,
  fields: Pick<PatchVaultOrderIntent, 'orderType' | 'slippageBps' | 'tpSlippageBps' | 'slSlippageBps'>,
  version = 'cd'.repeat(32),
): PlanInput {
  const key = { strategy: 'tp-sol', version, rule: 'take_profit[0]', trigger: `slippage:${orderId}@${version.slice(0, 12)}` };
  return vaultPatchPlan({
    kind: 'patch-vault-order',
    key,
    id: `tp-sol/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`,
    reason: 'give the order the slippage its rule asks for',
    evidence: {},
    orderId,
    ...fields,
  });
}

describe('a PATCH of a leg’s slippage', () => {
  it('sends tpSlippageBps / slSlippageBps and the simulator’s legs take them; over the cap it is refused unsent', async () => {
    const s = testStack({ kinds: VAULT, seed: 'slip-patch', http: true, maxVaultSlippageBps: 300 });
    const { sent } = s;
    s.sim.control.setPrice(SOL, 150);
    const placed = await s.executor.execute(vaultIntent({ ...OCO, tpSlippageBps: 40, slSlippageBps: 150 }));
    await s.sim.control.advance(2_000);
    const orderId = placed.orderId ?? '';

    const row = await s.executor.execute(patchSlippage(orderId, { orderType: 'oco', slSlippageBps: 80 }));
    expect(row.state).toBe('confirmed');
    expect(sent.filter((r) => r.method === 'PATCH')).toEqual([
      { method: 'PATCH', path: `/trigger/v2/orders/price/${orderId}`, body: { orderType: 'oco', slSlippageBps: 80 } },
    ]);
    expect(simLegs(s)).toEqual([
      ['above', 300, 40],
      ['below', 100, 80],
    ]);

    // An edit (another version) asking for more than the cap.
    const over = await s.executor.execute(patchSlippage(orderId, { orderType: 'oco', tpSlippageBps: 301 }, 'ef'.repeat(32)));
    expect(over.state).toBe('failed');
    expect(over.errorCode).toBe('VAULT_SLIPPAGE_EXCEEDS_CAP');
    expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(simLegs(s)[0]).toEqual(['above', 300, 40]);
  });
});
