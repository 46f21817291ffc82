import { z } from 'zod';
import { dcaSchema } from './dcaSchema.js';
import { predictionExitSchema } from './predictionExitSchema.js';
import { priceOrderSchema } from './priceOrderSchema.js';

/** One strategy file: the kind picks the grammar. */
export const strategySchema = z.discriminatedUnion('kind', [priceOrderSchema, dcaSchema, predictionExitSchema]);

export type StrategySpec = z.output<typeof strategySchema>;
export type StrategyKind = StrategySpec['kind'];
export const STRATEGY_KINDS: readonly StrategyKind[] = ['price-order', 'dca', 'prediction-exit'];
