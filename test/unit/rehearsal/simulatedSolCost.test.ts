import { describe, expect, it } from 'vitest';
import type { CheckedSummary } from '../../../src/solana/guardedSigner.js';
import { SOL_MINT } from '../../../src/solana/programIds.js';
import { simulatedSolCost } from '../../../src/rehearsal/simulatedSolCost.js';

const summary = (effects: CheckedSummary['effects'], budget = 9_000n): CheckedSummary => ({ solBudgetLamports: budget, effects }) as unknown as CheckedSummary;

describe('the SOL a judged prediction transaction costs the rehearsal', () => {
  it('is what the simulation shows leaving the wallet in SOL', () => {
    expect(simulatedSolCost(summary({ deltas: { [SOL_MINT]: '-2039280' }, accounts: [], unitsConsumed: null }))).toBe(2_039_280n);
  });

  it('is nothing when the simulation shows SOL arriving or untouched', () => {
    expect(simulatedSolCost(summary({ deltas: { [SOL_MINT]: '5000' }, accounts: [], unitsConsumed: null }))).toBe(0n);
    expect(simulatedSolCost(summary({ deltas: {}, accounts: [], unitsConsumed: null }))).toBe(0n);
  });

  it("is the guard's bound when there was no simulation", () => {
    expect(simulatedSolCost(summary(null, 12_345n))).toBe(12_345n);
  });
});
