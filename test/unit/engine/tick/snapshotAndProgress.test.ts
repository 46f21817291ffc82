import { describe, expect, it } from 'vitest';
import type { Balances } from '../../../../src/engine/feeds/balances.js';
import type { FeedState } from '../../../../src/engine/feeds/poller.js';
import type { TokenPrice } from '../../../../src/jupiter/tokens.js';
import { buildSnapshot, usdFixed } from '../../../../src/engine/tick/buildSnapshot.js';
import { strategyProgress } from '../../../../src/engine/tick/strategyProgress.js';
import { triggerOf } from '../../../../src/engine/executor/attempts.js';
import type { IntentRow } from '../../../../src/store/journal.js';
import { SOL_MINT, USDC_MINT, usd } from '../../strategies/helpers.js';

const T = Date.UTC(2026, 0, 1, 12);

function feed<T>(value: T | undefined, over: Partial<FeedState<T>> = {}): FeedState<T> {
  return {
    name: 'f',
    value,
    at: value === undefined ? null : T,
    readNo: value === undefined ? null : 1,
    ageMs: value === undefined ? null : 0,
    lastError: null,
    consecutiveFailures: 0,
    fresh: value !== undefined,
    intervalMs: 10_000,
    polling: false,
    paused: null,
    ...over,
  };
}

const price = (mint: string, usdPrice: number | null): [string, TokenPrice] => [mint, { mint, symbol: 'X', decimals: 9, usdPrice, priceBlockId: null }];
const balances = (readAt = T): Balances => ({ readAt, byMint: new Map([[SOL_MINT, 5n]]), decimals: new Map([[SOL_MINT, 9]]) });

describe('buildSnapshot', () => {
  it('has no snapshot without fresh balances, or with balances read before the last swap', () => {
    const prices = feed(new Map([price(SOL_MINT, 150)]));
    expect(buildSnapshot({ prices, balances: feed<Balances>(undefined) })).toEqual({ ok: false, reason: 'wallet balances not read yet' });
    expect(buildSnapshot({ prices, balances: feed(balances(), { fresh: false, ageMs: 45_000 }) })).toEqual({
      ok: false,
      reason: 'wallet balances are stale (45s old)',
    });
    // Poll 3 began before the swap ended (pollSoon() then said 3 polls had begun); poll 4 after it.
    expect(buildSnapshot({ prices, balances: feed(balances(), { readNo: 3 }) }, 3)).toEqual({
      ok: false,
      reason: 'wallet balances not read again since the last swap',
    });
    expect(buildSnapshot({ prices, balances: feed(balances(), { readNo: 4 }) }, 3).ok).toBe(true);
  });

  it('stamps prices with the poll that read them and leaves out what it cannot price', () => {
    const prices = feed(new Map([price(SOL_MINT, 150.25), price(USDC_MINT, null), price('JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', Number.NaN)]), {
      at: T - 130_000,
    });
    const built = buildSnapshot({ prices, balances: feed(balances()) });
    if (!built.ok) throw new Error(built.reason);
    expect([...built.snapshot.prices]).toEqual([[SOL_MINT, { usd: usd('150.25'), at: T - 130_000 }]]);
    expect(built.snapshot.balances.get(SOL_MINT)).toBe(5n);
    expect(built.snapshot.vaultOrders.size).toBe(0);
    expect(built.snapshot.tradingActive).toBeNull();
    expect(usdFixed(0)).toBeUndefined();
    expect(usdFixed(1e-7)).toBe(usd('0.0000001'));
  });
});

function row(over: Partial<IntentRow>): IntentRow {
  return {
    id: '',
    strategy: 's',
    strategyVersion: null,
    rule: null,
    kind: 'swap',
    params: {},
    state: 'planned',
    signedTx: null,
    signature: null,
    blockhash: null,
    lastValidBlockHeight: null,
    requestId: null,
    depositRequestId: null,
    cancelRequestId: null,
    orderId: null,
    attempts: 0,
    errorCode: null,
    errorMessage: null,
    createdAt: T,
    updatedAt: T,
    ...over,
  };
}

describe('strategyProgress', () => {
  it('reads the trigger back with the row’s own strategy and rule', () => {
    expect(triggerOf({ id: 'a/b/abcdefabcdef/run/2026-01-01T12:05:00.000Z', strategy: 'a/b', rule: 'run' })).toBe('2026-01-01T12:05:00.000Z');
    expect(triggerOf({ id: 's/abcdefabcdef/take_profit[0]/g1', strategy: 's', rule: 'take_profit[0]' })).toBe('g1');
    expect(triggerOf({ id: 'other/abcdefabcdef/run/x', strategy: 's', rule: 'run' })).toBeNull();
  });

  it('handled, generation, filled rules, the last run and today’s notional come from the journal', () => {
    const swap = { inputMint: SOL_MINT, inputDecimals: 9, amount: '2000000000' };
    const rows = [
      row({ id: 's/abcdefabcdef/take_profit[0]/g0', rule: 'take_profit[0]', state: 'confirmed', params: swap, createdAt: T - 86_400_000 }),
      row({ id: 's/abcdefabcdef/take_profit[0]/g1', rule: 'take_profit[0]', state: 'confirmed', params: swap }),
      row({ id: 's/abcdefabcdef/stop_loss/g1', rule: 'stop_loss', state: 'failed', params: swap }),
      row({ id: 's/abcdefabcdef/run/2026-01-01T09:00:00.000Z', rule: 'run', state: 'sent', params: swap }),
    ];
    const progress = strategyProgress(rows, T, (mint) => (mint === SOL_MINT ? usd('150') : undefined));
    expect([...progress.handled].sort()).toEqual(['run/2026-01-01T09:00:00.000Z', 'take_profit[0]/g0', 'take_profit[0]/g1']);
    expect(progress.generation).toBe(1);
    expect([...progress.filledRules]).toEqual(['take_profit[0]']);
    expect(progress.lastScheduledRun).toBe(Date.UTC(2026, 0, 1, 9));
    // Two swaps of 2 SOL today (the failed one and yesterday's do not count), at $150 now.
    expect(progress.notional).toEqual({ day: Math.floor(T / 86_400_000), usedUsd: usd('600') });
  });

  it('a vault rule is filled when its order fills, not when it is placed; a renewal’s replacement counts in its generation', () => {
    const placed = row({ id: 's/abcdefabcdef/stop_loss/g0', kind: 'place-vault-order', rule: 'stop_loss', state: 'confirmed' });
    const renewed = row({
      id: 's/abcdefabcdef/take_profit[0]/renew:o1@99#place',
      kind: 'place-vault-order',
      rule: 'take_profit[0]',
      state: 'confirmed',
      createdAt: T + 1,
    });
    const tp = row({ id: 's/abcdefabcdef/take_profit[0]/g0', kind: 'place-vault-order', rule: 'take_profit[0]', state: 'confirmed' });
    expect([...strategyProgress([placed, tp, renewed], T, () => undefined).filledRules]).toEqual([]);
    expect([...strategyProgress([placed, tp, renewed], T, () => undefined, new Set([placed.id, renewed.id])).filledRules].sort()).toEqual([
      'stop_loss',
      'take_profit[0]',
    ]);
  });

  it('a placement whose orders all ended unfilled no longer handles its slot', () => {
    const placed = row({ id: 's/abcdefabcdef/stop_loss/g0', kind: 'place-vault-order', rule: 'stop_loss', state: 'confirmed' });
    expect([...strategyProgress([placed], T, () => undefined).handled]).toEqual(['stop_loss/g0']);
    expect([...strategyProgress([placed], T, () => undefined, new Set(), new Set([placed.id])).handled]).toEqual([]);
  });
});
