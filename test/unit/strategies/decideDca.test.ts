import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/strategies/decide.js';
import { decideDca } from '../../../src/strategies/decideDca.js';
import type { LoadedDca } from '../../../src/strategies/loadedStrategy.js';
import type { VaultOrderView } from '../../../src/strategies/snapshot.js';
import { JUP_MINT, load, snapshot, SOL_MINT, USDC_MINT, usd } from './helpers.js';

const NINE = Date.UTC(2026, 0, 5, 9); // a Monday, 09:00 UTC
const swapDca = (extra = ''): Promise<LoadedDca> =>
  load<LoadedDca>(`name: d\nkind: dca\nbuy: SOL\namount: "25"\nschedule: { cron: "0 9 * * *", timezone: UTC }\n${extra}`);
const since = { lastScheduledRun: NINE - 86_400_000 };

describe('decideDca, swap execution', () => {
  it.each([
    ['just before the run', NINE - 1, 0],
    ['at the run', NINE, 1],
    ['9 minutes late (on time)', NINE + 9 * 60_000, 1],
  ])('%s gives %i swap', async (_name, now, count) => {
    const d = decideDca(await swapDca(), since, snapshot({ at: now }), now);
    expect(d.intents).toHaveLength(count);
  });

  it('swaps the run amount of pay_with into buy, keyed by the scheduled instant', async () => {
    const s = await swapDca('slippage_bps: 50\nrisk: { max_price_impact: "1%" }\n');
    const [intent] = decideDca(s, since, snapshot({ at: NINE }), NINE).intents;
    expect(intent).toMatchObject({
      kind: 'swap',
      inputMint: USDC_MINT,
      outputMint: SOL_MINT,
      amount: 25_000_000n,
      slippageBps: 50,
      maxPriceImpactBps: 100,
      key: { rule: 'run', trigger: '2026-01-05T09:00:00.000Z' },
    });
  });

  it('counts from the first start when nothing ran yet, and reports the cursor', async () => {
    const d = decideDca(await swapDca(), { startedAt: NINE - 60_000 }, snapshot({ at: NINE + 60_000 }), NINE + 60_000);
    expect(d.intents).toHaveLength(1);
    expect(d.scheduledThrough).toBe(NINE);
    expect(decideDca(await swapDca(), { lastScheduledRun: NINE }, snapshot({ at: NINE + 60_000 }), NINE + 60_000).intents).toEqual([]);
  });

  it('holds a run whose quote moves the price more than the guard allows', async () => {
    const s = await swapDca('risk: { max_price_impact: "0.5%" }\n');
    const snap = snapshot({ at: NINE, priceImpactBps: new Map([[`${USDC_MINT}>${SOL_MINT}`, 80]]) });
    const d = decideDca(s, since, snap, NINE);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toBe('run due at 2026-01-05T09:00:00.000Z held: price impact 80 bps is above risk.max_price_impact (0.5%)');
    expect(d.scheduledThrough).toBe(NINE);
    const fine = snapshot({ at: NINE, priceImpactBps: new Map([[`${USDC_MINT}>${SOL_MINT}`, 50]]) });
    expect(decideDca(s, since, fine, NINE).intents).toHaveLength(1);
  });

  it.each([
    ['the balance is short', '', { balances: new Map([[USDC_MINT, 10_000_000n]]) }, {}, /balance is 10000000/],
    [
      'the daily limit is used',
      'risk: { max_notional_per_day_usd: "30" }\n',
      {},
      { notional: { day: Math.floor(NINE / 86_400_000), usedUsd: usd('10') } },
      /max_notional_per_day_usd \(\$30\)/,
    ],
    ['the order limit is lower', 'risk: { max_notional_per_order_usd: "20" }\n', {}, {}, /max_notional_per_order_usd \(\$20\)/],
  ])('holds a run when %s', async (_name, extra, snap, state, reason) => {
    const d = decideDca(await swapDca(extra), { ...since, ...state }, snapshot({ at: NINE, ...snap }), NINE);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toMatch(reason);
  });

  it('spends a share of the pay_with balance', async () => {
    const s = await load<LoadedDca>('name: d\nkind: dca\nbuy: SOL\namount: "10%"\nschedule: { cron: "0 9 * * *", timezone: UTC }\n');
    const [intent] = decideDca(s, since, snapshot({ at: NINE }), NINE).intents;
    expect(intent?.kind === 'swap' && intent.amount).toBe(100_000_000n);
  });

  it('does nothing when disabled', async () => {
    expect(decide(await swapDca('enabled: false\n'), since, snapshot({ at: NINE }), NINE).intents).toEqual([]);
  });
});

describe('decideDca, vault execution', () => {
  const vaultText = 'name: v\nkind: dca\nbuy: JUP\namount: "20"\nexecution: vault\nvault:\n  orders: 10\n  interval: 1d\n';
  const jupSnap = (orders: VaultOrderView[] = []) =>
    snapshot({
      prices: new Map([
        [USDC_MINT, { usd: usd('1'), at: NINE }],
        [JUP_MINT, { usd: usd('0.8'), at: NINE }],
      ]),
      vaultOrders: new Map([['v', orders]]),
    });

  it('places one Trigger V2 DCA order for every round', async () => {
    const [intent] = decideDca(await load<LoadedDca>(vaultText), {}, jupSnap(), NINE).intents;
    expect(intent).toMatchObject({
      kind: 'place-dca-vault-order',
      inputMint: USDC_MINT,
      outputMint: JUP_MINT,
      inputAmount: 200_000_000n,
      orderCount: 10,
      intervalSeconds: 86_400,
      orderType: 'time_based',
      reason: 'place a DCA order buying JUP with 10 × 20 USDC, one every 1d',
    });
    expect(intent && 'triggerMint' in intent).toBe(false);
  });

  it('places nothing while its order is live', async () => {
    const live: VaultOrderView = {
      id: 'dca-1',
      rule: 'vault_dca',
      family: 'dca',
      orderType: 'time_based',
      state: 'active',
      expiresAt: null,
      triggerPriceUsd: null,
      trailingBps: null,
      inputAmount: 200_000_000n,
    };
    expect(decideDca(await load<LoadedDca>(vaultText), {}, jupSnap([live]), NINE).intents).toEqual([]);
  });

  it('passes price bounds and the trigger mint for price_conditional', async () => {
    const s = await load<LoadedDca>(`${vaultText}  type: price_conditional\n  max_price_usd: "0.9"\n`);
    const [intent] = decideDca(s, {}, jupSnap(), NINE).intents;
    expect(intent).toMatchObject({ orderType: 'price_conditional', maxPriceUsd: '0.9', triggerMint: JUP_MINT });
  });
});
