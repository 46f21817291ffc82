import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openDatabase, type Db } from '../../../src/store/db.js';
import { migrate } from '../../../src/store/migrate.js';
import { track } from './helpers.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL = 'So11111111111111111111111111111111111111112';

function schema(): Db {
  const db = track(openDatabase(':memory:'));
  migrate(db, { clock: new ManualClock() });
  return db;
}

function plan(db: Db, id = 'i-1'): void {
  db.prepare('INSERT INTO intents (id, kind, params, created_at, updated_at) VALUES (?, \'swap\', \'{"in":"1"}\', 1, 1)').run(id);
}

function setState(db: Db, state: string, id = 'i-1'): void {
  db.prepare('UPDATE intents SET state = ?, updated_at = updated_at + 1 WHERE id = ?').run(state, id);
}

function sign(db: Db, id = 'i-1'): void {
  db.prepare("UPDATE intents SET state = 'signed', signed_tx = x'0102', signature = ?, blockhash = 'bh', last_valid_block_height = 10 WHERE id = ?").run(
    `sig-${id}`,
    id,
  );
}

describe('intents', () => {
  it('walks the happy path planned → signed → sent → confirmed', () => {
    const db = schema();
    plan(db);
    sign(db);
    setState(db, 'sent');
    setState(db, 'confirmed');
    expect(db.prepare('SELECT state FROM intents').get()).toEqual({ state: 'confirmed' });
  });

  it('refuses to enter signed without the transaction bytes and signature', () => {
    const db = schema();
    plan(db);
    expect(() => setState(db, 'signed')).toThrow(/CHECK constraint failed/);
  });

  it.each([
    ['confirmed', 'sent'],
    ['failed', 'planned'],
    ['cancelled', 'signed'],
    ['sent', 'planned'],
    ['sent', 'cancelled'],
  ])('refuses %s → %s', (from, to) => {
    const db = schema();
    plan(db);
    if (from !== 'planned') {
      sign(db);
      if (from !== 'signed') setState(db, from === 'cancelled' ? 'cancelled' : 'sent');
      if (from === 'confirmed' || from === 'failed') setState(db, from);
    }
    expect(() => setState(db, to)).toThrow(/illegal state transition/);
  });

  it('allows re-arming an expired intent and confirming a signed one found on chain', () => {
    const db = schema();
    plan(db, 'a');
    sign(db, 'a');
    setState(db, 'sent', 'a');
    setState(db, 'expired', 'a');
    setState(db, 'planned', 'a');
    plan(db, 'b');
    sign(db, 'b');
    setState(db, 'confirmed', 'b');
    expect(db.prepare('SELECT id, state FROM intents ORDER BY id').all()).toEqual([
      { id: 'a', state: 'planned' },
      { id: 'b', state: 'confirmed' },
    ]);
  });

  it('keeps what an intent is about immutable and never deletes it', () => {
    const db = schema();
    plan(db);
    expect(() => db.exec(`UPDATE intents SET params = '{"in":"2"}'`)).toThrow(/immutable/);
    expect(() => db.exec("UPDATE intents SET kind = 'other'")).toThrow(/immutable/);
    expect(() => db.exec('DELETE FROM intents')).toThrow(/never deleted/);
    db.exec("UPDATE intents SET attempts = 1, error_code = 'X'");
  });

  it('keeps signatures unique across intents', () => {
    const db = schema();
    plan(db, 'a');
    plan(db, 'b');
    db.exec("UPDATE intents SET signature = 'same' WHERE id = 'a'");
    expect(() => db.exec("UPDATE intents SET signature = 'same' WHERE id = 'b'")).toThrow(/UNIQUE/);
  });

  it('references a recorded strategy version when it names one', () => {
    const db = schema();
    expect(() =>
      db.exec("INSERT INTO intents (id, strategy, strategy_version, kind, params, created_at, updated_at) VALUES ('x', 'dca', 1, 'swap', '{}', 1, 1)"),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(
      "INSERT INTO strategy_versions (strategy, version, yaml_sha256, yaml, source_file, applied_at) VALUES ('dca', 1, ?, 'name: dca', 'strategies/dca.yaml', 1)",
    ).run('a'.repeat(64));
    db.exec("INSERT INTO intents (id, strategy, strategy_version, kind, params, created_at, updated_at) VALUES ('x', 'dca', 1, 'swap', '{}', 1, 1)");
  });
});

describe('fills', () => {
  const insert = (db: Db, signature: string, idx: number): number =>
    db
      .prepare(
        `INSERT INTO fills (signature, idx, source, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at)
         VALUES (?, ?, 'swap', ?, '1500000', 6, ?, '8011200', 9, 1, 2) ON CONFLICT (signature, idx) DO NOTHING`,
      )
      .run(signature, idx, USDC, SOL).changes;

  it('records a fill once however often it is replayed', () => {
    const db = schema();
    expect(insert(db, 'sig', 0)).toBe(1);
    expect(insert(db, 'sig', 0)).toBe(0);
    expect(insert(db, 'sig', 1)).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM fills').get()).toEqual({ n: 2 });
  });

  it('refuses amounts that are not integer base units, and a partial fee', () => {
    const db = schema();
    const bad = (column: string, value: string): void => {
      expect(() =>
        db
          .prepare(
            `INSERT INTO fills (signature, idx, source, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at)
             VALUES ('s', 0, 'swap', ?, ?, 6, ?, ?, 9, 1, 2)`,
          )
          .run(USDC, column === 'in' ? value : '1', SOL, column === 'out' ? value : '1'),
      ).toThrow(/CHECK constraint failed/);
    };
    bad('in', '1.5');
    bad('out', '1e9');
    bad('in', '-1');
    bad('in', '');
    expect(() =>
      db.exec(`INSERT INTO fills (signature, idx, source, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, fee_amount, at, recorded_at)
               VALUES ('s', 0, 'swap', 'a', '1', 6, 'b', '1', 9, '5000', 1, 2)`),
    ).toThrow(/CHECK constraint failed/);
  });

  it('is STRICT: a value of the wrong type is an error, not a conversion', () => {
    const db = schema();
    expect(() =>
      db
        .prepare(
          `INSERT INTO fills (signature, idx, source, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at)
           VALUES ('s', 0, 'swap', 'a', '1', ?, 'b', '1', 9, 1, 2)`,
        )
        .run('six'),
    ).toThrow(/cannot store TEXT value in INTEGER column fills\.in_decimals/);
  });
});

describe('other tables', () => {
  it('pins one mint per strategy and symbol', () => {
    const db = schema();
    db.exec(`INSERT INTO token_pins VALUES ('dca', 'USDC', '${USDC}', 6, 1)`);
    expect(() => db.exec(`INSERT INTO token_pins VALUES ('dca', 'USDC', '${SOL}', 9, 2)`)).toThrow(/UNIQUE/);
    db.exec(`INSERT INTO token_pins VALUES ('tp', 'USDC', '${USDC}', 6, 1)`);
  });

  it('mirrors a trigger order with decimal prices and refuses exponent notation', () => {
    const db = schema();
    const insert = (price: string): void => {
      db.prepare(
        `INSERT INTO trigger_orders (id, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals,
           input_amount, trigger_price_usd, trailing_bps, expires_at, raw, created_at, updated_at, first_seen_at, last_synced_at)
         VALUES (?, 'price', 'single', 'open', ?, 9, ?, 6, '1000000000', ?, 100, 5, '{}', 1, 1, 1, 1)`,
      ).run(`o-${price}`, SOL, USDC, price);
    };
    insert('0.00001234');
    expect(() => insert('1.234e-5')).toThrow(/CHECK constraint failed/);
  });
});

describe('actions', () => {
  it('is append-only', () => {
    const db = schema();
    db.prepare("INSERT INTO actions (id, at, kind, data, prev_hash, hash) VALUES (1, 1, 'a', '{}', ?, ?)").run('0'.repeat(64), 'f'.repeat(64));
    expect(() => db.exec("UPDATE actions SET kind = 'b'")).toThrow(/actions is append-only/);
    expect(() => db.exec('DELETE FROM actions')).toThrow(/actions is append-only/);
  });

  it.each([
    ['an amount with leading zeros', "'01'", "'m'", '6'],
    ['minus zero', "'-0'", "'m'", '6'],
    ['a fractional amount', "'1.5'", "'m'", '6'],
    ['an amount without a mint', "'1'", 'NULL', '6'],
    ['an amount without decimals', "'1'", "'m'", 'NULL'],
    ['decimals beyond 255', "'1'", "'m'", '300'],
  ])('refuses %s', (_name, amount, mint, decimals) => {
    const db = schema();
    expect(() =>
      db
        .prepare(
          `INSERT INTO actions (id, at, kind, mint, amount, decimals, data, prev_hash, hash) VALUES (1, 1, 'a', ${mint}, ${amount}, ${decimals}, '{}', ?, ?)`,
        )
        .run('0'.repeat(64), 'f'.repeat(64)),
    ).toThrow(/CHECK constraint failed/);
  });
});
