/**
 * When a rehearsed price order fires, and the least it may fill for: Trigger V2's rules on the USD
 * price of the trigger mint, a trailing order's watermark, and the slippage held against the trigger.
 */
import { describe, expect, it } from 'vitest';
import type { RehearsalOrder, RehearsalRaw } from '../../../src/rehearsal/rehearsalOrderStore.js';
import { firedLeg, minimumOut, trailingAt } from '../../../src/rehearsal/rehearsalTriggers.js';
import { ONE, parseFixed } from '../../../src/money/decimal.js';
import { SOL, USDC } from './support/rehearsalDesk.js';

const usd = (text: string): bigint => parseFixed(text) ?? -1n;

function order(fields: Omit<Partial<RehearsalOrder>, 'raw'> & { raw?: Partial<RehearsalRaw> }): RehearsalOrder {
  const raw: RehearsalRaw = {
    rehearsal: true,
    note: '',
    intentId: 'i',
    rev: 0,
    phase: 'order',
    parentId: null,
    slippage: {},
    watermarkUsd: null,
    fills: 0,
    dca: null,
    sent: {},
    ...fields.raw,
  };
  const { raw: _raw, ...rest } = fields;
  return {
    id: 'o',
    intentId: 'i',
    strategy: 's',
    adopted: false,
    family: 'price',
    orderType: 'single',
    state: 'open',
    inputMint: SOL,
    inputDecimals: 9,
    outputMint: USDC,
    outputDecimals: 6,
    inputAmount: 1n,
    remaining: 1n,
    inputUsed: 0n,
    outputAmount: 0n,
    triggerMint: SOL,
    condition: null,
    triggerPriceUsd: null,
    tpPriceUsd: null,
    slPriceUsd: null,
    trailingBps: null,
    expiresAt: null,
    createdAt: 0,
    rawText: '',
    ...rest,
    raw,
  };
}

describe('firedLeg', () => {
  const oco = order({ orderType: 'oco', tpPriceUsd: '180', slPriceUsd: '135', raw: { slippage: { tpSlippageBps: 50, slSlippageBps: 100 } } });

  it('fires an OCO take-profit at or over it and its stop-loss at or under it, with the slippage of that leg; nothing between', () => {
    expect(firedLeg(oco, usd('180'))).toEqual({ leg: 'take_profit', triggerUsd: usd('180'), slippageBps: 50 });
    expect(firedLeg(oco, usd('135'))).toEqual({ leg: 'stop_loss', triggerUsd: usd('135'), slippageBps: 100 });
    expect(firedLeg(oco, usd('179.999'))).toBeNull();
    expect(firedLeg(oco, usd('135.001'))).toBeNull();
  });

  it('fires a single order in its direction only, and an OTOCO parent as a single until its children exist', () => {
    const above = order({ condition: 'above', triggerPriceUsd: '2', raw: { slippage: { slippageBps: 30 } } });
    expect(firedLeg(above, usd('2'))).toEqual({ leg: 'trigger', triggerUsd: usd('2'), slippageBps: 30 });
    expect(firedLeg(above, usd('1.99'))).toBeNull();
    const parent = order({ orderType: 'otoco', condition: 'below', triggerPriceUsd: '120', tpPriceUsd: '150', slPriceUsd: '100' });
    expect(firedLeg(parent, usd('151'))).toBeNull();
    expect(firedLeg(parent, usd('120'))?.leg).toBe('trigger');
    const children = order({
      orderType: 'otoco',
      condition: 'below',
      triggerPriceUsd: '120',
      tpPriceUsd: '150',
      slPriceUsd: '100',
      raw: { phase: 'children' },
    });
    expect(firedLeg(children, usd('151'))?.leg).toBe('take_profit');
    expect(firedLeg(children, usd('120'))).toBeNull();
  });

  it('holds a leg that carries no slippage to none', () => {
    expect(firedLeg(order({ orderType: 'oco', tpPriceUsd: '10', slPriceUsd: '5' }), usd('11'))?.slippageBps).toBe(0);
  });
});

describe('trailingAt', () => {
  it('keeps the highest price seen below, the lowest above, and the trigger that far from it', () => {
    const below = order({ condition: 'below', trailingBps: 1200 });
    expect(trailingAt(below, usd('100'))).toEqual({ watermarkUsd: usd('100'), triggerUsd: usd('88') });
    const seen = order({ condition: 'below', trailingBps: 1200, raw: { watermarkUsd: '110' } });
    expect(trailingAt(seen, usd('100'))).toEqual({ watermarkUsd: usd('110'), triggerUsd: usd('96.8') });
    expect(trailingAt(seen, usd('120'))?.watermarkUsd).toBe(usd('120'));
    const above = order({ condition: 'above', trailingBps: 500, raw: { watermarkUsd: '2' } });
    expect(trailingAt(above, usd('3'))).toEqual({ watermarkUsd: usd('2'), triggerUsd: usd('2.1') });
    expect(trailingAt(above, usd('1'))).toEqual({ watermarkUsd: ONE, triggerUsd: usd('1.05') });
    expect(trailingAt(order({ condition: 'below' }), usd('1'))).toBeNull();
  });
});

describe('minimumOut', () => {
  it('values a sale at the trigger and the output at the feed, less the slippage, rounded up', () => {
    const sell = order({ inputMint: SOL, outputMint: USDC, triggerMint: SOL });
    const leg = { leg: 'stop_loss', triggerUsd: usd('135'), slippageBps: 100 } as const;
    expect(minimumOut(sell, leg, 2_000_000_000n, () => ONE)).toBe(267_300_000n);
    // USDC at $0.99 makes each SOL worth more of it.
    expect(minimumOut(sell, leg, 2_000_000_000n, () => usd('0.99'))).toBe(270_000_000n);
    expect(minimumOut(sell, { ...leg, slippageBps: 0 }, 1n, () => ONE)).toBe(1n);
  });

  it('values a purchase of the trigger mint at the trigger, and is unknown without the other price', () => {
    const buy = order({ inputMint: USDC, inputDecimals: 6, outputMint: SOL, outputDecimals: 9, triggerMint: SOL });
    const leg = { leg: 'trigger', triggerUsd: usd('120'), slippageBps: 50 } as const;
    expect(minimumOut(buy, leg, 300_000_000n, () => ONE)).toBe(2_487_500_000n);
    expect(minimumOut(buy, leg, 300_000_000n, () => undefined)).toBeUndefined();
  });
});
