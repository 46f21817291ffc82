/**
 * What the wallet held before jupbot traded it, and at what cost (docs/audit.md, "Cost basis").
 *
 * - Held before: the first `wallet.balances` reading of the database. A token jupbot had already
 *   recorded a fill of before that reading is left out (a database older than the readings: its
 *   balance then holds what strategies bought, which their own lots count). Dollars are left out
 *   too: they are what P&L is counted in.
 * - Basis: an operator's `basis.set` (the latest for the token) overrides the default, the first
 *   dollar price the daemon saw for it (`basis.observed`). A token with neither has no known cost.
 */
import type { Db } from '../store/db.js';
import { BASIS_SET_KIND, type BasisRecord, listBasisRecords } from '../store/basisRecords.js';
import { firstFillRecorded } from '../store/fillRecords.js';
import { firstWalletReading, type WalletBalance } from '../store/walletReadings.js';
import { type Fixed, formatFixed, parseFixedRounded } from '../money/decimal.js';
import { type TokenNamer, USD_MINTS } from './tokenNames.js';

export type BasisSource = 'first-price' | 'operator';

export interface Basis {
  readonly source: BasisSource;
  /** Dollars per token. */
  readonly priceUsd: Fixed;
  /** When the price was seen, or the instant the operator gave it. */
  readonly at: number;
}

/** Units of one token the wallet held before jupbot, with their basis: what sales beyond a strategy's lots draw on. */
export interface PreHeld {
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly units: bigint;
  readonly basis: Basis;
}

/** The first reading's balances that count as held before jupbot, with that reading's time; null before any reading. */
export function heldBeforeJupbot(db: Db): { readonly id: number; readonly readAt: number; readonly balances: readonly WalletBalance[] } | null {
  const first = firstWalletReading(db);
  if (first === null) return null;
  const traded = firstFillRecorded(db);
  const balances = first.balances.filter((b) => !USD_MINTS.has(b.mint) && !((traded.get(b.mint) ?? Number.POSITIVE_INFINITY) < first.at));
  return { id: first.id, readAt: first.readAt, balances };
}

/** A basis with the action that recorded it. */
export type RecordedBasis = Basis & { readonly record: BasisRecord };

/** Each token's basis from the basis actions: the operator's latest, else the first price seen. */
export function basisByMint(records: readonly BasisRecord[]): Map<string, RecordedBasis> {
  const out = new Map<string, RecordedBasis>();
  for (const record of records) {
    const had = out.get(record.mint);
    const operator = record.kind === BASIS_SET_KIND;
    // Records come oldest first: an operator's replaces anything before it, a first price only fills a gap.
    if (had !== undefined && !operator) continue;
    const priceUsd = parseFixedRounded(record.priceUsd);
    if (priceUsd === undefined) continue;
    out.set(record.mint, { source: operator ? 'operator' : 'first-price', priceUsd, at: record.at, record });
  }
  return out;
}

/** The pre-held pool P&L draws on: every token held before jupbot that has a basis. */
export function preHeldLots(db: Db, name: TokenNamer): PreHeld[] {
  const held = heldBeforeJupbot(db);
  if (held === null) return [];
  const basis = basisByMint(listBasisRecords(db));
  return held.balances.flatMap((b) => {
    const known = basis.get(b.mint);
    return known === undefined
      ? []
      : [
          {
            mint: b.mint,
            symbol: name(b.mint),
            decimals: b.decimals,
            units: b.amount,
            basis: { source: known.source, priceUsd: known.priceUsd, at: known.at },
          },
        ];
  });
}

/** A basis as JSON: `{ source, priceUsd, at }`, the price exact decimal text, the time ISO. */
export function basisJson(basis: Basis): { source: BasisSource; priceUsd: string; at: string } {
  return { source: basis.source, priceUsd: formatFixed(basis.priceUsd), at: new Date(basis.at).toISOString() };
}
