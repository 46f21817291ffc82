/**
 * Small exact helpers of the protections: the config's decimal text as fixed-point, a share as a
 * percent, and whether the fills changed since the exits were last walked (so a feed read that
 * brought no fill costs one indexed query, not a walk over the whole history).
 */
import { z } from 'zod';
import { divFixed, type Fixed, ONE, parseFixed } from '../money/decimal.js';
import type { Db } from '../store/db.js';
import { parseRow } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';

/** Decimal text the schema already checked ("250", "12.5") as fixed-point. */
export function dollars(text: string): Fixed {
  const value = parseFixed(text);
  if (value === undefined) throw new Error(`not a decimal: ${text}`);
  return value;
}

/** `part` as a percent of `whole` (fixed-point: 15% is 15 × ONE). `whole` must not be 0. */
export function percentOf(part: Fixed, whole: Fixed): Fixed {
  return divFixed(part * 100n, whole);
}

/** A percent or dollar figure for people, two places: 16.666… → "16.67". */
export function twoPlaces(value: Fixed): string {
  const cents = (value + (value < 0n ? -1n : 1n) * (ONE / 200n)) / (ONE / 100n);
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

const VersionRow = z.object({ n: z.number().int(), last: z.number().int() });

/** How many fills there are and the newest row id: a change in either means the exits must be walked again. */
export class FillsVersion {
  readonly #db: Db;
  #seen: string | null = null;

  constructor(db: Db) {
    this.#db = db;
  }

  /** True the first time and whenever `fills` changed since the last call. */
  changed(): boolean {
    const row = parseRow(VersionRow, statement(this.#db, 'SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM fills').get(), 'fills version');
    const key = `${row.n}/${row.last}`;
    if (key === this.#seen) return false;
    this.#seen = key;
    return true;
  }
}
