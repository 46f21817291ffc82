import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeActionRow, GENESIS_HASH, hashActionRow, type ActionInput } from '../../../src/store/actionRow.js';
import { AuditLog } from '../../../src/store/audit.js';
import { canonicalJson } from '../../../src/store/canonicalJson.js';
import { openDatabase } from '../../../src/store/db.js';
import { StoreError } from '../../../src/store/errors.js';
import { freshStore, track } from './helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function storeError(fn: () => unknown, code: string): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(code);
    return error as StoreError;
  }
  throw new Error(`expected ${code}`);
}

function count(db: ReturnType<typeof freshStore>['db']): number {
  return (db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number }).n;
}

describe('the row hash', () => {
  const row = {
    id: 1,
    at: 1767225600000,
    kind: 'fill',
    strategy: 'tp-sol',
    intent_id: 'i-1',
    mint: SOL,
    amount: '1500000000',
    decimals: 9,
    signature: null,
    data: '{"price":"187.25"}',
    prev_hash: GENESIS_HASH,
  };

  it('is sha256(prev_hash || canonical row), matching a value computed outside jupbot', () => {
    const encoding =
      '{"amount":"1500000000","at":1767225600000,"data":{"price":"187.25"},"decimals":9,"id":1,"intent_id":"i-1",' +
      `"kind":"fill","mint":"${SOL}","prev_hash":"${GENESIS_HASH}","signature":null,"strategy":"tp-sol"}`;
    expect(encodeActionRow(row)).toBe(encoding);
    expect(hashActionRow(row)).toBe(
      createHash('sha256')
        .update(GENESIS_HASH + encoding)
        .digest('hex'),
    );
    // Pinned (also computed with `printf … | sha256sum`): changing the encoding would invalidate every existing log.
    expect(hashActionRow(row)).toBe('d51003922f5ab6ec4042677636d624716f58d518e0d76c1f68af402dadf4783f');
  });

  it('equals canonicalJson of the row with data parsed, for rows jupbot writes', () => {
    const rows = [
      row,
      { ...row, strategy: null, intent_id: null, mint: null, amount: null, decimals: null, signature: 'sig', data: '{}' },
      { ...row, kind: 'error', amount: '-5', data: canonicalJson({ message: 'quote "x", \\ €\n', nested: { b: [1, 2.5, null], a: true } }) },
    ];
    for (const r of rows) expect(encodeActionRow(r)).toBe(canonicalJson({ ...r, data: JSON.parse(r.data) as unknown }));
  });
});

describe('AuditLog.append', () => {
  it('stores the action with the clock time and links it to the previous row', async () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    expect(log.head).toEqual({ id: 0, hash: GENESIS_HASH });

    const first = log.append({ kind: 'strategy.version', strategy: 'tp-sol', data: { version: 1, hash: 'ab' } });
    await clock.advance(1500);
    const second = log.append({
      kind: 'fill',
      strategy: 'tp-sol',
      intentId: 'i-1',
      mint: SOL,
      amount: 1_500_000_000n,
      decimals: 9,
      signature: '5sig',
      data: { price: '187.25', route: ['metis'] },
    });

    expect(first).toMatchObject({ id: 1, at: Date.UTC(2026, 0, 1) });
    expect(second).toMatchObject({ id: 2, at: Date.UTC(2026, 0, 1) + 1500 });
    expect(log.head).toEqual({ id: 2, hash: second.hash });
    const rows = db.prepare('SELECT * FROM actions ORDER BY id').all() as Record<string, unknown>[];
    expect(rows[1]).toEqual({
      id: 2,
      at: Date.UTC(2026, 0, 1) + 1500,
      kind: 'fill',
      strategy: 'tp-sol',
      intent_id: 'i-1',
      mint: SOL,
      amount: '1500000000',
      decimals: 9,
      signature: '5sig',
      data: '{"price":"187.25","route":["metis"]}',
      prev_hash: first.hash,
      hash: second.hash,
    });
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
  });

  it('reads the head from the database when opened on an existing log', () => {
    const { db, clock } = freshStore();
    const written = new AuditLog(db, clock).append({ kind: 'daemon.started' });
    const reopened = new AuditLog(db, clock);
    expect(reopened.head).toEqual({ id: 1, hash: written.hash });
    expect(reopened.append({ kind: 'daemon.stopped' }).id).toBe(2);
    expect(reopened.verify().ok).toBe(true);
  });

  it('accepts amounts as decimal strings, negative deltas included', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    log.append({ kind: 'balance.delta', mint: USDC, amount: '-250000', decimals: 6 });
    log.append({ kind: 'fill', mint: USDC, amount: '0', decimals: 6 });
    expect(log.list().map((r) => r.amount)).toEqual([-250000n, 0n]);
  });

  it.each<[string, ActionInput, string]>([
    ['a bad kind', { kind: 'Fill!' }, 'kind'],
    ['an amount with leading zeros', { kind: 'fill', mint: USDC, amount: '007', decimals: 6 }, 'amount'],
    ['a fractional amount', { kind: 'fill', mint: USDC, amount: '1.5', decimals: 6 }, 'amount'],
    ['minus zero', { kind: 'fill', mint: USDC, amount: '-0', decimals: 6 }, 'amount'],
    ['an amount without its mint', { kind: 'fill', amount: 5n, decimals: 6 }, 'amount'],
    ['an amount without decimals', { kind: 'fill', mint: USDC, amount: 5n }, 'amount'],
    ['decimals beyond 255', { kind: 'fill', mint: USDC, amount: 5n, decimals: 256 }, 'decimals'],
    ['decimals without a mint', { kind: 'fill', decimals: 6 }, 'decimals'],
    ['a control character in a column', { kind: 'fill', strategy: 'a\nb' }, 'strategy'],
    ['an empty column', { kind: 'fill', intentId: '' }, 'intentId'],
    ['data that is an array', { kind: 'fill', data: [1, 2] }, 'data'],
  ])('refuses %s before writing', (_name, action, field) => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    const error = storeError(() => log.append(action), 'STORE_ACTION_INVALID');
    expect(error.details).toEqual({ field });
    expect(count(db)).toBe(0);
  });

  it('refuses data that is not plain JSON, naming the path', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    const error = storeError(() => log.append({ kind: 'fill', data: { price: undefined } }), 'STORE_CANONICAL_JSON');
    expect(error.message).toMatch(/^data\.price is undefined/);
    expect(count(db)).toBe(0);
  });

  it.each<[string, object]>([
    ['a secretKey field', { wallet: { secretKey: 'x' } }],
    ['an api_key field', { request: { api_key: 'k' } }],
    ['a JWT-shaped string', { header: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ3YWxsZXQifQ.c2ln' }],
    ['a 64-byte key-file array', { key: Array.from({ length: 64 }, (_, i) => i) }],
  ])('refuses data with %s', (_name, data) => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    storeError(() => log.append({ kind: 'error', data }), 'STORE_ACTION_SECRET');
    expect(count(db)).toBe(0);
  });

  it('allows ordinary fields that merely resemble secret names', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    expect(() => log.append({ kind: 'sim.started', data: { seed: 'abc', token: 'SOL', keypairFile: '~/id.json' } })).not.toThrow();
  });
});

describe('AuditLog.appendMany', () => {
  it('writes a batch in one transaction, chained in order', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    const written = log.appendMany([{ kind: 'a' }, { kind: 'b' }, { kind: 'c' }]);
    expect(written.map((w) => w.id)).toEqual([1, 2, 3]);
    expect(log.verify()).toMatchObject({ ok: true, checked: 3, headId: 3 });
    expect(log.appendMany([])).toEqual([]);
  });

  it('writes nothing when one action of the batch is invalid', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    storeError(() => log.appendMany([{ kind: 'a' }, { kind: 'BAD' }]), 'STORE_ACTION_INVALID');
    expect(count(db)).toBe(0);
  });

  it('writes nothing, and keeps its head, when the database refuses a row mid-batch', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    log.append({ kind: 'a' });
    const head = log.head;
    db.exec("CREATE TEMP TRIGGER refuse BEFORE INSERT ON main.actions WHEN NEW.kind = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END");
    expect(() => log.appendMany([{ kind: 'b' }, { kind: 'boom' }])).toThrow(/boom/);
    expect(count(db)).toBe(1);
    expect(log.head).toEqual(head);
    expect(log.append({ kind: 'c' }).id).toBe(2);
    expect(log.verify().ok).toBe(true);
  });
});

describe('AuditLog and other writers', () => {
  it('recovers when an enclosing transaction rolled its append back', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    log.append({ kind: 'a' });
    expect(() =>
      db.transaction(() => {
        log.append({ kind: 'inside' });
        throw new Error('caller failed after appending');
      })(),
    ).toThrow('caller failed');
    // The cache moved to the rolled-back row; the database trigger refuses the stale link and the log retries.
    expect(log.append({ kind: 'b' }).id).toBe(2);
    expect(log.list().map((r) => r.kind)).toEqual(['a', 'b']);
    expect(log.verify().ok).toBe(true);
  });

  it('commits together with the caller when appended inside its transaction', () => {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    db.transaction(() => {
      db.prepare("INSERT INTO intents (id, kind, params, created_at, updated_at) VALUES ('i-1', 'swap', '{}', 1, 1)").run();
      log.append({ kind: 'intent.planned', intentId: 'i-1' });
    })();
    expect(log.list()).toHaveLength(1);
  });

  it('never forks the chain when two connections append in turn', () => {
    const { db, file, clock } = freshStore();
    const other = track(openDatabase(file));
    const a = new AuditLog(db, clock);
    const b = new AuditLog(other, clock);
    for (let i = 0; i < 10; i++) {
      a.append({ kind: 'from.a', data: { i } });
      b.append({ kind: 'from.b', data: { i } });
    }
    expect(a.verify()).toMatchObject({ ok: true, checked: 20, headId: 20 });
  });

  it('refuses a raw insert that does not extend the head', () => {
    const { db, clock } = freshStore();
    new AuditLog(db, clock).append({ kind: 'a' });
    const insert = db.prepare("INSERT INTO actions (id, at, kind, data, prev_hash, hash) VALUES (?, 0, 'x', '{}', ?, ?)");
    expect(() => insert.run(2, GENESIS_HASH, 'f'.repeat(64))).toThrow(/chain head moved/);
    expect(() => insert.run(5, GENESIS_HASH, 'f'.repeat(64))).toThrow(/chain head moved/);
    expect(() => db.prepare("INSERT INTO actions (at, kind, data, prev_hash, hash) VALUES (0, 'x', '{}', ?, ?)").run(GENESIS_HASH, 'f'.repeat(64))).toThrow(
      /chain head moved/,
    );
  });
});

describe('AuditLog.list', () => {
  function seeded(): AuditLog {
    const { db, clock } = freshStore();
    const log = new AuditLog(db, clock);
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 6; i++) {
      clock.setWallTime(base + i * 60_000);
      log.append({ kind: i % 2 === 0 ? 'intent.planned' : 'fill', strategy: i < 3 ? 'dca-sol' : 'tp-bonk', data: { i } });
    }
    return log;
  }

  it('filters by time (since inclusive, until exclusive), kind and strategy', () => {
    const log = seeded();
    const base = Date.UTC(2026, 0, 1);
    expect(log.list({ since: base + 60_000, until: base + 180_000 }).map((r) => r.id)).toEqual([2, 3]);
    expect(log.list({ kind: 'fill' }).map((r) => r.id)).toEqual([2, 4, 6]);
    expect(log.list({ strategy: 'tp-bonk', kind: 'fill' }).map((r) => r.id)).toEqual([4, 6]);
  });

  it('limits to the most recent actions, still oldest first', () => {
    const log = seeded();
    expect(log.list({ limit: 2 }).map((r) => r.id)).toEqual([5, 6]);
    expect(log.list({ kind: 'intent.planned', limit: 2 }).map((r) => r.id)).toEqual([3, 5]);
    expect(() => log.list({ limit: 0 })).toThrow(RangeError);
  });
});
