import { z } from 'zod';
import { percentSchema, strategyNameSchema, usdPriceSchema } from './strategyFields.js';

/** Limits the executor enforces on every order of a strategy; each is optional. */
export const riskSchema = z
  .strictObject({
    max_notional_per_order_usd: usdPriceSchema().optional().meta({ description: 'largest USD value of one order' }),
    max_notional_per_day_usd: usdPriceSchema().optional().meta({ description: 'largest USD value traded per UTC day' }),
    max_price_impact: percentSchema({ max: '100' }).optional().meta({ description: 'refuse a swap whose quote moves the price more than this' }),
    min_sell_price_usd: usdPriceSchema().optional().meta({ description: 'never sell below this USD price (per token, or per contract for prediction)' }),
    max_quote_deviation: percentSchema({ max: '50' })
      .optional()
      .meta({ description: "a local price rule trades only when the quote's price is within this of the feed's price that fired it (default 5%)" }),
  })
  .meta({ description: 'risk limits' });

export type Risk = z.output<typeof riskSchema>;

/** The keys every strategy file has, whatever its kind. */
export const commonShape = {
  name: strategyNameSchema,
  enabled: z.boolean().default(true).meta({ description: 'false keeps the file loaded but acts on nothing' }),
  on_remove: z
    .enum(['cancel', 'keep'])
    .default('cancel')
    .meta({ description: 'when the file is removed or enabled: false, its live vault and DCA orders are cancelled (cancel) or left working (keep)' }),
  description: z.string().max(500).optional(),
  allow_unverified: z.boolean().default(false).meta({ description: 'accept tokens that are unverified or flagged isSus' }),
  risk: riskSchema.optional(),
};
