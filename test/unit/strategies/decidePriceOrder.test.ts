import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/strategies/decide.js';
import { decidePriceOrder } from '../../../src/strategies/decidePriceOrder.js';
import type { Intent } from '../../../src/strategies/intents.js';
import type { LoadedPriceOrder } from '../../../src/strategies/loadedStrategy.js';
import { exitRules, generationDone } from '../../../src/strategies/priceOrderExits.js';
import type { StrategyState, VaultOrderView } from '../../../src/strategies/snapshot.js';
import { load, snapshot, SOL_MINT, T0, USDC_MINT, usd } from './helpers.js';

const HOUR = 3_600_000;
const base = 'name: po\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "10"\nreference_price_usd: "150"\n';

async function po(extra: string): Promise<LoadedPriceOrder> {
  return load<LoadedPriceOrder>(base + extra);
}

function order(rule: string, over: Partial<VaultOrderView> = {}): VaultOrderView {
  return {
    id: `ord-${rule}`,
    rule,
    family: 'price',
    orderType: 'single',
    state: 'open',
    expiresAt: T0 + 5 * 24 * HOUR,
    triggerPriceUsd: null,
    trailingBps: null,
    inputAmount: 10_000_000_000n,
    ...over,
  };
}

function brief(intents: readonly Intent[]): unknown[] {
  return intents
    .map((i) => {
      switch (i.kind) {
        case 'place-vault-order':
          return {
            kind: i.kind,
            rule: i.key.rule,
            trigger: i.key.trigger,
            type: i.order.orderType,
            amount: i.order.inputAmount,
            cond: i.order.triggerCondition,
            price: i.order.triggerPriceUsd,
            tp: i.order.tpPriceUsd,
            sl: i.order.slPriceUsd,
            trailingBps: i.order.trailingBps,
          };
        case 'swap':
          return { kind: i.kind, rule: i.key.rule, amount: i.amount };
        default:
          return { kind: i.kind, rule: i.key.rule };
      }
    })
    .map((o) => Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([, v]) => v !== undefined)));
}

describe('decidePriceOrder, vault execution', () => {
  it('places one OCO per take-profit rung with the stop as its second leg', async () => {
    const s = await po('take_profit:\n  - { at: "+20%", sell: "50%" }\n  - { at: "+40%", sell: "50%" }\nstop_loss: { at: "-10%" }\n');
    const d = decidePriceOrder(s, {}, snapshot(), T0);
    expect(brief(d.intents)).toEqual([
      { kind: 'place-vault-order', rule: 'take_profit[0]', trigger: 'g0', type: 'oco', amount: 5_000_000_000n, tp: '180', sl: '135' },
      { kind: 'place-vault-order', rule: 'take_profit[1]', trigger: 'g0', type: 'oco', amount: 5_000_000_000n, tp: '210', sl: '135' },
    ]);
    const first = d.intents[0];
    expect(first?.kind === 'place-vault-order' && first.order.expiresAt).toBe(T0 + 7 * 24 * HOUR);
    expect(first?.evidence).toMatchObject({ priceUsd: '150', referenceUsd: '150' });
  });

  it('protects tokens no rung covers with their own stop order', async () => {
    const s = await po('take_profit:\n  - { at: "+20%", sell: "60%" }\nstop_loss: { at: "130" }\n');
    expect(brief(decidePriceOrder(s, {}, snapshot(), T0).intents)).toEqual([
      { kind: 'place-vault-order', rule: 'take_profit[0]', trigger: 'g0', type: 'oco', amount: 6_000_000_000n, tp: '180', sl: '130' },
      { kind: 'place-vault-order', rule: 'stop_loss', trigger: 'g0', type: 'single', amount: 4_000_000_000n, cond: 'below', price: '130' },
    ]);
  });

  it.each([
    ['a stop alone', 'stop_loss: { at: "-10%" }\n', { rule: 'stop_loss', type: 'single', cond: 'below', price: '135' }],
    ['a rung without a stop', 'take_profit:\n  - { at: "200" }\n', { rule: 'take_profit[0]', type: 'single', cond: 'above', price: '200' }],
    ['a vault trailing stop', 'trailing_stop: { distance: "5%" }\n', { rule: 'trailing_stop', type: 'single', cond: 'below', trailingBps: 500 }],
    ['a ratchet stop', 'trailing_stop: { distance: "10%", mode: ratchet }\n', { rule: 'trailing_stop', type: 'single', cond: 'below', price: '135' }],
  ])('places %s as a single order', async (_name, yaml, expected) => {
    const s = await po(yaml);
    expect(brief(decidePriceOrder(s, {}, snapshot(), T0).intents)).toEqual([
      { kind: 'place-vault-order', trigger: 'g0', amount: 10_000_000_000n, ...expected },
    ]);
  });

  it('places an OTOCO for an entry: buy below, then take profit or stop', async () => {
    const s = await po('entry: { buy_below: "140", spend: "500" }\ntake_profit:\n  - { at: "+10%" }\nstop_loss: { at: "-5%" }\n');
    const d = decidePriceOrder(s, {}, snapshot(), T0);
    const intent = d.intents[0];
    expect(intent?.kind).toBe('place-vault-order');
    if (intent?.kind !== 'place-vault-order') return;
    expect(intent.order).toMatchObject({
      orderType: 'otoco',
      inputMint: USDC_MINT,
      outputMint: SOL_MINT,
      triggerMint: SOL_MINT,
      inputAmount: 500_000_000n,
      triggerCondition: 'below',
      triggerPriceUsd: '140',
      tpPriceUsd: '154',
      slPriceUsd: '133',
    });
  });

  it('does not place again what is live or filled', async () => {
    const s = await po('take_profit:\n  - { at: "+20%", sell: "50%" }\n  - { at: "+40%", sell: "50%" }\nstop_loss: { at: "-10%" }\n');
    const snap = snapshot({ vaultOrders: new Map([['po', [order('take_profit[1]')]]]) });
    expect(decidePriceOrder(s, { filledRules: new Set(['take_profit[0]']) }, snap, T0).intents).toEqual([]);
  });

  it('holds a rule whose order is being withdrawn, and places it again once that order is gone', async () => {
    const s = await po('stop_loss: { at: "-10%" }\n');
    const withdrawing = snapshot({ vaultOrders: new Map([['po', [order('stop_loss', { state: 'pending_withdraw' })]]]) });
    const d = decidePriceOrder(s, {}, withdrawing, T0);
    expect(d.intents).toEqual([]);
    expect(d.holds).toMatchObject([
      { rule: 'stop_loss', reason: 'order ord-stop_loss is being withdrawn (pending_withdraw): placed again once its funds are back in the wallet' },
    ]);
    // Withdrawn (cancelled, no longer listed): the rule is placed again.
    expect(brief(decidePriceOrder(s, {}, snapshot(), T0).intents)).toMatchObject([{ kind: 'place-vault-order', rule: 'stop_loss', trigger: 'g0' }]);
  });

  it('cancels a live order whose rule an edit removed', async () => {
    const s = await po('stop_loss: { at: "-10%" }\n');
    const snap = snapshot({ vaultOrders: new Map([['po', [order('stop_loss'), order('take_profit[0]')]]]) });
    const d = decidePriceOrder(s, {}, snap, T0);
    expect(d.intents).toMatchObject([
      { kind: 'cancel-vault-order', orderId: 'ord-take_profit[0]', family: 'price', key: { rule: 'take_profit[0]', trigger: 'orphan:ord-take_profit[0]' } },
    ]);
  });

  it('renews an order before its expiresAt, not earlier', async () => {
    const s = await po('stop_loss: { at: "-10%" }\nrenew_before: 2h\n');
    const soon = snapshot({ vaultOrders: new Map([['po', [order('stop_loss', { expiresAt: T0 + HOUR })]]]) });
    const d = decidePriceOrder(s, {}, soon, T0);
    expect(d.intents).toHaveLength(1);
    const renew = d.intents[0];
    expect(renew?.kind).toBe('renew-vault-order');
    if (renew?.kind !== 'renew-vault-order') return;
    expect(renew.orderId).toBe('ord-stop_loss');
    expect(renew.replacement).toMatchObject({ orderType: 'single', triggerPriceUsd: '135', expiresAt: T0 + 7 * 24 * HOUR, inputAmount: 10_000_000_000n });
    expect(renew.key.trigger).toBe(`renew:ord-stop_loss@${T0 + HOUR}`);
    const later = snapshot({ vaultOrders: new Map([['po', [order('stop_loss', { expiresAt: T0 + 3 * HOUR })]]]) });
    expect(decidePriceOrder(s, {}, later, T0).intents).toEqual([]);
  });

  it('raises a ratchet stop by PATCH once the peak moved it by the step', async () => {
    const s = await po('trailing_stop: { distance: "10%", mode: ratchet, ratchet_step: "1%" }\n');
    const live = snapshot({ sol: '160', vaultOrders: new Map([['po', [order('trailing_stop', { triggerPriceUsd: usd('135') })]]]) });
    const d = decidePriceOrder(s, { peakPriceUsd: usd('160') }, live, T0);
    expect(d.intents).toHaveLength(1);
    const patch = d.intents[0];
    expect(patch?.kind === 'patch-vault-order' && { orderId: patch.orderId, triggerPriceUsd: patch.triggerPriceUsd }).toEqual({
      orderId: 'ord-trailing_stop',
      triggerPriceUsd: '144',
    });
    // 135 → 136 is less than the 1% step: no PATCH for noise.
    const small = snapshot({ sol: '151', vaultOrders: new Map([['po', [order('trailing_stop', { triggerPriceUsd: usd('135.5') })]]]) });
    expect(decidePriceOrder(s, { peakPriceUsd: usd('151') }, small, T0).intents).toEqual([]);
  });

  it('re-arms on the new balance after every exit filled when rearm is set', async () => {
    const state: StrategyState = { filledRules: new Set(['stop_loss']), armedAmount: 1n };
    const again = await po('stop_loss: { at: "-10%" }\nrearm: true\n');
    expect(brief(decidePriceOrder(again, state, snapshot(), T0).intents)).toEqual([
      { kind: 'place-vault-order', rule: 'stop_loss', trigger: 'g1', type: 'single', amount: 10_000_000_000n, cond: 'below', price: '135' },
    ]);
    const once = await po('stop_loss: { at: "-10%" }\n');
    const d = decidePriceOrder(once, state, snapshot(), T0);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toMatch(/every exit has filled/);
  });

  it('computes shares from the balance at arming', async () => {
    const s = await load<LoadedPriceOrder>(base.replace('amount: "10"', 'amount: "50%"') + 'stop_loss: { at: "-10%" }\n');
    const [fresh] = decidePriceOrder(s, {}, snapshot(), T0).intents;
    expect(fresh?.kind === 'place-vault-order' && fresh.order.inputAmount).toBe(5_000_000_000n);
    const [armed] = decidePriceOrder(s, { armedAmount: 4_000_000_000n }, snapshot(), T0).intents;
    expect(armed?.kind === 'place-vault-order' && armed.order.inputAmount).toBe(2_000_000_000n);
  });
});

describe('decidePriceOrder, local execution and guards', () => {
  it.each([
    ['below the take-profit', '170', []],
    ['at the take-profit', '180', [{ kind: 'swap', rule: 'take_profit[0]', amount: 10_000_000_000n }]],
    ['at the stop', '135', [{ kind: 'swap', rule: 'stop_loss', amount: 10_000_000_000n }]],
  ])('swaps when the price is %s', async (_name, price, expected) => {
    const s = await po('execution: local\ntake_profit:\n  - { at: "+20%" }\nstop_loss: { at: "-10%" }\n');
    expect(brief(decidePriceOrder(s, {}, snapshot({ sol: price }), T0).intents)).toEqual(expected);
  });

  it('fires a local trailing stop from the peak', async () => {
    const s = await po('execution: local\ntrailing_stop: { distance: "10%" }\n');
    expect(decidePriceOrder(s, { peakPriceUsd: usd('200') }, snapshot({ sol: '181' }), T0).intents).toEqual([]);
    expect(brief(decidePriceOrder(s, { peakPriceUsd: usd('200') }, snapshot({ sol: '180' }), T0).intents)).toEqual([
      { kind: 'swap', rule: 'trailing_stop', amount: 10_000_000_000n },
    ]);
  });

  it('holds a local swap over the price-impact limit', async () => {
    const s = await po('execution: local\nstop_loss: { at: "-10%" }\nrisk: { max_price_impact: "1%" }\n');
    const d = decidePriceOrder(s, {}, snapshot({ sol: '130', priceImpactBps: new Map([[`${SOL_MINT}>${USDC_MINT}`, 250]]) }), T0);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toBe('price impact 250 bps is above risk.max_price_impact (1%)');
  });

  it.each([
    ['per order', 'max_notional_per_order_usd: "1000"', {}, /above risk.max_notional_per_order_usd \(\$1000\)/],
    ['per day', 'max_notional_per_day_usd: "2000"', { notional: { day: Math.floor(T0 / 86_400_000), usedUsd: usd('1000') } }, /today's total to \$2500.00/],
    ['min sell price', 'min_sell_price_usd: "140"', {}, /below risk.min_sell_price_usd \(\$140\)/],
  ])('holds an order over the %s limit', async (_name, risk, state, reason) => {
    const s = await po(`stop_loss: { at: "-10%" }\nrisk: { ${risk} }\n`);
    const d = decidePriceOrder(s, state, snapshot(), T0);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toMatch(reason);
  });

  it.each([
    [
      'the balance is short',
      'amount: "10"',
      { balances: new Map([[SOL_MINT, 1_000_000_000n]]) },
      'needs 10000000000 base units of SOL, the balance is 1000000000',
    ],
    [
      'the order is under the vault minimum',
      'amount: "0.05"',
      {},
      "order worth $7.50 is under the vault's 10 USD minimum; use execution: local for small amounts",
    ],
  ])('holds a vault order when %s', async (_name, amount, over, reason) => {
    const s = await load<LoadedPriceOrder>(base.replace('amount: "10"', amount) + 'stop_loss: { at: "-10%" }\n');
    const d = decidePriceOrder(s, {}, snapshot(over), T0);
    expect(d.intents).toEqual([]);
    expect(d.holds[0]?.reason).toBe(reason);
  });

  it('counts yesterday as nothing for the daily limit', async () => {
    const s = await po('stop_loss: { at: "-10%" }\nrisk: { max_notional_per_day_usd: "2000" }\n');
    expect(decidePriceOrder(s, { notional: { day: 0, usedUsd: usd('1999') } }, snapshot(), T0).intents).toHaveLength(1);
  });

  it('acts on no stale or missing price', async () => {
    const s = await po('stop_loss: { at: "-10%" }\n');
    expect(decidePriceOrder(s, {}, snapshot({ at: T0 - 10 * 60_000 }), T0).holds[0]?.reason).toMatch(/stale/);
    expect(decidePriceOrder(s, {}, snapshot({ prices: new Map() }), T0).holds[0]?.reason).toBe('no SOL price yet');
  });

  it('is deterministic, skips journaled intents, and does nothing when disabled', async () => {
    const s = await po('stop_loss: { at: "-10%" }\n');
    const a = decidePriceOrder(s, {}, snapshot(), T0);
    const b = decidePriceOrder(s, {}, snapshot(), T0 + 1000);
    expect(a.intents[0]?.id).toBe(b.intents[0]?.id);
    expect(a.intents[0]?.id).toBe(`po/${s.hash.slice(0, 12)}/stop_loss/g0`);
    expect(decidePriceOrder(s, { handled: new Set(['stop_loss/g0']) }, snapshot(), T0).intents).toEqual([]);
    // An edit (new version, new ids) does not re-place what the old version already placed.
    const edited = await po('stop_loss: { at: "-10%" }\ndescription: edited\n');
    expect(edited.hash).not.toBe(s.hash);
    expect(decidePriceOrder(edited, { handled: new Set(['stop_loss/g0']) }, snapshot(), T0).intents).toEqual([]);
    const off = await po('stop_loss: { at: "-10%" }\nenabled: false\n');
    expect(decide(off, {}, snapshot(), T0).intents).toEqual([]);
  });
});

describe('exitRules and generationDone', () => {
  it('a vault ladder of shares covering 100% arms no separate stop; a local stop that filled ends the generation', async () => {
    const head = 'name: x\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "1"\n';
    const ladder = 'take_profit:\n  - at: "+20%"\n    sell: "50%"\n  - at: "+40%"\n    sell: "50%"\nstop_loss:\n  at: "-10%"\n';
    const vault = await load<LoadedPriceOrder>(`${head}execution: vault\n${ladder}`);
    const partial = await load<LoadedPriceOrder>(`${head}execution: vault\ntake_profit:\n  - at: "+20%"\n    sell: "50%"\nstop_loss:\n  at: "-10%"\n`);
    const local = await load<LoadedPriceOrder>(`${head}execution: local\n${ladder}`);
    expect(exitRules(vault)).toEqual(['take_profit[0]', 'take_profit[1]']);
    expect(exitRules(partial)).toEqual(['take_profit[0]', 'stop_loss']);
    expect(exitRules(local)).toEqual(['take_profit[0]', 'take_profit[1]', 'stop_loss']);
    expect(generationDone(vault as never, new Set(['take_profit[0]', 'take_profit[1]']))).toBe(true);
    expect(generationDone(local as never, new Set(['stop_loss']))).toBe(true);
    expect(generationDone(local as never, new Set(['take_profit[0]']))).toBe(false);
  });
});

describe('decidePriceOrder, local stops after rungs', () => {
  it('a stop sells what is left of the strategy amount after filled rungs, not the whole wallet', async () => {
    const s = await po('execution: local\ntake_profit:\n  - { at: "+20%", sell: "50%" }\nstop_loss: { at: "-10%" }\n');
    const state: StrategyState = { filledRules: new Set(['take_profit[0]']), handled: new Set(['take_profit[0]/g0']), armedAmount: 100_000_000_000n };
    // The wallet holds 100 SOL; the strategy manages 10, of which the rung sold 5.
    const d = decidePriceOrder(
      s,
      state,
      snapshot({
        sol: '130',
        balances: new Map([
          [SOL_MINT, 100_000_000_000n],
          [USDC_MINT, 0n],
        ]),
      }),
      T0,
    );
    expect(brief(d.intents)).toEqual([{ kind: 'swap', rule: 'stop_loss', amount: 5_000_000_000n }]);
    // Less held than that: what is held.
    const low = decidePriceOrder(
      s,
      state,
      snapshot({
        sol: '130',
        balances: new Map([
          [SOL_MINT, 2_000_000_000n],
          [USDC_MINT, 0n],
        ]),
      }),
      T0,
    );
    expect(brief(low.intents)).toEqual([{ kind: 'swap', rule: 'stop_loss', amount: 2_000_000_000n }]);
  });
});
