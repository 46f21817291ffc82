import type { DcaSpec } from './dcaSchema.js';
import type { PredictionExitSpec } from './predictionExitSchema.js';
import type { PriceOrderSpec } from './priceOrderSchema.js';
import type { StrategyLimits } from './strategyLimits.js';
import type { StrategySpec } from './strategySchema.js';
import type { ResolvedToken, TokenRole } from './tokenResolution.js';

/** A strategy ready to run: its checked spec, its resolved tokens and its version identity. */
export interface LoadedStrategy<S extends StrategySpec = StrategySpec> {
  readonly name: string;
  readonly file: string;
  /** sha256 of the file text: the version every intent of this strategy carries. */
  readonly hash: string;
  readonly text: string;
  readonly spec: S;
  readonly tokens: Readonly<Partial<Record<TokenRole, ResolvedToken>>>;
  /** The config's limits the file was checked against (strategyLimits.ts). */
  readonly limits: StrategyLimits;
}

export type LoadedPriceOrder = LoadedStrategy<PriceOrderSpec>;
export type LoadedDca = LoadedStrategy<DcaSpec>;
export type LoadedPredictionExit = LoadedStrategy<PredictionExitSpec>;

/** The token in `role`; the loader guarantees it for the kind, so a miss is a programming error. */
export function tokenOf(strategy: LoadedStrategy, role: TokenRole): ResolvedToken {
  const token = strategy.tokens[role];
  if (!token) throw new Error(`strategy ${strategy.name} has no resolved ${role} token`);
  return token;
}
