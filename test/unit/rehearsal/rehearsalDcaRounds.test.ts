/** The rounds of a rehearsed DCA order, as Trigger V2 schedules them. */
import { describe, expect, it } from 'vitest';
import { dcaStep, retryWindowMs, roundMissed } from '../../../src/rehearsal/rehearsalDcaRounds.js';
import type { DcaSchedule } from '../../../src/rehearsal/rehearsalOrderStore.js';
import { parseFixed } from '../../../src/money/decimal.js';

const T = Date.UTC(2026, 10, 2, 8, 0);
const schedule = (fields: Partial<DcaSchedule> = {}): DcaSchedule => ({
  orderCount: 3,
  intervalSeconds: 3600,
  nextFillAt: T,
  roundsFilled: 0,
  minPriceUsd: null,
  maxPriceUsd: null,
  ...fields,
});
const timeBased = { orderType: 'time_based', inputAmount: 100n, remaining: 100n };

describe('dcaStep', () => {
  it('is due at its time, not before, and sells inputAmount / orderCount', () => {
    expect(dcaStep(timeBased, schedule(), T - 1, undefined)).toEqual({ kind: 'wait' });
    expect(dcaStep(timeBased, schedule(), T, undefined)).toEqual({ kind: 'round', round: 1, amount: 33n });
  });

  it('gives the last round whatever is left, dust included', () => {
    expect(dcaStep({ ...timeBased, remaining: 34n }, schedule({ roundsFilled: 2 }), T, undefined)).toEqual({ kind: 'round', round: 3, amount: 34n });
  });

  it('waits when nothing is left', () => {
    expect(dcaStep({ ...timeBased, remaining: 0n }, schedule(), T, undefined)).toEqual({ kind: 'wait' });
  });

  it('skips a price-conditional round out of bounds by one interval, and waits without a price', () => {
    const conditional = { ...timeBased, orderType: 'price_conditional' };
    const bounded = schedule({ minPriceUsd: '0.5', maxPriceUsd: '1' });
    expect(dcaStep(conditional, bounded, T, parseFixed('1.01'))).toMatchObject({ kind: 'skip', nextFillAt: T + 3_600_000 });
    expect(dcaStep(conditional, bounded, T, parseFixed('0.49'))).toMatchObject({ kind: 'skip' });
    expect(dcaStep(conditional, bounded, T, parseFixed('1'))).toMatchObject({ kind: 'round', round: 1 });
    expect(dcaStep(conditional, bounded, T, undefined)).toEqual({ kind: 'wait' });
  });
});

describe('the retry window', () => {
  it('is half the interval, between 30 s and 2 h', () => {
    expect(retryWindowMs(60)).toBe(30_000);
    expect(retryWindowMs(3600)).toBe(1_800_000);
    expect(retryWindowMs(86_400)).toBe(7_200_000);
    expect(roundMissed(schedule(), T + 1_799_999)).toBe(false);
    expect(roundMissed(schedule(), T + 1_800_000)).toBe(true);
  });
});
