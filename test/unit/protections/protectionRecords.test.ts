import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { activeTrips, clearProtection, equityPeak, keptPrice, recordTrip, saveEquityPeak, tripSince } from '../../../src/protections/protectionRecords.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { AuditLog } from '../../../src/store/audit.js';
import { freshStore } from '../store/helpers.js';

const kinds = (db: ReturnType<typeof freshStore>['db']): { kind: string; data: Record<string, unknown> }[] =>
  (db.prepare("SELECT kind, data FROM actions WHERE kind LIKE 'protection.%' ORDER BY id").all() as { kind: string; data: string }[]).map((r) => ({
    kind: r.kind,
    data: JSON.parse(r.data) as Record<string, unknown>,
  }));

describe('the protections’ records', () => {
  it('record a trip once, with its action; a clear ends it with its own action, and a drawdown’s clear forgets the peak', () => {
    const { db } = freshStore();
    const audit = new AuditLog(db, new ManualClock(1_000));
    saveEquityPeak(db, '812.5', 10);
    expect(equityPeak(db)).toEqual({ usd: '812.5', at: 10 });
    const trip = { name: 'max_drawdown' as const, since: 500, pauses: 'buying' as const, data: { limit: '10%', figure: '10.2%' } };
    expect(recordTrip(db, audit, trip)).toBe(true);
    expect(recordTrip(db, audit, trip)).toBe(false);
    expect(activeTrips(db)).toEqual([{ ...trip, clearedAt: null, clearedBy: null }]);

    expect(clearProtection(db, audit, 'max_drawdown', { at: 900, by: 'ops', reason: 'looked at it' })).toMatchObject({ clearedAt: 900, clearedBy: 'ops' });
    expect(clearProtection(db, audit, 'max_drawdown', { at: 901, by: 'ops', reason: 'again' })).toBeNull();
    expect(activeTrips(db)).toEqual([]);
    expect(tripSince(db, 'max_drawdown', 0)).toMatchObject({ since: 500, clearedAt: 900 });
    expect(equityPeak(db)).toBeUndefined();
    expect(kinds(db)).toEqual([
      { kind: 'protection.tripped', data: { name: 'max_drawdown', pauses: 'buying', limit: '10%', figure: '10.2%' } },
      { kind: 'protection.cleared', data: { name: 'max_drawdown', by: 'ops', reason: 'looked at it', trippedAt: 500 } },
    ]);
  });

  it('read a token’s newest kept price', () => {
    const { db } = freshStore();
    recordPriceSamples(db, [{ mint: 'M', usd: '1.5' }], 60_000, 60_000);
    recordPriceSamples(db, [{ mint: 'M', usd: '1.75' }], 180_000, 60_000);
    expect(keptPrice(db, 'M')).toBe('1.75');
    expect(keptPrice(db, 'N')).toBeUndefined();
  });
});
