import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { hashActionRow, type ActionRow } from '../../../src/store/actionRow.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openDatabase } from '../../../src/store/db.js';
import { SchemaTooNewError } from '../../../src/store/errors.js';
import { openStore } from '../../../src/store/migrate.js';
import { sha256File, tempDir } from '../store/helpers.js';
import { audit, START } from './auditHarness.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A closed database with `n` actions, one a minute from START. */
function database(n: number): string {
  const clock = new ManualClock(START);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
  const log = new AuditLog(db, clock);
  for (let i = 1; i <= n; i++) {
    clock.setWallTime(START + (i - 1) * 60_000);
    log.append({
      kind: i % 2 === 0 ? 'fill' : 'intent.planned',
      strategy: i % 3 === 0 ? 'tp-bonk' : 'dca-sol',
      intentId: `intent-${i}`,
      mint: USDC,
      amount: BigInt(i) * 1_500_000n,
      decimals: 6,
      signature: i % 2 === 0 ? `sig${i}` : null,
      data: { i, note: 'says "hi", then\nleaves' },
    });
  }
  db.close();
  return file;
}

function tamper(file: string, sql: string): void {
  const { db } = openStore(file, { clock: new ManualClock() });
  db.exec('DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete;');
  db.exec(sql);
  db.close();
}

/** A minimal RFC 4180 reader, to check what the CSV writer produced. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  return records;
}

describe('jupbot audit verify', () => {
  it('prints ok with the count and the head', async () => {
    const file = database(5);
    const run = await audit(['--db', file, 'verify']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok: 5 actions, head 5 [0-9a-f]{64}; tables as sealed: fills 0, intents 0, trigger_orders 0\n$/);
    // --db may also follow the subcommand.
    expect((await audit(['verify', '--db', file])).stdout).toBe(run.stdout);
  });

  it('exits 3 naming the first broken row after an edit and a deletion', async () => {
    const file = database(1000);
    tamper(file, "UPDATE actions SET amount = '1' WHERE id = 700; DELETE FROM actions WHERE id = 300;");
    const run = await audit(['--db', file, 'verify']);
    expect(run.code).toBe(ExitCode.AuditChainBroken);
    expect(run.stdout).toMatch(/^broken: 2 break\(s\) in 999 actions; first at row 301: row 300 is missing before row 301/);
    expect(run.stderr).toBe('audit chain broken at action 301 (rows_missing): row 300 is missing before row 301 (deleted)');
  });

  it('exits 3 for rows deleted from the end', async () => {
    const file = database(10);
    tamper(file, 'DELETE FROM actions WHERE id > 8;');
    const run = await audit(['--db', file, 'verify', '--json']);
    expect(run.code).toBe(ExitCode.AuditChainBroken);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, checked: 8, firstBreak: { id: 9, reason: 'tail_deleted' } });
  });

  it('checks an anchor kept from an earlier run', async () => {
    const file = database(3);
    const head = /head (\d+) ([0-9a-f]{64})/.exec((await audit(['--db', file, 'verify'])).stdout);
    expect((await audit(['--db', file, 'verify', '--anchor', `${head?.[1]}:${head?.[2]}`])).code).toBe(0);
    const wrong = await audit(['--db', file, 'verify', '--anchor', `3:${'0'.repeat(64)}`]);
    expect(wrong.code).toBe(ExitCode.AuditChainBroken);
    expect(wrong.stderr).toMatch(/anchor_mismatch/);
    expect((await audit(['--db', file, 'verify', '--anchor', 'nonsense'])).code).toBe(ExitCode.Usage);
  });
});

describe('jupbot audit actions', () => {
  it('prints a table with amounts in tokens', async () => {
    const run = await audit(['--db', database(3), 'actions']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+AT \(UTC\)\s+KIND\s+STRATEGY\s+AMOUNT\s+MINT\s+INTENT\s+SIGNATURE\s+DATA$/);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^ 2\s+2026-01-01T00:01:00Z\s+fill\s+dca-sol\s+3\s+EPjF…Dt1v\s+intent-2\s+sig2\s+\{"i":2/);
    expect(lines[3]).toMatch(/4\.5/);
  });

  it('says so when nothing matches a kind jupbot writes', async () => {
    expect((await audit(['--db', database(3), 'actions', '--kind', 'intent.failed'])).stdout).toBe('no actions match\n');
  });

  it('refuses a kind that does not exist, naming the kinds there are', async () => {
    const run = await audit(['--db', database(3), 'actions', '--kind', 'fil']);
    expect(run.code).toBe(ExitCode.InvalidInput);
    expect(run.stdout).toBe('');
    const [reason, inDb, known] = run.stderr.split('\n');
    expect(reason).toBe('--kind fil: no such action kind; did you mean fill, fill.recovered?');
    expect(inDb).toBe('kinds in this database: fill, intent.planned');
    expect(known).toMatch(/^kinds jupbot writes: .*\bintent\.signed\b.*\border\.placed\b/);
  });

  it('takes a kind the database holds even if jupbot does not write it', async () => {
    const file = database(1);
    const { db } = openStore(file, { clock: new ManualClock(START) });
    new AuditLog(db, new ManualClock(START)).append({ kind: 'custom.note', data: {} });
    db.close();
    const run = await audit(['--db', file, 'actions', '--kind', 'custom.note', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(1);
  });

  it('prints one JSON array with data parsed', async () => {
    const run = await audit(['--db', database(3), 'actions', '--json']);
    const rows = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatchObject({
      id: 2,
      at: START + 60_000,
      at_iso: '2026-01-01T00:01:00.000Z',
      kind: 'fill',
      amount: '3000000',
      decimals: 6,
      mint: USDC,
      data: { i: 2, note: 'says "hi", then\nleaves' },
    });
    expect((await audit(['--db', database(0), 'actions', '--json'])).stdout).toBe('[]\n');
  });

  it('prints RFC 4180 CSV that reads back to the stored values', async () => {
    const run = await audit(['--db', database(2), 'actions', '--csv']);
    expect(run.stdout.endsWith('\r\n')).toBe(true);
    const [header, first] = parseCsv(run.stdout);
    expect(header).toEqual(['id', 'at', 'at_iso', 'kind', 'strategy', 'intent_id', 'mint', 'amount', 'decimals', 'signature', 'data', 'prev_hash', 'hash']);
    expect(first?.slice(0, 11)).toEqual([
      '1',
      String(START),
      '2026-01-01T00:00:00.000Z',
      'intent.planned',
      'dca-sol',
      'intent-1',
      USDC,
      '1500000',
      '6',
      '',
      '{"i":1,"note":"says \\"hi\\", then\\nleaves"}',
    ]);
  });

  it('filters by time, kind and strategy, and limits to the most recent', async () => {
    const file = database(10);
    const ids = async (...args: string[]): Promise<number[]> =>
      (JSON.parse((await audit(['--db', file, 'actions', '--json', ...args])).stdout) as { id: number }[]).map((r) => r.id);
    expect(await ids('--since', '2026-01-01T00:02:00Z', '--until', '2026-01-01T00:05:00+00:00')).toEqual([3, 4, 5]);
    expect(await ids('--since', String(START + 8 * 60_000))).toEqual([9, 10]);
    // The context's clock is one hour after START: "55m" ago is START + 5 minutes.
    expect(await ids('--since', '55m')).toEqual([6, 7, 8, 9, 10]);
    expect(await ids('--kind', 'fill', '--strategy', 'tp-bonk')).toEqual([6]);
    expect(await ids('--limit', '2')).toEqual([9, 10]);
  });

  it('refuses a local time without a zone, an impossible date and --json with --csv', async () => {
    const file = database(1);
    const local = await audit(['--db', file, 'actions', '--since', '2026-01-01T10:00']);
    expect(local.code).toBe(ExitCode.Usage);
    expect(local.stderr).toMatch(/with its zone/);
    expect((await audit(['--db', file, 'actions', '--since', '2026-02-30'])).code).toBe(ExitCode.Usage);
    expect((await audit(['--db', file, 'actions', '--json', '--csv'])).code).toBe(ExitCode.Usage);
    expect((await audit(['--db', file, 'actions', '--limit', '0'])).code).toBe(ExitCode.Usage);
  });
});

describe('jupbot audit export', () => {
  it('writes JSON Lines of the stored columns and a manifest line that re-verify on their own', async () => {
    const file = database(20);
    const run = await audit(['--db', file, 'export']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    const rows = lines.slice(0, 20).map((line) => JSON.parse(line) as ActionRow);
    let prev = '0'.repeat(64);
    for (const row of rows) {
      expect(row.prev_hash).toBe(prev);
      expect(hashActionRow(row)).toBe(row.hash);
      prev = row.hash;
    }
    const { manifest } = JSON.parse(lines[20] ?? '') as { manifest: Record<string, unknown> };
    expect(manifest).toMatchObject({
      format: 'jupbot.actions.v1',
      count: 20,
      head_id: 20,
      head_hash: prev,
      sequence: 20,
      verified: true,
      first_break: null,
      exported_at: START + 3_600_000,
    });
  });

  it('writes CSV to a file with the manifest beside it, leaving no partial file', async () => {
    const file = database(3);
    const dir = tempDir();
    const run = await audit(['--db', file, 'export', '--csv', '--out', 'actions.csv'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^exported 3 actions to actions\.csv, head 3 [0-9a-f]{64}\n$/);
    expect(parseCsv(readFileSync(join(dir, 'actions.csv'), 'utf8'))).toHaveLength(4);
    expect(JSON.parse(readFileSync(join(dir, 'actions.csv.manifest.json'), 'utf8'))).toMatchObject({ count: 3, head_id: 3, verified: true });
    expect(existsSync(join(dir, 'actions.csv.partial'))).toBe(false);
  });

  it('still exports a broken chain, says so in the manifest and exits 3', async () => {
    const file = database(5);
    tamper(file, "UPDATE actions SET kind = 'forged' WHERE id = 2;");
    const run = await audit(['--db', file, 'export', '--json']);
    expect(run.code).toBe(ExitCode.AuditChainBroken);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[5] ?? '')).toMatchObject({ manifest: { verified: false, first_break: { id: 2, reason: 'row_edited' } } });
  });
});

describe('jupbot audit and the database file', () => {
  it('reports a missing database with exit 5', async () => {
    const missing = join(tempDir(), 'nope.sqlite');
    const run = await audit(['--db', missing, 'verify']);
    expect(run.code).toBe(ExitCode.NotFound);
    expect(run.stderr).toBe(`no database at ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });

  it('resolves a relative --db against the working directory', async () => {
    const file = database(1);
    const run = await audit(['--db', 'jupbot-paper.sqlite', 'verify'], { cwd: join(file, '..') });
    expect(run.code).toBe(0);
  });

  it('reports a file that is not a SQLite database with exit 5', async () => {
    const file = join(tempDir(), 'notes.sqlite');
    writeFileSync(file, 'this is not a database, just some text long enough to have a header'.repeat(20));
    const run = await audit(['--db', file, 'verify']);
    expect(run.code).toBe(ExitCode.NotFound);
    expect(run.stderr).toMatch(/cannot open database .*notes\.sqlite: file is not a database/);
  });

  it('reports a SQLite file without the jupbot schema with exit 5', async () => {
    const file = join(tempDir(), 'other.sqlite');
    const other = openDatabase(file);
    other.exec('CREATE TABLE t (x INTEGER)');
    other.close();
    const run = await audit(['--db', file, 'actions']);
    expect(run.code).toBe(ExitCode.NotFound);
    expect(run.stderr).toMatch(/holds no jupbot schema/);
  });

  it('refuses a database newer than the code with SchemaTooNewError, leaving it untouched', async () => {
    const file = database(2);
    const { db } = openStore(file, { clock: new ManualClock() });
    db.prepare("INSERT INTO schema_migrations VALUES (9999, 'future', ?, 1)").run('b'.repeat(64));
    db.close();
    const before = sha256File(file);
    const run = await audit(['--db', file, 'actions']);
    expect(run.error).toBeInstanceOf(SchemaTooNewError);
    expect((run.error as SchemaTooNewError).code).toBe('STORE_SCHEMA_TOO_NEW');
    expect(sha256File(file)).toBe(before);
  });

  it('changes nothing in the database it reads', async () => {
    const file = database(4);
    const before = sha256File(file);
    for (const args of [['verify'], ['actions'], ['actions', '--json'], ['export']]) {
      expect((await audit(['--db', file, ...args])).code).toBe(0);
    }
    expect(sha256File(file)).toBe(before);
  });
});
