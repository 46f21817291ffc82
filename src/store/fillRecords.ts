/** The `fills` table as the auditor's commands read it: each fill with the intent and strategy version behind it. */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';

const Digits = z.string().regex(/^\d+$/);

const FillRow = z.object({
  id: z.number().int(),
  signature: z.string(),
  idx: z.number().int(),
  source: z.enum(['swap', 'trigger', 'dca', 'prediction']),
  strategy: z.string().nullable(),
  strategy_version: z.number().int().nullable(),
  intent_id: z.string().nullable(),
  trigger_order_id: z.string().nullable(),
  in_mint: z.string(),
  in_amount: Digits,
  in_decimals: z.number().int(),
  out_mint: z.string(),
  out_amount: Digits,
  out_decimals: z.number().int(),
  fee_mint: z.string().nullable(),
  fee_amount: Digits.nullable(),
  fee_decimals: z.number().int().nullable(),
  at: z.number().int(),
});
export type FillRecord = z.output<typeof FillRow>;

export interface FillFilter {
  /** At or after, epoch ms. */
  readonly since?: number | undefined;
  /** Before, epoch ms. */
  readonly until?: number | undefined;
  readonly strategy?: string | undefined;
  /** Fills with this mint on either leg. */
  readonly mint?: string | undefined;
}

/** Fills matching `filter`, oldest first (ties in recording order). */
export function listFills(db: Db, filter: FillFilter = {}): FillRecord[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const when = (clause: string, ...values: (string | number)[]): void => {
    where.push(clause);
    params.push(...values);
  };
  if (filter.since !== undefined) when('f.at >= ?', filter.since);
  if (filter.until !== undefined) when('f.at < ?', filter.until);
  if (filter.strategy !== undefined) when('f.strategy = ?', filter.strategy);
  if (filter.mint !== undefined) when('(f.in_mint = ? OR f.out_mint = ?)', filter.mint, filter.mint);
  const sql = `SELECT f.id, f.signature, f.idx, f.source, f.strategy, i.strategy_version, f.intent_id, f.trigger_order_id, f.in_mint, f.in_amount,
                      f.in_decimals, f.out_mint, f.out_amount, f.out_decimals, f.fee_mint, f.fee_amount, f.fee_decimals, f.at
               FROM fills f LEFT JOIN intents i ON i.id = f.intent_id
               ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY f.at, f.id`;
  return parseRows(FillRow, db.prepare(sql).all(...params), 'fills');
}

const PinRow = z.object({ mint: z.string(), symbol: z.string(), decimals: z.number().int() });

/** Every symbol a strategy pinned, by mint (the first pin of a mint wins). */
export function pinnedSymbols(db: Db): Map<string, { readonly symbol: string; readonly decimals: number }> {
  const rows = parseRows(PinRow, db.prepare('SELECT mint, symbol, decimals FROM token_pins ORDER BY pinned_at, strategy, symbol').all(), 'token pins');
  const out = new Map<string, { symbol: string; decimals: number }>();
  for (const row of rows) if (!out.has(row.mint)) out.set(row.mint, { symbol: row.symbol, decimals: row.decimals });
  return out;
}

const FirstFillRow = z.object({ mint: z.string(), recorded_at: z.number().int() });

/** When jupbot first recorded a fill of each mint (either leg), by its clock. */
export function firstFillRecorded(db: Db): Map<string, number> {
  const sql = `SELECT mint, min(recorded_at) AS recorded_at
               FROM (SELECT in_mint AS mint, recorded_at FROM fills UNION ALL SELECT out_mint, recorded_at FROM fills) GROUP BY mint`;
  return new Map(parseRows(FirstFillRow, db.prepare(sql).all(), 'first fills').map((r) => [r.mint, r.recorded_at]));
}

const MintDecimalsRow = z.object({ mint: z.string(), decimals: z.number().int() });

/** Every mint a fill names (either leg), with its decimals. */
export function filledMints(db: Db): Map<string, number> {
  const sql = 'SELECT DISTINCT in_mint AS mint, in_decimals AS decimals FROM fills UNION SELECT DISTINCT out_mint, out_decimals FROM fills';
  return new Map(parseRows(MintDecimalsRow, db.prepare(sql).all(), 'filled mints').map((r) => [r.mint, r.decimals]));
}
