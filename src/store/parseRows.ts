/**
 * Rows read back through a schema, never cast: SQLite hands back what the file holds, and a damaged
 * database, a hand edit or a newer schema must fail with the query's name and the column at fault
 * rather than flow on as a wrongly typed value.
 */
import type { z } from 'zod';
import { StoreError } from './errors.js';

/** Every row of a query result, parsed; `query` names the query in the error. */
export function parseRows<S extends z.ZodType>(schema: S, rows: readonly unknown[], query: string): z.output<S>[] {
  return rows.map((row) => parseRow(schema, row, query));
}

/** One row, parsed. */
export function parseRow<S extends z.ZodType>(schema: S, row: unknown, query: string): z.output<S> {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
  throw new StoreError('STORE_ROW_INVALID', `a ${query} row does not parse: ${issues}`, { details: { query } });
}

/** The row of a query that returns at most one, parsed, or undefined when there is none. */
export function parseOptionalRow<S extends z.ZodType>(schema: S, row: unknown, query: string): z.output<S> | undefined {
  return row === undefined ? undefined : parseRow(schema, row, query);
}
