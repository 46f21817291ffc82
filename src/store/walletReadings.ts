/**
 * The wallet's recorded balances: `wallet.balances` actions (docs/audit.md), one per reading that
 * differed from the one before. The first tells what the wallet held before jupbot traded; the last
 * is what a restart compares a new reading with, so an unchanged wallet writes nothing new.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRow } from './parseRows.js';
import { statement } from './statementCache.js';

export const WALLET_BALANCES_KIND = 'wallet.balances';

/** One mint the wallet holds: base units, never zero in a recorded reading. */
export interface WalletBalance {
  readonly mint: string;
  readonly decimals: number;
  readonly amount: bigint;
}

export interface WalletReading {
  /** The action's id and time. */
  readonly id: number;
  readonly at: number;
  /** When the read began (the balances feed's `readAt`). */
  readonly readAt: number;
  /** Sorted by mint. */
  readonly balances: readonly WalletBalance[];
}

const Data = z.object({
  balances: z.array(z.object({ mint: z.string(), decimals: z.number().int().min(0).max(255), amount: z.string().regex(/^\d+$/) })),
  readAt: z.number().int(),
});
const Row = z.object({ id: z.number().int(), at: z.number().int(), data: z.string() });

/** A recorded reading, or null when its data does not read as one (a database changed by hand: verify names it). */
function reading(row: z.output<typeof Row>): WalletReading | null {
  let json: unknown;
  try {
    json = JSON.parse(row.data);
  } catch {
    return null;
  }
  const data = Data.safeParse(json);
  if (!data.success) return null;
  return {
    id: row.id,
    at: row.at,
    readAt: data.data.readAt,
    balances: data.data.balances.map((b) => ({ mint: b.mint, decimals: b.decimals, amount: BigInt(b.amount) })),
  };
}

/** The first readable reading in `order`: one that does not read is passed over, never a crash of the figures. */
function firstReadable(db: Db, order: 'ASC' | 'DESC'): WalletReading | null {
  for (const raw of statement(db, `SELECT id, at, data FROM actions WHERE kind = ? ORDER BY id ${order}`).iterate(WALLET_BALANCES_KIND)) {
    const found = reading(parseRow(Row, raw, 'wallet.balances action'));
    if (found !== null) return found;
  }
  return null;
}

/** The newest recorded reading, or null. Reads back from the end of the log: it is near there. */
export function lastWalletReading(db: Db): WalletReading | null {
  return firstReadable(db, 'DESC');
}

/** The first recorded reading: what the wallet held when jupbot first read it. */
export function firstWalletReading(db: Db): WalletReading | null {
  return firstReadable(db, 'ASC');
}

/** The reading as the action's data: every mint held (none at zero), sorted by mint, amounts as base-unit text. */
export function walletBalancesData(balances: readonly WalletBalance[], readAt: number): { balances: Record<string, unknown>[]; readAt: number } {
  return {
    balances: balances.map((b) => ({ mint: b.mint, decimals: b.decimals, amount: b.amount.toString() })),
    readAt,
  };
}
