/**
 * The cost basis of what the wallet held before jupbot traded it, as the audit log records it:
 * `basis.observed` (the first dollar price the daemon saw for a token held at its first balances
 * reading, once per mint) and `basis.set` (an operator's price, `jupbot audit basis set`). Kept as
 * actions rather than read from `price_samples`, which are deleted after `history.keep`.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRow, parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

export const BASIS_OBSERVED_KIND = 'basis.observed';
export const BASIS_SET_KIND = 'basis.set';

export interface BasisRecord {
  readonly kind: typeof BASIS_OBSERVED_KIND | typeof BASIS_SET_KIND;
  /** The action's id and time (when it was recorded). */
  readonly id: number;
  readonly recordedAt: number;
  readonly mint: string;
  readonly decimals: number;
  /** Dollars per token, decimal text as recorded. */
  readonly priceUsd: string;
  /** When the price was seen (observed) or what instant the operator gave it (set). */
  readonly at: number;
  /** Base units held at the first balances reading (`basis.observed` only). */
  readonly units: bigint | null;
}

const Decimal = z.string().regex(/^\d+(\.\d+)?$/);
const Data = z.object({
  mint: z.string(),
  decimals: z.number().int().min(0).max(255),
  priceUsd: Decimal,
  at: z.number().int(),
  units: z.string().regex(/^\d+$/).optional(),
});
const Row = z.object({ id: z.number().int(), at: z.number().int(), kind: z.enum([BASIS_OBSERVED_KIND, BASIS_SET_KIND]), data: z.string() });

/** Every basis action, oldest first. */
export function listBasisRecords(db: Db): BasisRecord[] {
  const rows = parseRows(
    Row,
    statement(db, 'SELECT id, at, kind, data FROM actions WHERE kind IN (?, ?) ORDER BY id').all(BASIS_OBSERVED_KIND, BASIS_SET_KIND),
    'basis action',
  );
  return rows.map((row) => {
    const data = parseRow(Data, JSON.parse(row.data), `${row.kind} data`);
    return {
      kind: row.kind,
      id: row.id,
      recordedAt: row.at,
      mint: data.mint,
      decimals: data.decimals,
      priceUsd: data.priceUsd,
      at: data.at,
      units: data.units === undefined ? null : BigInt(data.units),
    };
  });
}

/**
 * The mints that have a `basis.observed` action, each observed once per database. `fromId`: none is
 * older than the first balances reading, so the search can start there.
 */
export function observedBasisMints(db: Db, fromId = 0): Set<string> {
  const rows = parseRows(
    z.object({ mint: z.string().nullable() }),
    statement(db, 'SELECT mint FROM actions WHERE id >= ? AND kind = ?').all(fromId, BASIS_OBSERVED_KIND),
    'basis.observed mints',
  );
  return new Set(rows.flatMap((r) => (r.mint === null ? [] : [r.mint])));
}
