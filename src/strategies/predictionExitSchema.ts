import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { commonShape } from './commonSchema.js';
import { percentSchema, usdPriceSchema } from './strategyFields.js';

const durationMeta = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h|d))+$' } as const;

const scoreSchema = z
  .strictObject({
    lead_at_least: z.int().min(1).optional().meta({ description: 'the side held leads by at least this many points' }),
    deficit_at_least: z.int().min(1).optional().meta({ description: 'the side held trails by at least this many points' }),
    period_at_least: z
      .int()
      .min(1)
      .optional()
      .meta({ description: 'the game is in this period or later, as its sport counts (halves, quarters, periods, maps; overtime continues the count)' }),
    elapsed_at_least: durationSchema()
      .optional()
      .meta({
        ...durationMeta,
        description: "at least this much of the current period is played (a countdown clock's time left is taken from the period's length)",
      }),
  })
  .meta({ description: 'live score conditions, all of which must hold' });

const whenSchema = z
  .strictObject({
    sell_price_at_least: usdPriceSchema().optional().meta({ description: 'sell price per contract at least this (USD, 0 to 1)' }),
    sell_price_at_most: usdPriceSchema().optional().meta({ description: 'sell price per contract at most this (USD, 0 to 1)' }),
    trailing_from_peak: percentSchema({ max: '100' }).optional().meta({ description: 'sell price fell this far below its peak' }),
    before_close: durationSchema()
      .optional()
      .meta({ ...durationMeta, description: 'the market closes within this time' }),
    score: scoreSchema.optional(),
  })
  .meta({ description: 'conditions, all of which must hold' });

const ruleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { error: 'must be 1 to 40 lower-case letters, digits, "-" or "_" (e.g. take-profit)' }),
  when: whenSchema,
  action: z.enum(['sell', 'sell_part']).default('sell'),
  share: percentSchema({ max: '100' }).optional().meta({ description: 'share of the contracts sold by sell_part' }),
});

/** `prediction-exit`: rules over open prediction positions, then a claim once settled. */
export const predictionExitSchema = z.strictObject({
  ...commonShape,
  kind: z.literal('prediction-exit'),
  positions: z
    .strictObject({
      market: z.string().min(1).optional().meta({ description: 'market id' }),
      event: z.string().min(1).optional().meta({ description: 'event id (every market of the event)' }),
      side: z.enum(['yes', 'no', 'any']).default('any'),
    })
    .meta({ description: 'which open positions the rules manage' }),
  yes_team: z.enum(['home', 'away']).default('home').meta({ description: 'the team a YES position backs, for score conditions' }),
  rules: z.array(ruleSchema).max(50).default([]),
  claim_when_settled: z.boolean().default(true),
  require_trading_active: z.boolean().default(true).meta({ description: 'hold every sell while /trading-status says trading is off' }),
});

export type PredictionExitSpec = z.output<typeof predictionExitSchema>;
export type PredictionRule = PredictionExitSpec['rules'][number];
