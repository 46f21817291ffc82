import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { commonShape } from './commonSchema.js';
import { amountSchema, percentSchema, priceLevelSchema, tokenRefSchema, usdPriceSchema } from './strategyFields.js';

const DAY = 86_400_000;
const durationMeta = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h|d))+$' } as const;

/** Slippage in basis points, as Trigger V2 and `/swap/v2` take it. */
const slippageBps = (description: string) => z.int().min(0).max(10_000).optional().meta({ description });

const rungSchema = z.strictObject({
  at: priceLevelSchema(),
  sell: amountSchema().prefault('100%').meta({ description: 'share of the armed amount ("25%") or whole tokens' }),
  slippage_bps: slippageBps(
    "slippage in bps of this rung's take-profit: its OCO's tpSlippageBps, its single order's slippageBps, its local swap (default slippage_bps)",
  ),
});

/**
 * `price-order`: take-profit ladders, a stop loss or a trailing stop on a token held, as
 * Trigger V2 vault orders (single / OCO / OTOCO / trailingBps) or watched locally and swapped.
 */
export const priceOrderSchema = z.strictObject({
  ...commonShape,
  kind: z.literal('price-order'),
  sell: tokenRefSchema.meta({ description: 'the token held and sold by the exits' }),
  receive: tokenRefSchema.default('USDC').meta({ description: 'the token received (default USDC)' }),
  amount: amountSchema().meta({ description: 'how much of `sell` the exits cover: "2.5" tokens or "50%" of the balance at arming' }),
  execution: z.enum(['vault', 'local']).default('vault').meta({ description: 'vault: Trigger V2 orders; local: the daemon watches and swaps' }),
  reference_price_usd: usdPriceSchema().optional().meta({ description: 'price that "+20%" / "-10%" are relative to (default: entry or price at arming)' }),
  entry: z
    .strictObject({
      buy_below: usdPriceSchema(),
      spend: amountSchema().meta({ description: 'amount of `receive` to spend on the entry' }),
      slippage_bps: slippageBps("slippage in bps of the entry's buy: the OTOCO's own slippageBps (default slippage_bps)"),
    })
    .optional()
    .meta({ description: 'buy first (OTOCO): when the price falls below buy_below, then arm take_profit and stop_loss' }),
  take_profit: z.array(rungSchema).min(1).max(20).optional().meta({ description: 'ladder of take-profit rungs, lowest first' }),
  stop_loss: z
    .strictObject({
      at: priceLevelSchema(),
      slippage_bps: slippageBps(
        "slippage in bps of the stop: every OCO's and the OTOCO's slSlippageBps, the stop's own order, its local swap (default slippage_bps)",
      ),
    })
    .optional(),
  trailing_stop: z
    .strictObject({
      distance: percentSchema({ min: '0.5', max: '90' }).meta({ description: 'trail this far below the peak, 0.5% to 90%' }),
      mode: z
        .enum(['vault', 'ratchet'])
        .default('vault')
        .meta({ description: "vault: the order's own trailingBps; ratchet: a stop the daemon raises by PATCH" }),
      ratchet_step: percentSchema({ max: '50' }).prefault('0.5%').meta({ description: 'raise the ratchet stop only when it moves at least this much' }),
      slippage_bps: slippageBps("slippage in bps of the trailing stop's order or local swap (default slippage_bps)"),
    })
    .optional(),
  expires_after: durationSchema({ min: 3_600_000, max: 365 * DAY })
    .default(7 * DAY)
    .meta({ ...durationMeta, description: 'lifetime of each vault order (default 7d)' }),
  renew_before: durationSchema({ min: 60_000 })
    .default(3_600_000)
    .meta({ ...durationMeta, description: 'renew a vault order this long before it expires (default 1h)' }),
  rearm: z.boolean().default(false).meta({ description: 'after every exit has filled, arm again on the new balance' }),
  slippage_bps: slippageBps(
    "slippage in bps of every order, leg and swap whose rule sets none; unset: the config's vault slippage cap for vault orders, the swap cap for swaps",
  ),
});

export type PriceOrderSpec = z.output<typeof priceOrderSchema>;
export type TakeProfitRung = PriceOrderSpec['take_profit'] extends readonly (infer R)[] | undefined ? R : never;
