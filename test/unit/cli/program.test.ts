import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { openStore } from '../../../src/store/migrate.js';
import { jupbot, repoRoot } from '../../support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A paper config in a temp dir whose database and ops port cannot collide with anything. */
function tempConfig(extra = ''): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-cli-'));
  dirs.push(dir);
  const file = join(dir, 'jupbot.yaml');
  writeFileSync(file, `mode: paper\ndata_dir: ./data\nstrategies_dir: ./strategies\nhttp:\n  listen: 127.0.0.1:0\nsim:\n  seed: cli-test\n${extra}`);
  return { dir, file };
}

describe('jupbot program', () => {
  it('prints help listing its commands and exits 0', async () => {
    const run = await jupbot(['--help']);
    expect(run.code).toBe(ExitCode.Ok);
    for (const command of ['run', 'validate', 'audit']) expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('treats an unknown command, an unknown option and an extra argument as usage errors (exit 2)', async () => {
    for (const args of [['frobnicate'], ['validate', '--confg', 'x.yaml'], ['audit', 'verify', 'extra']]) {
      const run = await jupbot(args);
      expect(run.code, args.join(' ')).toBe(ExitCode.Usage);
      expect(run.stderr).toMatch(/error: /);
    }
  });

  it('run: reports a bad config as file:line:col lines and exits 1 without starting', async () => {
    const { file } = tempConfig('poll:\n  prices: soon\n');
    const run = await jupbot(['run', '--config', file]);
    expect(run.code).toBe(ExitCode.InvalidInput);
    expect(run.stderr).toBe(`${file}:9:11: poll.prices: "soon" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)\n`);
  });

  it('run: a missing config file exits 5 naming it', async () => {
    const run = await jupbot(['run', '--config', '/nonexistent/jupbot.yaml']);
    expect(run.code).toBe(ExitCode.NotFound);
    expect(run.stderr).toContain('/nonexistent/jupbot.yaml');
  });

  it('run: starts, serves /healthz, stops on the shutdown signal and leaves a verifiable audit trail', async () => {
    const { file } = tempConfig();
    const shutdown = new AbortController();
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    let announceStarted!: (line: Record<string, unknown>) => void;
    const started = new Promise<Record<string, unknown>>((resolve) => (announceStarted = resolve));
    const running = jupbot(['run', '--config', file], {
      clock,
      shutdown: shutdown.signal,
      onStdout: (text) => {
        for (const line of text.split('\n').filter(Boolean)) {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          if (String(parsed['msg']).startsWith('jupbot started')) announceStarted(parsed);
        }
      },
    });
    const startLine = await started;
    // The schema the repository's last migration leaves.
    const latest = Math.max(...readdirSync(new URL('../../../migrations/', import.meta.url)).map((f) => Number.parseInt(f, 10)));
    expect(startLine).toMatchObject({ level: 'info', mode: 'paper', time: clock.now(), schemaVersion: latest });
    const health = await fetch(`${String(startLine['ops'])}/healthz`);
    expect(health.status).toBe(200);
    // The live report: the same page as `jupbot report`, self-contained, forbidden to load anything.
    const live = await fetch(`${String(startLine['ops'])}/`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(live.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const html = await live.text();
    expect(html).toContain('<meta http-equiv="refresh" content="30">');
    expect(html).toMatch(/Audit chain verified, with every fill, intent and order as sealed: \d+ actions/);
    // Ready once every feed has polled once (the order feeds log in to the simulator first).
    // Each probe is a real round trip, so this waits on the daemon's work, not on a timer.
    let ready: { status: string; checks: { name: string; ok: boolean }[] } | undefined;
    for (let probe = 0; probe < 500 && ready?.status !== 'ready'; probe++) {
      ready = (await (await fetch(`${String(startLine['ops'])}/readyz`)).json()) as typeof ready;
    }
    expect(ready?.status).toBe('ready');
    expect(ready?.checks.map((c) => c.name)).toEqual([
      'database',
      'feed:prices',
      'feed:markets',
      'feed:scores',
      'feed:positions',
      'feed:trading-status',
      'feed:orders',
      'feed:dca',
      'feed:balances',
      'feed:wallet-history',
      'strategies',
      'api-areas',
      'trigger-login',
      'wallet',
    ]);
    // Paper mode: the embedded simulator answers token search on loopback, keyless as in the real API.
    const simulator = startLine['simulator'] as { url: string; seed: string };
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const search = await fetch(`${simulator.url}/ultra/v1/search?query=SOL`);
    expect(search.status).toBe(200);
    expect(((await search.json()) as { symbol: string }[]).map((t) => t.symbol)).toContain('SOL');

    shutdown.abort(new Error('received SIGTERM'));
    const result = await running;
    expect(result.code).toBe(ExitCode.Ok);

    const actions = await jupbot(['audit', 'actions', '--json', '--config', file]);
    const rows = JSON.parse(actions.stdout) as { kind: string; data: Record<string, unknown> }[];
    // The paper wallet's first balances reading is recorded once (docs/audit.md, wallet.balances).
    expect(rows.map((r) => r.kind)).toEqual(['daemon.started', 'wallet.balances', 'daemon.stopped']);
    expect(rows[2]?.data).toMatchObject({ reason: 'received SIGTERM', unfinished: {} });
    expect((await jupbot(['audit', 'verify', '--config', file])).code).toBe(ExitCode.Ok);
  });

  it('run: refuses a database written by a newer jupbot with exit 4 and leaves it untouched', async () => {
    const { dir, file } = tempConfig();
    const { db } = openStore(join(dir, 'data', 'jupbot-paper.sqlite'), { clock: new ManualClock() });
    db.prepare("INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES (9999, 'future', ?, 0)").run('0'.repeat(64));
    const before = db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number };
    db.close();
    const run = await jupbot(['run', '--config', file]);
    expect(run.code).toBe(ExitCode.DatabaseTooNew);
    expect(run.stderr).toMatch(/9999/);
    // The refusal must not have written anything: count again through a read-only connection.
    const { default: Database } = await import('better-sqlite3');
    const ro = new Database(join(dir, 'data', 'jupbot-paper.sqlite'), { readonly: true });
    expect(ro.prepare('SELECT count(*) AS n FROM actions').get()).toEqual(before);
    ro.close();
  });
});

describe('the jupbot binary', () => {
  it('validates the shipped default config with exit 0', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'validate', '--config', 'config/default.yaml'], {
      cwd: repoRoot,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/root' },
    });
    expect(stdout).toMatch(/^ok: .*config\/default\.yaml \(mode paper\)/);
  });
});
