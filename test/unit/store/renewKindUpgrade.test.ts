/**
 * Renewals journaled the old way (a `cancel-vault-order` row carrying its replacement under `then`)
 * get their own kind when the database is upgraded (migration 0011). The rows are sealed by the
 * chain, so the upgrade must say what it changed: the first audit log opened for writing records an
 * `intent.rekinded` action per row, naming both kinds and sealing the row as it now is, once. The
 * upgraded database verifies; an edit afterwards is still caught, and so is one made before.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseVaultRenewParams } from '../../../src/engine/executor/vault/renewVaultOrder.js';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { openDatabase } from '../../../src/store/db.js';
import { migrate } from '../../../src/store/migrate.js';
import { defaultMigrationsDir } from '../../../src/store/migrationFiles.js';
import { tempDir, track } from './helpers.js';

const RENEWAL = 'tp-sol/cdcdcdcdcdcd/take_profit[0]/renew:ord-1@1767830400000';
const CANCEL = 'tp-sol/cdcdcdcdcdcd/take_profit[1]/orphan:ord-2';

const renewalParams = {
  orderId: 'ord-1',
  family: 'price',
  then: {
    params: { inputMint: 'So11111111111111111111111111111111111111112', inputAmount: '1000000000', expiresAt: 1768089600000 },
    reason: 'replaces order ord-1 before it expires',
  },
  strategyHash: 'cd'.repeat(32),
};
const cancelParams = { orderId: 'ord-2', family: 'price', strategyHash: 'cd'.repeat(32) };

/** The migrations up to `last` (inclusive), as a directory an older jupbot would have shipped. */
function migrationsUpTo(last: string): string {
  const dir = join(tempDir(), 'migrations');
  mkdirSync(dir);
  for (const name of readdirSync(defaultMigrationsDir).filter((n) => n.slice(0, 4) <= last))
    writeFileSync(join(dir, name), readFileSync(join(defaultMigrationsDir, name)));
  return dir;
}

/** Journals an intent as the older version did: the row, then its `intent.planned` sealing it (from 0009 on). */
function journal(db: ReturnType<typeof openDatabase>, audit: AuditLog, id: string, params: object, seal: boolean): void {
  db.prepare(
    `INSERT INTO intents (id, strategy, rule, kind, params, state, created_at, updated_at) VALUES (?, 'tp-sol', ?, 'cancel-vault-order', ?, 'planned', 1, 1)`,
  ).run(id, id.includes('[0]') ? 'take_profit[0]' : 'take_profit[1]', JSON.stringify(params));
  audit.append({
    kind: 'intent.planned',
    intentId: id,
    data: { kind: 'cancel-vault-order' },
    ...(seal ? { seal: [{ table: 'intents' as const, key: id }] } : {}),
  });
}

/** A database at schema `version` ('0010': rows sealed as written; '0008': before sealing) with a renewal and a plain cancel journaled the old way. */
function olderDatabase(version: '0010' | '0008', tamper?: (db: ReturnType<typeof openDatabase>) => void): { file: string; clock: ManualClock } {
  const dir = migrationsUpTo(version);
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const file = join(tempDir(), 'jupbot-live.sqlite');
  const db = track(openDatabase(file, { synchronous: 'NORMAL' }));
  expect(migrate(db, { clock, dir }).version).toBe(Number(version));
  const audit = new AuditLog(db, clock);
  const sealed = version === '0010';
  journal(db, audit, RENEWAL, renewalParams, sealed);
  journal(db, audit, CANCEL, cancelParams, sealed);
  tamper?.(db);
  db.close();
  return { file, clock };
}

const kindOf = (db: ReturnType<typeof openDatabase>, id: string): unknown =>
  (db.prepare('SELECT kind FROM intents WHERE id = ?').get(id) as { kind: string }).kind;

const rekinded = (db: ReturnType<typeof openDatabase>): { intent_id: string; data: Record<string, unknown> }[] =>
  (db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'intent.rekinded' ORDER BY id").all() as { intent_id: string; data: string }[]).map((a) => ({
    intent_id: a.intent_id,
    data: JSON.parse(a.data) as Record<string, unknown>,
  }));

describe('renewals journaled as cancels, upgraded', () => {
  it('are re-kinded, the chain records each change once with the new seal, and the database verifies', () => {
    const { file, clock } = olderDatabase('0010');
    const db = track(openDatabase(file));
    expect(migrate(db, { clock }).applied).toEqual([11, 12]);
    expect(kindOf(db, RENEWAL)).toBe('renew-vault-order');
    // A plain cancel carries no replacement: it stays a cancel.
    expect(kindOf(db, CANCEL)).toBe('cancel-vault-order');
    // Until the change is recorded, the chain sees an edited row.
    expect(verifyAuditChain(db).rows?.first).toMatchObject({ reason: 'row_changed', table: 'intents', key: RENEWAL });

    new AuditLog(db, clock);
    const [action, ...more] = rekinded(db);
    expect(more).toEqual([]);
    expect(action).toMatchObject({
      intent_id: RENEWAL,
      data: { from: 'cancel-vault-order', to: 'renew-vault-order', sealed: [{ table: 'intents', key: RENEWAL }] },
    });
    expect(action?.data).not.toHaveProperty('notSealed');
    expect(db.prepare('SELECT count(*) AS n FROM rekinded_rows').get()).toEqual({ n: 0 });
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, rows: { ok: true, checked: { intents: 2 } } });
    // The row reads as a renewal now: the renew handler takes it as it stands.
    const row = db.prepare('SELECT params FROM intents WHERE id = ?').get(RENEWAL) as { params: string };
    expect(parseVaultRenewParams(JSON.parse(row.params))).toMatchObject({ orderId: 'ord-1', then: { reason: 'replaces order ord-1 before it expires' } });

    // Opening again records nothing more.
    new AuditLog(db, clock);
    expect(rekinded(db)).toHaveLength(1);
  });

  it('an edit after the upgrade is still caught', () => {
    const { file, clock } = olderDatabase('0010');
    const db = track(openDatabase(file));
    migrate(db, { clock });
    new AuditLog(db, clock);
    expect(verifyAuditChain(db).ok).toBe(true);
    db.prepare("UPDATE intents SET error_message = 'edited' WHERE id = ?").run(RENEWAL);
    const result = verifyAuditChain(db);
    expect(result.ok).toBe(false);
    expect(result.rows?.first).toMatchObject({ reason: 'row_changed', table: 'intents', key: RENEWAL });
  });

  it('a row edited before the upgrade is not sealed again: the action says so, and verify still names the row', () => {
    const { file, clock } = olderDatabase('0010', (db) => db.prepare("UPDATE intents SET error_message = 'edited' WHERE id = ?").run(RENEWAL));
    const db = track(openDatabase(file));
    migrate(db, { clock });
    new AuditLog(db, clock);
    const [action] = rekinded(db);
    expect(action?.data).toMatchObject({ from: 'cancel-vault-order', to: 'renew-vault-order', notSealed: expect.any(String) as unknown });
    expect(action?.data).not.toHaveProperty('sealed');
    expect(verifyAuditChain(db).rows?.first).toMatchObject({ reason: 'row_changed', table: 'intents', key: RENEWAL });
  });

  it('a change of kind slipped into the list is not sealed again, even one that changes nothing else', () => {
    const { file, clock } = olderDatabase('0010');
    const db = track(openDatabase(file));
    migrate(db, { clock });
    // Someone with the file: the plain cancel (no replacement) made a renewal by its kind alone, and
    // listed as the migration lists rows, with the trigger that forbids it lifted for the edit.
    const trigger = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'intents_identity_immutable'").get() as { sql: string }).sql;
    db.exec('DROP TRIGGER intents_identity_immutable');
    db.prepare("UPDATE intents SET kind = 'renew-vault-order' WHERE id = ?").run(CANCEL);
    db.exec(trigger);
    db.prepare("INSERT INTO rekinded_rows (key, old_kind, new_kind) VALUES (?, 'cancel-vault-order', 'renew-vault-order')").run(CANCEL);
    new AuditLog(db, clock);
    const byId = new Map(rekinded(db).map((a) => [a.intent_id, a.data]));
    expect(byId.get(RENEWAL)).toHaveProperty('sealed');
    expect(byId.get(CANCEL)).toEqual({
      from: 'cancel-vault-order',
      to: 'renew-vault-order',
      reason: 'journaled under its own kind from this version',
      notSealed: 'not a renewal journaled as a cancel: no upgrade changes this kind',
    });
    expect(verifyAuditChain(db).rows?.first).toMatchObject({ reason: 'row_changed', table: 'intents', key: CANCEL });
  });

  it('a database from before sealing: sealed once as it now is, the change still recorded, and it verifies', () => {
    const { file, clock } = olderDatabase('0008');
    const db = track(openDatabase(file));
    expect(migrate(db, { clock }).applied).toEqual([9, 10, 11, 12]);
    new AuditLog(db, clock);
    const kinds = (db.prepare("SELECT kind FROM actions WHERE kind IN ('audit.sealed', 'intent.rekinded') ORDER BY id").all() as { kind: string }[]).map(
      (a) => a.kind,
    );
    // The one-time seal first (as `audit verify` requires of it), then the recorded change.
    expect(kinds).toEqual(['audit.sealed', 'intent.rekinded']);
    expect(rekinded(db)[0]).toMatchObject({ intent_id: RENEWAL, data: { from: 'cancel-vault-order', to: 'renew-vault-order' } });
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, rows: { ok: true } });
  });
});
