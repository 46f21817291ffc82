import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { decidePriceOrder } from '../../../src/strategies/decidePriceOrder.js';
import type { Intent } from '../../../src/strategies/intents.js';
import type { LoadedPriceOrder } from '../../../src/strategies/loadedStrategy.js';
import { loadStrategyFile } from '../../../src/strategies/loadStrategies.js';
import type { VaultOrderView } from '../../../src/strategies/snapshot.js';
import { DEFAULT_STRATEGY_LIMITS, strategyLimits, type StrategyLimits } from '../../../src/strategies/strategyLimits.js';
import { load, snapshot, T0 } from './helpers.js';

const HOUR = 3_600_000;
const base = 'name: po\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "10"\nreference_price_usd: "150"\n';
const po = (extra: string, limits = DEFAULT_STRATEGY_LIMITS): Promise<LoadedPriceOrder> => load<LoadedPriceOrder>(base + extra, 's.yaml', limits);

/** Each placement's rule, type and every slippage field it carries (absent fields left out). */
function slippageOf(intents: readonly Intent[]): unknown[] {
  return intents.flatMap((i): unknown[] => {
    if (i.kind === 'place-vault-order') {
      const { orderType, slippageBps, tpSlippageBps, slSlippageBps } = i.order;
      return [{ rule: i.key.rule, orderType, slippageBps, tpSlippageBps, slSlippageBps }];
    }
    if (i.kind === 'swap') return [{ rule: i.key.rule, swap: i.slippageBps }];
    return [];
  });
}

const LADDER =
  'take_profit:\n  - { at: "+20%", sell: "50%", slippage_bps: 40 }\n  - { at: "+40%", sell: "30%" }\nstop_loss: { at: "-10%", slippage_bps: 150 }\n';

describe('vault orders carry each leg’s slippage', () => {
  it("gives every OCO both legs' slippage (the rung's and the stop's, else slippage_bps) and the lone stop its own", async () => {
    const s = await po(`${LADDER}slippage_bps: 60\n`);
    expect(slippageOf(decidePriceOrder(s, {}, snapshot(), T0).intents)).toEqual([
      { rule: 'take_profit[0]', orderType: 'oco', slippageBps: undefined, tpSlippageBps: 40, slSlippageBps: 150 },
      { rule: 'take_profit[1]', orderType: 'oco', slippageBps: undefined, tpSlippageBps: 60, slSlippageBps: 150 },
      { rule: 'stop_loss', orderType: 'single', slippageBps: 150, tpSlippageBps: undefined, slSlippageBps: undefined },
    ]);
  });

  it("gives an OTOCO its buy's slippage and both legs': entry, the rung and the stop, each defaulting to slippage_bps", async () => {
    const s = await po(
      'entry: { buy_below: "140", spend: "100", slippage_bps: 30 }\ntake_profit:\n  - { at: "160" }\nstop_loss: { at: "120", slippage_bps: 200 }\nslippage_bps: 70\n',
    );
    expect(slippageOf(decidePriceOrder(s, {}, snapshot(), T0).intents)).toEqual([
      { rule: 'entry', orderType: 'otoco', slippageBps: 30, tpSlippageBps: 70, slSlippageBps: 200 },
    ]);
  });

  it("gives every order and leg the config's vault cap when the strategy sets no slippage at all", async () => {
    const limits = strategyLimits({ max_slippage_bps: 300, max_vault_slippage_bps: 250 });
    const ladder = await po('take_profit:\n  - { at: "+20%", sell: "50%" }\nstop_loss: { at: "-10%" }\n', limits);
    expect(slippageOf(decidePriceOrder(ladder, {}, snapshot(), T0).intents)).toEqual([
      { rule: 'take_profit[0]', orderType: 'oco', slippageBps: undefined, tpSlippageBps: 250, slSlippageBps: 250 },
      { rule: 'stop_loss', orderType: 'single', slippageBps: 250, tpSlippageBps: undefined, slSlippageBps: undefined },
    ]);
    const entry = await po('entry: { buy_below: "140", spend: "100" }\ntake_profit:\n  - { at: "160" }\nstop_loss: { at: "120" }\n');
    expect(slippageOf(decidePriceOrder(entry, {}, snapshot(), T0).intents)).toEqual([
      { rule: 'entry', orderType: 'otoco', slippageBps: 300, tpSlippageBps: 300, slSlippageBps: 300 },
    ]);
    const trailing = await po('trailing_stop: { distance: "5%", slippage_bps: 90 }\n');
    expect(slippageOf(decidePriceOrder(trailing, {}, snapshot(), T0).intents)).toEqual([
      { rule: 'trailing_stop', orderType: 'single', slippageBps: 90, tpSlippageBps: undefined, slSlippageBps: undefined },
    ]);
  });

  it("swaps a local exit with its rule's slippage, else slippage_bps, else none (the swap cap applies)", async () => {
    const s = await po(`execution: local\n${LADDER}`);
    const down = snapshot({ sol: '130' });
    expect(slippageOf(decidePriceOrder(s, {}, down, T0).intents)).toEqual([{ rule: 'stop_loss', swap: 150 }]);
    const up = snapshot({ sol: '215' });
    expect(slippageOf(decidePriceOrder(s, {}, up, T0).intents)).toEqual([
      { rule: 'take_profit[0]', swap: 40 },
      { rule: 'take_profit[1]', swap: undefined },
    ]);
  });
});

describe('the vault slippage cap, at load', () => {
  const tight: StrategyLimits = strategyLimits({ max_slippage_bps: 300, max_vault_slippage_bps: 100 });
  const text = `${base}take_profit:\n  - at: "+20%"\n    slippage_bps: 150\nstop_loss:\n  at: "-10%"\n  slippage_bps: 100\n`;

  it('refuses a vault strategy asking more than the cap, at the value that asks, naming the key that set the cap', async () => {
    const outcome = await loadStrategyFile({ file: 's.yaml', text }, paperTokenSearch, { get: () => undefined }, tight);
    expect(outcome.strategy).toBeUndefined();
    expect(outcome.diagnostics.map(formatDiagnostic)).toEqual([
      's.yaml:9:19: take_profit[0].slippage_bps (150) is above guard.max_vault_slippage_bps (100), the most slippage a vault order may carry: lower it, or raise the cap in the config',
    ]);
    const inherited = await loadStrategyFile(
      { file: 's.yaml', text: `${base}stop_loss: { at: "-10%" }\nslippage_bps: 301\n` },
      paperTokenSearch,
      { get: () => undefined },
      DEFAULT_STRATEGY_LIMITS,
    );
    expect(inherited.diagnostics.map(formatDiagnostic)).toEqual([
      's.yaml:8:15: slippage_bps (301) is above guard.max_slippage_bps (300), the most slippage a vault order may carry: lower it, or raise the cap in the config',
    ]);
  });

  it('loads the same numbers at the cap, and in a local strategy (whose swaps the guard caps one by one)', async () => {
    const atCap = await loadStrategyFile({ file: 's.yaml', text }, paperTokenSearch, { get: () => undefined }, strategyLimits({ max_slippage_bps: 150 }));
    expect(atCap.diagnostics).toEqual([]);
    const local = await loadStrategyFile({ file: 's.yaml', text: `${text}execution: local\n` }, paperTokenSearch, { get: () => undefined }, tight);
    expect(local.diagnostics).toEqual([]);
    expect(local.strategy?.limits).toEqual({ maxVaultSlippageBps: 100, vaultSlippageKey: 'guard.max_vault_slippage_bps' });
  });
});

describe('a live order whose slippage is not what its rule asks for now', () => {
  const live = (over: Partial<VaultOrderView>): VaultOrderView => ({
    id: 'ord-1',
    rule: 'take_profit[0]',
    family: 'price',
    orderType: 'oco',
    state: 'open',
    expiresAt: T0 + 5 * 24 * HOUR,
    triggerPriceUsd: null,
    trailingBps: null,
    inputAmount: 10_000_000_000n,
    ...over,
  });
  const ONE_OCO = 'take_profit:\n  - { at: "+20%", slippage_bps: 40 }\nstop_loss: { at: "-10%", slippage_bps: 150 }\n';

  it('is PATCHed to it: only the fields that differ, once per order and strategy version', async () => {
    const s = await po(ONE_OCO);
    // Placed before its legs carried their own: Jupiter's defaults rule them.
    const legacy = live({ slippage: { slippageBps: 50, tpSlippageBps: null, slSlippageBps: null } });
    const d = decidePriceOrder(s, {}, snapshot({ vaultOrders: new Map([['po', [legacy]]]) }), T0);
    expect(d.intents).toHaveLength(1);
    const patch = d.intents[0];
    expect(patch).toMatchObject({
      kind: 'patch-vault-order',
      orderId: 'ord-1',
      orderType: 'oco',
      tpSlippageBps: 40,
      slSlippageBps: 150,
      key: { rule: 'take_profit[0]', trigger: `slippage:ord-1@${s.hash.slice(0, 12)}` },
      evidence: { previous_tpSlippageBps: null, previous_slSlippageBps: null },
    });
    expect(patch?.kind === 'patch-vault-order' && 'slippageBps' in patch).toBe(false);
    expect(patch?.reason).toBe(
      "take profit on 100% of the position when SOL reaches $180 (stop at $135): give order ord-1 the slippage its rule asks for (tpSlippageBps Jupiter's default → 40, slSlippageBps Jupiter's default → 150)",
    );

    const edited = live({ slippage: { slippageBps: null, tpSlippageBps: 40, slSlippageBps: 300 } });
    const once = decidePriceOrder(s, {}, snapshot({ vaultOrders: new Map([['po', [edited]]]) }), T0).intents;
    expect(once.map((i) => i.kind === 'patch-vault-order' && [i.tpSlippageBps, i.slSlippageBps])).toEqual([[undefined, 150]]);
    const handled = new Set([`take_profit[0]/slippage:ord-1@${s.hash.slice(0, 12)}`]);
    expect(decidePriceOrder(s, { handled }, snapshot({ vaultOrders: new Map([['po', [edited]]]) }), T0).intents).toEqual([]);
  });

  it('is left alone when it has it, is not open yet, is not known, or is of another type than the rule now builds', async () => {
    const s = await po(ONE_OCO);
    const cases = [
      live({ slippage: { slippageBps: null, tpSlippageBps: 40, slSlippageBps: 150 } }),
      live({ state: 'pending', slippage: { slippageBps: null, tpSlippageBps: null, slSlippageBps: null } }),
      live({}),
      live({ orderType: 'single', slippage: { slippageBps: 10, tpSlippageBps: null, slSlippageBps: null } }),
    ];
    for (const view of cases) expect(decidePriceOrder(s, {}, snapshot({ vaultOrders: new Map([['po', [view]]]) }), T0).intents).toEqual([]);
  });
});
