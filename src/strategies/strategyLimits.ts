/**
 * What the operator's config bounds in every strategy. Checked when a file loads, so `jupbot
 * validate` and a hot reload name the line that asks for more, and carried by the loaded strategy
 * for decide(), which stays pure.
 */
import { type DocPath, formatPath } from '../config/diagnostics.js';
import { DEFAULTS } from '../config/schema.js';
import type { RuleFinding } from './strategyRules.js';
import type { StrategySpec } from './strategySchema.js';

export interface StrategyLimits {
  /** The most slippage (bps) a vault price order, or any leg of one, may carry; also what a vault order carries when its strategy sets none. */
  readonly maxVaultSlippageBps: number;
  /** The config key that set it, for messages. */
  readonly vaultSlippageKey: 'guard.max_vault_slippage_bps' | 'guard.max_slippage_bps';
}

/** The limits a config's `guard` section sets: `max_vault_slippage_bps`, else `max_slippage_bps`. */
export function strategyLimits(guard: { readonly max_slippage_bps: number; readonly max_vault_slippage_bps?: number | undefined }): StrategyLimits {
  return guard.max_vault_slippage_bps === undefined
    ? { maxVaultSlippageBps: guard.max_slippage_bps, vaultSlippageKey: 'guard.max_slippage_bps' }
    : { maxVaultSlippageBps: guard.max_vault_slippage_bps, vaultSlippageKey: 'guard.max_vault_slippage_bps' };
}

/** The limits of a config that sets none of them. */
export const DEFAULT_STRATEGY_LIMITS: StrategyLimits = strategyLimits({ max_slippage_bps: DEFAULTS.maxSlippageBps });

/**
 * Every slippage a vault price-order writes above the cap, at the value that asks for it. Refused,
 * not lowered: a vault order's slippage is all that bounds its fill (no transaction of ours carries
 * it for the guard to check), and a stop quietly given less than its author asked for may not fill
 * in the very crash it is for. Local swaps are bounded per transaction by the guard instead.
 */
export function limitFindings(spec: StrategySpec, limits: StrategyLimits): RuleFinding[] {
  if (spec.kind !== 'price-order' || spec.execution !== 'vault') return [];
  const asks: [DocPath, number | undefined][] = [
    [['slippage_bps'], spec.slippage_bps],
    [['entry', 'slippage_bps'], spec.entry?.slippage_bps],
    ...(spec.take_profit ?? []).map((rung, i): [DocPath, number | undefined] => [['take_profit', i, 'slippage_bps'], rung.slippage_bps]),
    [['stop_loss', 'slippage_bps'], spec.stop_loss?.slippage_bps],
    [['trailing_stop', 'slippage_bps'], spec.trailing_stop?.slippage_bps],
  ];
  return asks.flatMap(([path, bps]) =>
    bps !== undefined && bps > limits.maxVaultSlippageBps
      ? [
          {
            path,
            message: `${formatPath(path)} (${bps}) is above ${limits.vaultSlippageKey} (${limits.maxVaultSlippageBps}), the most slippage a vault order may carry: lower it, or raise the cap in the config`,
          },
        ]
      : [],
  );
}
