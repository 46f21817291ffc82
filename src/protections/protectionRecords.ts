/**
 * What the protections keep in the database (migration 0013): the equity peak `max_drawdown` is
 * measured from, and every trip with its clearing. The database, not the daemon's memory, is where
 * a trip is active: a clear written by another process (`jupbot resume` while the daemon runs) is
 * seen by the daemon at its next evaluation.
 *
 * `clearProtection` is the one way a trip is cleared, by the daemon (a day boundary, a cooldown's
 * end, exposure back under its limit) or by an operator; it writes `protection.cleared` with the
 * clearing in the same transaction.
 */
import { z } from 'zod';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { parseOptionalRow, parseRows } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';
import { readSinceJournalChange } from '../store/tableVersions.js';
import { LIVE_ORDER_SQL } from '../store/triggerOrders.js';
import { PAUSES, PROTECTION_NAMES, type Pauses, type ProtectionName } from './protectionsSchema.js';

/** The peak's row name for account equity. */
const EQUITY = 'equity';

export interface TripRecord {
  readonly name: ProtectionName;
  readonly since: number;
  readonly pauses: Pauses;
  /** The figures the trip recorded (limit, figure, inputs). */
  readonly data: Record<string, unknown>;
  readonly clearedAt: number | null;
  readonly clearedBy: string | null;
}

const TripRow = z.object({
  name: z.enum(PROTECTION_NAMES),
  since: z.number().int(),
  pauses: z.enum(PAUSES),
  data: z.string(),
  cleared_at: z.number().int().nullable(),
  cleared_by: z.string().nullable(),
});

const toRecord = (row: z.output<typeof TripRow>): TripRecord => ({
  name: row.name,
  since: row.since,
  pauses: row.pauses,
  data: JSON.parse(row.data) as Record<string, unknown>,
  clearedAt: row.cleared_at,
  clearedBy: row.cleared_by,
});

/** The trips not cleared, one per protection at most (the oldest first). */
export function activeTrips(db: Db): TripRecord[] {
  const rows = statement(db, 'SELECT name, since, pauses, data, cleared_at, cleared_by FROM protection_trips WHERE cleared_at IS NULL ORDER BY since').all();
  return parseRows(TripRow, rows, 'active protection trips').map(toRecord);
}

/** The trip of `name` that began at or after `from`, active or cleared (the newest), if any. */
export function tripSince(db: Db, name: ProtectionName, from: number): TripRecord | undefined {
  const row = statement(
    db,
    'SELECT name, since, pauses, data, cleared_at, cleared_by FROM protection_trips WHERE name = ? AND since >= ? ORDER BY since DESC LIMIT 1',
  ).get(name, from);
  const parsed = parseOptionalRow(TripRow, row, 'protection trip');
  return parsed && toRecord(parsed);
}

/**
 * Records a trip and its `protection.tripped` action together; false (and nothing written) when
 * that trip (`name` at `since`) is already recorded.
 */
export function recordTrip(db: Db, audit: AuditLog, trip: { name: ProtectionName; since: number; pauses: Pauses; data: Record<string, unknown> }): boolean {
  return db.transaction(() => {
    const inserted = statement(db, 'INSERT OR IGNORE INTO protection_trips (name, since, pauses, data) VALUES (?, ?, ?, ?)').run(
      trip.name,
      trip.since,
      trip.pauses,
      JSON.stringify(trip.data),
    );
    if (inserted.changes === 0) return false;
    audit.append({ kind: 'protection.tripped', data: { name: trip.name, pauses: trip.pauses, ...trip.data } });
    return true;
  })();
}

/**
 * Clears the active trip of `name`: `by` says who or what (an operator's name, `day boundary`,
 * `cooldown over`, `under limit`), `reason` why. A cleared `max_drawdown` forgets the equity peak
 * too: the next reading starts a new one (without that the same drop would trip again at once).
 * `since` picks one trip when two of a kind are active (a second cooldown); without it the oldest is
 * cleared. Returns the trip cleared, or null when none was active. For `jupbot resume` as much as for the daemon.
 */
/** Clears every active trip (an operator's `jupbot resume --protections`), each with its `protection.cleared`; returns their names. */
export function clearEveryTrip(db: Db, audit: AuditLog, clear: { at: number; by: string; reason: string }): ProtectionName[] {
  return db.transaction(() =>
    activeTrips(db).flatMap((trip) => (clearProtection(db, audit, trip.name, { ...clear, since: trip.since }) === null ? [] : [trip.name])),
  )();
}

export function clearProtection(
  db: Db,
  audit: AuditLog,
  name: ProtectionName,
  clear: { at: number; by: string; reason: string; since?: number | undefined },
): TripRecord | null {
  return db.transaction(() => {
    const active = activeTrips(db).find((t) => t.name === name && (clear.since === undefined || t.since === clear.since));
    if (active === undefined) return null;
    statement(db, 'UPDATE protection_trips SET cleared_at = ?, cleared_by = ? WHERE name = ? AND since = ?').run(clear.at, clear.by, name, active.since);
    if (name === 'max_drawdown') statement(db, 'DELETE FROM protection_peaks WHERE name = ?').run(EQUITY);
    audit.append({ kind: 'protection.cleared', data: { name, by: clear.by, reason: clear.reason, trippedAt: active.since } });
    return { ...active, clearedAt: clear.at, clearedBy: clear.by };
  })();
}

const PeakRow = z.object({ usd: z.string(), at: z.number().int() });

/** The equity peak kept, or undefined before the first reading (or after a drawdown's clear). */
export function equityPeak(db: Db): { usd: string; at: number } | undefined {
  return parseOptionalRow(PeakRow, statement(db, 'SELECT usd, at FROM protection_peaks WHERE name = ?').get(EQUITY), 'equity peak');
}

/** Keeps `usd` (decimal text) as the new equity peak. */
export function saveEquityPeak(db: Db, usd: string, at: number): void {
  statement(db, 'INSERT INTO protection_peaks (name, usd, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET usd = excluded.usd, at = excluded.at').run(
    EQUITY,
    usd,
    at,
  );
}

const DepositRow = z.object({ mint: z.string(), decimals: z.number().int(), amount: z.string() });

/**
 * What our vault orders that may still fill hold: each placing intent's deposit once (an OCO's two
 * legs share one), less what fills took from it. Orders adopted from elsewhere are not counted.
 */
export function openDeposits(db: Db): { mint: string; decimals: number; units: bigint }[] {
  const sql = `
  SELECT o.input_mint AS mint, o.input_decimals AS decimals, coalesce(o.remaining_input_amount, o.input_amount) AS amount
  FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
  WHERE o.adopted = 0 AND o.state IN (${LIVE_ORDER_SQL})`;
  return readSinceJournalChange(db, 'protections: open deposits', () =>
    parseRows(DepositRow, statement(db, sql).all(), 'open vault deposits').map((r) => ({ mint: r.mint, decimals: r.decimals, units: BigInt(r.amount) })),
  );
}

const KeptRow = z.object({ usd: z.string() });

/** The newest price kept for `mint` (`price_samples`, decimal text), or undefined when none was. */
export function keptPrice(db: Db, mint: string): string | undefined {
  return parseOptionalRow(KeptRow, statement(db, 'SELECT usd FROM price_samples WHERE mint = ? ORDER BY at DESC LIMIT 1').get(mint), 'kept price')?.usd;
}
