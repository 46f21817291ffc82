/**
 * The price moves that keep the crash test's flows going: a seeded random walk of SOL and JUP in
 * steps of a few percent (more than the strategies' 1–3 % levels, so each step can fire something),
 * held inside a band so the run never drifts somewhere nothing triggers.
 */
import type { Random } from '../../../src/random.js';
import type { SimControl } from '../../../src/sim/control.js';
import { SOL_MINT } from '../../../src/sim/programIds.js';

export const SOL = SOL_MINT;
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

interface Walk {
  readonly mint: string;
  readonly low: number;
  readonly high: number;
}

const WALKS: readonly Walk[] = [
  { mint: SOL, low: 130, high: 180 },
  { mint: JUP, low: 0.65, high: 0.95 },
];

/** One step of every walk: ±4 %, reflected back into its band. */
export function stepPrices(control: SimControl, random: Random): void {
  for (const walk of WALKS) {
    const change = (random.next() * 2 - 1) * 0.04;
    let next = control.price(walk.mint) * (1 + change);
    if (next > walk.high || next < walk.low) next = control.price(walk.mint) * (1 - change);
    control.setPrice(walk.mint, next);
  }
}

/** Prices where neither local exit fires (SOL under its $168 take-profit, JUP over its $0.72 stop). */
export function settlePrices(control: SimControl): void {
  control.setPrice(SOL, 150);
  control.setPrice(JUP, 0.8);
}
