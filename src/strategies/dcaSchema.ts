import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { commonShape } from './commonSchema.js';
import { amountSchema, cronSchema, timeZoneSchema, tokenRefSchema, usdPriceSchema } from './strategyFields.js';

const durationMeta = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h|d))+$' } as const;

/** `dca`: buy on a cron schedule (local swaps), or one Trigger V2 DCA order (vault). */
export const dcaSchema = z.strictObject({
  ...commonShape,
  kind: z.literal('dca'),
  buy: tokenRefSchema.meta({ description: 'the token bought' }),
  pay_with: tokenRefSchema.default('USDC').meta({ description: 'the token spent (default USDC)' }),
  amount: amountSchema().meta({ description: 'spent per run: "25" tokens of pay_with, or "10%" of its balance' }),
  execution: z.enum(['swap', 'vault']).default('swap').meta({ description: 'swap: a /swap/v2 swap at each run; vault: one Trigger V2 DCA order' }),
  schedule: z.strictObject({ cron: cronSchema, timezone: timeZoneSchema }).optional().meta({ description: 'when runs fall due (execution: swap)' }),
  catch_up: z
    .enum(['skip', 'run_once', 'run_all'])
    .default('skip')
    .meta({ description: 'runs missed while the daemon was down: skip them, run once, or run each' }),
  min_interval: durationSchema({ min: 1_000, max: 86_400_000 })
    .default(300_000)
    .meta({ ...durationMeta, description: 'execution: swap: the least time between runs the schedule may ask for (default 5m; lower it deliberately)' }),
  max_runs_per_day: z.int().min(1).max(86_400).default(48).meta({ description: 'execution: swap: the most runs in any 24 h, catch-up included (default 48)' }),
  on_time_within: durationSchema({ min: 1_000, max: 86_400_000 })
    .default(600_000)
    .meta({ ...durationMeta, description: 'a run this late still counts as on time (default 10m)' }),
  slippage_bps: z.int().min(0).max(10_000).optional(),
  vault: z
    .strictObject({
      orders: z.int().min(2).max(10_000).meta({ description: 'number of rounds (at least 2)' }),
      interval: durationSchema({ min: 60_000, max: 31_536_000_000 }).meta({ ...durationMeta, description: 'time between rounds, 60s to 365d' }),
      type: z.enum(['time_based', 'price_conditional']).default('time_based'),
      min_price_usd: usdPriceSchema().optional(),
      max_price_usd: usdPriceSchema().optional(),
    })
    .optional()
    .meta({ description: 'the Trigger V2 DCA order (execution: vault); amount is per round' }),
});

export type DcaSpec = z.output<typeof dcaSchema>;
