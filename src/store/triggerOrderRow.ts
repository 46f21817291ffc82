/**
 * The columns of a `trigger_orders` row as SQLite returns them (docs/audit.md): the one schema the
 * read-only queries over the mirror pick their columns from, so a column's type is written once.
 */
import { z } from 'zod';

/** Base units: integer text (u64 exceeds 2^53). */
export const BaseUnits = z.string().regex(/^\d+$/);

export const TriggerOrderRow = z.object({
  id: z.string(),
  intent_id: z.string().nullable(),
  strategy: z.string().nullable(),
  adopted: z.union([z.literal(0), z.literal(1)]),
  family: z.enum(['price', 'dca']),
  order_type: z.string(),
  state: z.string(),
  input_mint: z.string(),
  input_decimals: z.number().int(),
  output_mint: z.string(),
  output_decimals: z.number().int(),
  input_amount: BaseUnits,
  remaining_input_amount: BaseUnits.nullable(),
  output_amount: BaseUnits.nullable(),
  trigger_mint: z.string().nullable(),
  trigger_condition: z.string().nullable(),
  trigger_price_usd: z.string().nullable(),
  tp_price_usd: z.string().nullable(),
  sl_price_usd: z.string().nullable(),
  trailing_bps: z.number().int().nullable(),
  expires_at: z.number().int().nullable(),
  deposit_signature: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
