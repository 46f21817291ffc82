/**
 * A database written before rows were sealed: the upgrade lists its rows, the first audit log opened
 * for writing seals them once in `audit.sealed` actions, and the database verifies. An `audit.sealed`
 * that comes after rows were already sealed as written is how rows slipped in would look: named.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { openDatabase } from '../../../src/store/db.js';
import { insertFill } from '../../../src/store/fills.js';
import { migrate } from '../../../src/store/migrate.js';
import { defaultMigrationsDir } from '../../../src/store/migrationFiles.js';
import { tempDir, track } from './helpers.js';

/** A database at schema 8 (before sealing) with an intent and a fill written as that version did. */
function olderDatabase(): { file: string; clock: ManualClock } {
  const dir = join(tempDir(), 'migrations');
  mkdirSync(dir);
  for (const name of readdirSync(defaultMigrationsDir).filter((n) => n < '0009'))
    writeFileSync(join(dir, name), readFileSync(join(defaultMigrationsDir, name)));
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const db = track(openDatabase(file, { synchronous: 'NORMAL' }));
  expect(migrate(db, { clock, dir }).version).toBe(8);
  const audit = new AuditLog(db, clock);
  db.prepare(`INSERT INTO intents (id, strategy, kind, params, state, created_at, updated_at) VALUES ('old', 's', 'swap', '{}', 'confirmed', 1, 1)`).run();
  audit.append({ kind: 'intent.planned', intentId: 'old', data: {} });
  insertFill(
    db,
    { signature: 'sig-old', idx: 0, source: 'swap', inMint: USDC_MINT, inAmount: '1', inDecimals: 6, outMint: SOL_MINT, outAmount: '2', outDecimals: 9, at: 1 },
    1,
  );
  audit.append({ kind: 'fill', data: {} });
  db.close();
  return { file, clock };
}

describe('rows written before sealing', () => {
  it('are sealed once by the first writer after the upgrade, and the database verifies', () => {
    const { file, clock } = olderDatabase();
    const db = track(openDatabase(file));
    migrate(db, { clock });
    expect(verifyAuditChain(db).rows?.first?.reason).toBe('row_unsealed');
    new AuditLog(db, clock);
    const sealed = db.prepare("SELECT data FROM actions WHERE kind = 'audit.sealed'").all() as { data: string }[];
    expect(sealed).toHaveLength(1);
    expect(JSON.parse(sealed[0]?.data ?? '{}')).toMatchObject({
      rows: 2,
      sealed: [
        { table: 'fills', key: '1' },
        { table: 'intents', key: 'old' },
      ],
    });
    expect(db.prepare('SELECT count(*) AS n FROM unsealed_rows').get()).toEqual({ n: 0 });
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, rows: { ok: true, checked: { fills: 1, intents: 1, trigger_orders: 0 } } });
    // Opening again writes nothing more.
    new AuditLog(db, clock);
    expect(db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'audit.sealed'").get()).toEqual({ n: 1 });
  });

  it('names an audit.sealed that comes after rows were sealed as written: rows slipped in to be sealed', () => {
    const { file, clock } = olderDatabase();
    const db = track(openDatabase(file));
    migrate(db, { clock });
    const audit = new AuditLog(db, clock);
    db.prepare(`INSERT INTO intents (id, strategy, kind, params, state, created_at, updated_at) VALUES ('new', 's', 'swap', '{}', 'planned', 2, 2)`).run();
    audit.append({ kind: 'intent.planned', intentId: 'new', data: {}, seal: [{ table: 'intents', key: 'new' }] });
    // The tamperer's row, listed as if it predated sealing, then a restart.
    db.prepare(
      `INSERT INTO intents (id, strategy, kind, params, state, created_at, updated_at) VALUES ('slipped', 's', 'swap', '{}', 'confirmed', 3, 3)`,
    ).run();
    db.prepare(`INSERT INTO unsealed_rows (tbl, key) VALUES ('intents', 'slipped')`).run();
    new AuditLog(db, clock);
    const result = verifyAuditChain(db);
    expect(result.ok).toBe(false);
    expect(result.rows?.first).toMatchObject({ reason: 'sealed_late', table: 'intents', key: 'slipped' });
  });
});
