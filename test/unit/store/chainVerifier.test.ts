import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashActionRow, type ActionInput, type ActionRow } from '../../../src/store/actionRow.js';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import type { Db } from '../../../src/store/db.js';
import { freshStore } from './helpers.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** What the table check reports for a database with no fills, intents or orders. */
const NO_ROWS = { ok: true, checked: { fills: 0, intents: 0, trigger_orders: 0 }, differences: 0 };

/** A log of `n` varied actions, written partly one by one and partly in batches. */
function logOf(n: number): { db: Db; log: AuditLog } {
  const { db, clock } = freshStore();
  const log = new AuditLog(db, clock);
  const action = (i: number): ActionInput => ({
    kind: ['intent.planned', 'intent.signed', 'fill', 'guard.refused'][i % 4] ?? 'error',
    strategy: i % 3 === 0 ? null : `strategy-${i % 5}`,
    intentId: `intent-${Math.floor(i / 4)}`,
    mint: USDC,
    amount: BigInt(i) * 1_000_000n,
    decimals: 6,
    data: { i, note: i % 7 === 0 ? 'quote "with" \\ specials, €' : 'plain' },
  });
  let i = 0;
  while (i < n) {
    if (i % 100 < 50) {
      log.append(action(i));
      i += 1;
    } else {
      const size = Math.min(25, n - i);
      log.appendMany(Array.from({ length: size }, (_, k) => action(i + k)));
      i += size;
    }
    clock.setWallTime(clock.now() + 250);
  }
  return { db, log };
}

/** What a tamperer with the file does first: the append-only triggers do not stop them. */
function dropGuards(db: Db): void {
  db.exec('DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete; DROP TRIGGER actions_chain_link;');
}

function row(db: Db, id: number): ActionRow {
  return db.prepare('SELECT * FROM actions WHERE id = ?').get(id) as ActionRow;
}

describe('verify', () => {
  it('passes on an empty log', () => {
    const { db } = freshStore();
    expect(verifyAuditChain(db)).toEqual({ ok: true, checked: 0, headId: 0, headHash: GENESIS_HASH, breaks: 0, rows: NO_ROWS });
  });

  it('passes on 1,000 appended actions', () => {
    const { log } = logOf(1000);
    expect(log.verify()).toEqual({ ok: true, checked: 1000, headId: 1000, headHash: log.head.hash, breaks: 0, sequence: 1000, rows: NO_ROWS });
  });

  it('reports the first break by id when one row is edited and a later one deleted', () => {
    const { db, log } = logOf(1000);
    dropGuards(db);
    db.exec("UPDATE actions SET amount = '999000000' WHERE id = 300");
    db.exec('DELETE FROM actions WHERE id = 700');

    const result = log.verify();
    expect(result).toMatchObject({ ok: false, checked: 999, headId: 1000, breaks: 2 });
    expect(result.firstBreak).toEqual({ id: 300, reason: 'row_edited', message: 'row 300 was edited: its hash does not match its contents' });
  });

  it('reports the first break by id when one row is deleted and a later one edited', () => {
    const { db, log } = logOf(1000);
    dropGuards(db);
    db.exec('DELETE FROM actions WHERE id = 300');
    db.exec("UPDATE actions SET amount = '1' WHERE id = 700");

    const result = log.verify();
    expect(result).toMatchObject({ ok: false, checked: 999, breaks: 2 });
    expect(result.firstBreak).toEqual({ id: 301, reason: 'rows_missing', message: 'row 300 is missing before row 301 (deleted)' });
  });

  it('detects an edit of any column, data included', () => {
    const { db, log } = logOf(20);
    dropGuards(db);
    db.exec(`UPDATE actions SET data = '{"i":5,"note":"plain","x":1}' WHERE id = 6`);
    expect(log.verify().firstBreak).toMatchObject({ id: 6, reason: 'row_edited' });
  });

  it('detects rows deleted from the tail through sqlite_sequence', () => {
    const { db, log } = logOf(1000);
    dropGuards(db);
    db.exec('DELETE FROM actions WHERE id >= 998');

    expect(log.verify()).toMatchObject({
      ok: false,
      checked: 997,
      headId: 997,
      firstBreak: { id: 998, reason: 'tail_deleted', message: 'rows 998–1000 were deleted from the end of the log' },
    });
  });

  it('keeps a tail deletion visible after the daemon appends again', () => {
    const { db, log } = logOf(50);
    // Only the delete guard goes: the chain trigger stays, as in a daemon that keeps running.
    db.exec('DROP TRIGGER actions_no_delete');
    db.exec('DELETE FROM actions WHERE id >= 49');
    // The log's cached head (row 50) is gone: the trigger refuses, the log re-reads the head
    // (row 48, sqlite_sequence 50) and continues at 51 instead of reusing the deleted ids.
    expect(log.append({ kind: 'daemon.started' }).id).toBe(51);
    expect(log.verify().firstBreak).toMatchObject({ id: 51, reason: 'rows_missing', message: 'rows 49–50 are missing before row 51 (deleted)' });
  });

  it('detects the first rows deleted', () => {
    const { db, log } = logOf(10);
    dropGuards(db);
    db.exec('DELETE FROM actions WHERE id <= 2');
    expect(log.verify().firstBreak).toMatchObject({ id: 3, reason: 'rows_missing', message: 'rows 1–2 are missing before row 3 (deleted)' });
  });

  it('detects a row rewritten with a recomputed hash at the next row', () => {
    const { db, log } = logOf(100);
    dropGuards(db);
    const original = row(db, 50);
    const forged = { ...original, amount: '1' };
    db.prepare('UPDATE actions SET amount = ?, hash = ? WHERE id = 50').run('1', hashActionRow(forged));

    expect(log.verify().firstBreak).toMatchObject({ id: 51, reason: 'link_broken' });
  });

  it('detects a row inserted between two others', () => {
    const { db, log } = logOf(10);
    dropGuards(db);
    db.exec('DELETE FROM actions WHERE id = 5');
    const fourth = row(db, 4);
    const inserted = { ...fourth, id: 5, kind: 'fill', prev_hash: fourth.hash };
    db.prepare('INSERT INTO actions VALUES (@id, @at, @kind, @strategy, @intent_id, @mint, @amount, @decimals, @signature, @data, @prev_hash, @hash)').run({
      ...inserted,
      hash: hashActionRow(inserted),
    });
    expect(log.verify().firstBreak).toMatchObject({ id: 6, reason: 'link_broken' });
  });

  it('cannot see a fully re-chained tail by itself, but an external anchor can', () => {
    const { db, log } = logOf(30);
    const anchor = log.head;
    dropGuards(db);
    // A determined tamperer edits row 20 and recomputes every hash after it.
    let prev = row(db, 19).hash;
    for (let id = 20; id <= 30; id++) {
      const current = { ...row(db, id), prev_hash: prev, ...(id === 20 ? { amount: '1' } : {}) };
      const hash = hashActionRow(current);
      db.prepare('UPDATE actions SET amount = ?, prev_hash = ?, hash = ? WHERE id = ?').run(current.amount, prev, hash, id);
      prev = hash;
    }
    expect(log.verify().ok).toBe(true);
    expect(log.verify({ anchor })).toMatchObject({ ok: false, firstBreak: { id: 30, reason: 'anchor_mismatch' } });
  });

  it('reports an anchor row that is no longer there', () => {
    const { log } = logOf(5);
    expect(log.verify({ anchor: { id: 9, hash: 'a'.repeat(64) } }).firstBreak).toMatchObject({ id: 9, reason: 'anchor_mismatch' });
    expect(log.verify({ anchor: { id: 5, hash: log.head.hash } }).ok).toBe(true);
  });

  it('reports a tampered sqlite_sequence', () => {
    const { db, log } = logOf(5);
    db.exec("UPDATE sqlite_sequence SET seq = 3 WHERE name = 'actions'");
    expect(log.verify().firstBreak).toMatchObject({ id: 5, reason: 'sequence_tampered' });
    db.exec("DELETE FROM sqlite_sequence WHERE name = 'actions'");
    expect(log.verify().firstBreak).toMatchObject({ id: 5, reason: 'sequence_tampered' });
  });

  it('reports a column of the wrong type instead of crashing', () => {
    const { db, log } = logOf(5);
    // STRICT forbids this; a tamperer would rebuild the table without it. Simulate with a view-free rebuild.
    db.exec(`
      DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete; DROP TRIGGER actions_chain_link; DROP VIEW trades; DROP VIEW holdings;
      CREATE TABLE loose AS SELECT * FROM actions;
      DROP TABLE actions;
      ALTER TABLE loose RENAME TO actions;
      UPDATE actions SET decimals = 'six' WHERE id = 3;`);
    expect(log.verify().firstBreak).toMatchObject({ id: 3, reason: 'row_edited' });
    expect(log.verify().firstBreak?.message).toMatch(/decimals has an unexpected type/);
  });
});
