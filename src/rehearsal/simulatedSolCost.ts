/**
 * The SOL a judged transaction would cost the wallet when its answer declares no network fee (a
 * prediction build, whose fees Jupiter's payer pays): what the simulation shows leaving the wallet in
 * SOL (rent for an account it opens, a fee refund), never negative. Without a simulation, the most
 * the guard would have let it cost, a bound rather than a guess.
 */
import type { CheckedSummary } from '../solana/guardedSigner.js';
import { SOL_MINT } from '../solana/programIds.js';

export function simulatedSolCost(summary: CheckedSummary): bigint {
  if (summary.effects === null) return summary.solBudgetLamports;
  const delta = summary.effects.deltas[SOL_MINT];
  const change = delta === undefined ? 0n : BigInt(delta);
  return change < 0n ? -change : 0n;
}
