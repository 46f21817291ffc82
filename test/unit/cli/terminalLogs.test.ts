/**
 * `jupbot run` as a real process: readable, coloured lines under a pseudo-terminal (util-linux
 * `script` gives it one), JSON lines when stdout is a pipe, and `log.format` overriding either.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonEntry, type DaemonEntry } from '../../crash/support/daemonEntry.js';
import { repoRoot } from '../../support/cli.js';

let entry: DaemonEntry;
const dirs: string[] = [];
beforeAll(async () => {
  entry = await daemonEntry();
}, 60_000);
afterAll(() => {
  entry.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(format: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-tty-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  cpSync(join(repoRoot, 'strategies', 'sol-take-profit.yaml'), join(dir, 'strategies', 'sol-take-profit.yaml'));
  writeFileSync(join(dir, 'strategies', 'broken.yaml'), 'name: broken\nkind: price-order\n');
  const file = join(dir, 'jupbot.yaml');
  writeFileSync(
    file,
    `mode: paper\ndata_dir: ./data\nstrategies_dir: ./strategies\nhttp:\n  listen: 127.0.0.1:0\nsim:\n  seed: tty-test\n${format ? `log:\n  format: ${format}\n` : ''}`,
  );
  return file;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the daemon until its startup screen is out, then asks it to stop: Ctrl-C typed into the
 * terminal, or SIGINT to the process without one. Returns everything it wrote.
 */
async function runUntilStarted(options: { terminal: boolean; format: string | null; env?: Record<string, string> }): Promise<string> {
  const config = workspace(options.format);
  const command = [process.execPath, ...entry.args, 'run', '--config', config];
  // The colour switches come from the test alone (vitest's own FORCE_COLOR must not leak in).
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (!options.env?.NO_COLOR) delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  // `script` runs the command through $SHELL -c. `exec` makes the daemon itself the terminal's
  // foreground process, so Ctrl-C reaches it alone: dash, unlike bash, would otherwise also take
  // the SIGINT while waiting and report 130 whatever the daemon's own exit code was.
  env.SHELL = '/bin/sh';
  const child = options.terminal
    ? spawn('script', ['-qfec', `exec ${command.map(quote).join(' ')}`, '/dev/null'], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0] as string, command.slice(1), { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let asked = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    // The screen's last line has been written: stop.
    if (!asked && /next +`jupbot status`/.test(out)) {
      asked = true;
      if (options.terminal) child.stdin.write('\u0003');
      else child.kill('SIGINT');
    }
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // A daemon that never gets there is killed, so the test fails with what it printed rather than a timeout.
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(guard);
  expect(asked, `the daemon never printed its startup screen; stdout:\n${out}\nstderr:\n${err}`).toBe(true);
  expect(code).toBe(0);
  return out;
}

const ESC = '\u001b';

describe('log output by where it goes', () => {
  it('a terminal gets coloured, readable lines with the startup screen; no JSON', async () => {
    const out = await runUntilStarted({ terminal: true, format: null });
    const lines = out.split(/\r?\n/);
    const headline = lines.findIndex((l) => l.includes('started in PAPER mode'));
    expect(lines[headline]).toMatch(
      new RegExp(
        `^(\\^C)?${ESC}\\[2m\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d${ESC}\\[0m ${ESC}\\[32mINFO ${ESC}\\[0m jupbot started in PAPER mode: paper wallet \\w{32,44}, `,
      ),
    );
    const screen = lines.slice(headline + 1, headline + 11).map((l) => l.trim().split(/\s+/)[0]);
    expect(screen).toEqual(['version', 'wallet', 'network', 'config', 'database', 'ops', 'strategies', 'rejected:', 'next', expect.any(String)]);
    expect(out).toContain('1 running: sol-take-profit');
    expect(out).toMatch(/rejected: \S*strategies\/broken\.yaml:\d+:\d+: /);
    // The rejection itself, at warn, with each problem on its own line below.
    expect(out).toMatch(new RegExp(`${ESC}\\[33mWARN ${ESC}\\[0m strategy file rejected; nothing of it runs: \\S*strategies/broken\\.yaml`));
    expect(out).toMatch(/jupbot stopped: received SIGINT/);
    expect(out).not.toMatch(/\{"level"/);
  }, 60_000);

  it('a pipe gets JSON lines, the screen as a field', async () => {
    const out = await runUntilStarted({ terminal: false, format: null });
    const entries = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = entries.find((e) => String(e.msg).includes('started in PAPER mode'));
    expect(started).toMatchObject({ level: 'info', mode: 'paper' });
    expect((started?.screen as string[]).map((l) => l.split(/\s+/)[0])).toEqual([
      'version',
      'wallet',
      'network',
      'config',
      'database',
      'ops',
      'strategies',
      '',
      'next',
    ]);
    expect(out).not.toContain(ESC);
  }, 60_000);

  it('log.format and NO_COLOR override: JSON on a terminal, plain pretty lines into a pipe', async () => {
    const json = await runUntilStarted({ terminal: true, format: 'json' });
    expect(json).toMatch(/^\{"level":"info",/m);
    expect(json).not.toContain(`${ESC}[`);
    const plain = await runUntilStarted({ terminal: false, format: 'pretty' });
    expect(plain).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}jupbot started in PAPER mode/m);
    expect(plain).not.toContain(ESC);
    const noColour = await runUntilStarted({ terminal: true, format: null, env: { NO_COLOR: '1' } });
    expect(noColour).toMatch(/^(\^C)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}jupbot started in PAPER mode/m);
    expect(noColour).not.toContain(`${ESC}[`);
  }, 120_000);
});
