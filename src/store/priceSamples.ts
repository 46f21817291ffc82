/** `price_samples`: the polled prices, one per token per sampling interval (migration 0004). */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

export interface PriceSample {
  readonly mint: string;
  /** Start of the sampling interval, epoch ms. */
  readonly at: number;
  /** Dollars per token, decimal text. */
  readonly usd: string;
}

/**
 * Keeps each price as the sample of the interval `at` falls in, unless that interval already has
 * one (the first price polled in it stays). Returns how many were new.
 */
export function recordPriceSamples(db: Db, prices: readonly { readonly mint: string; readonly usd: string }[], at: number, everyMs: number): number {
  const start = Math.floor(at / everyMs) * everyMs;
  const insert = statement(db, 'INSERT OR IGNORE INTO price_samples (mint, at, usd) VALUES (?, ?, ?)');
  return db.transaction(() => prices.reduce((n, p) => n + insert.run(p.mint, start, p.usd).changes, 0))();
}

/** Deletes the samples older than `before` (epoch ms); returns how many. */
export function prunePriceSamples(db: Db, before: number): number {
  return statement(db, 'DELETE FROM price_samples WHERE at < ?').run(before).changes;
}

const SampleRow = z.object({ mint: z.string(), at: z.number().int(), usd: z.string() });

/** Samples in [since, until), by time then mint; `mints` narrows to those tokens. */
export function listPriceSamples(
  db: Db,
  filter: { since?: number | undefined; until?: number | undefined; mints?: readonly string[] | undefined } = {},
): PriceSample[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.since !== undefined) {
    where.push('at >= ?');
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    where.push('at < ?');
    params.push(filter.until);
  }
  if (filter.mints !== undefined) {
    where.push(`mint IN (${filter.mints.map(() => '?').join(', ') || "''"})`);
    params.push(...filter.mints);
  }
  const sql = `SELECT mint, at, usd FROM price_samples ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at, mint`;
  return parseRows(SampleRow, db.prepare(sql).all(...params), 'price samples');
}

/**
 * Each token's newest kept price, the interval starting before `before` when given (the sample's
 * `at` is its interval's start). One row per mint.
 */
export function latestPriceSamples(db: Db, before?: number): PriceSample[] {
  // SQLite gives a bare column the values of the row max() picked: the newest sample's price.
  const sql = `SELECT mint, max(at) AS at, usd FROM price_samples ${before === undefined ? '' : 'WHERE at < ?'} GROUP BY mint ORDER BY mint`;
  return parseRows(SampleRow, db.prepare(sql).all(...(before === undefined ? [] : [before])), 'latest price samples');
}
