import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { Redactor } from '../../../src/ops/redact.js';
import { LOCK_FILE } from '../../../src/store/dataDirLock.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop('test over');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(label: string): {
  dir: string;
  data: string;
  config: ReturnType<typeof parseConfigText>;
  out: MemoryStream;
  log: ReturnType<typeof createLogger>;
} {
  const dir = mkdtempSync(join(tmpdir(), `jupbot-${label}-`));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  const data = join(dir, 'data');
  const config = parseConfigText(
    `data_dir: ${data}\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: ${label} }\n`,
    join(dir, 'c.yaml'),
    {},
    dir,
  );
  const out = new MemoryStream();
  return { dir, data, config, out, log: createLogger({ destination: out }) };
}

/** A raw request line, as `curl --path-as-is` sends it: no client library normalises the target. */
function raw(url: string, target: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the daemon, hardened', () => {
  it('answers a malformed request target with 400 and keeps running', async () => {
    const w = workspace('malformed');
    const daemon = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
    daemons.push(daemon);
    for (const target of ['///', '//a:b', '//%zz']) expect((await raw(daemon.opsUrl, target)).split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect((await fetch(`${daemon.opsUrl}/healthz`)).status).toBe(200);
  });

  it("takes the data directory: a second daemon is refused with the holder's pid, and the first one's database is not moved", async () => {
    const w = workspace('twice');
    const clock = new ManualClock(Date.UTC(2026, 10, 24));
    const first = await start(w.config, { clock, log: w.log });
    daemons.push(first);
    const before = readdirSync(w.data).sort();
    await expect(start(w.config, { clock, log: w.log })).rejects.toMatchObject({
      code: 'STORE_LOCKED',
      message: expect.stringContaining(`pid ${process.pid}`) as unknown as string,
    });
    expect(readdirSync(w.data).sort()).toEqual(before);
    expect((await fetch(`${first.opsUrl}/healthz`)).status).toBe(200);
  });

  it('takes over a stale lock left by a process that is gone, without a human', async () => {
    const w = workspace('stale');
    mkdirSync(w.data, { recursive: true });
    // A pid that no longer runs: a child that has exited.
    const gone = spawn(process.execPath, ['-e', '0']);
    const pid = gone.pid as number;
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(join(w.data, LOCK_FILE), `${pid}\n`);
    const daemon = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
    daemons.push(daemon);
    expect((await fetch(`${daemon.opsUrl}/healthz`)).status).toBe(200);
  });

  it('creates the data directory 0700 and the database files 0600 whatever the umask, and warns about wider ones', async () => {
    const w = workspace('perms');
    const previous = process.umask(0o022);
    try {
      const daemon = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
      await daemon.stop('checked');
    } finally {
      process.umask(previous);
    }
    expect(statSync(w.data).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(w.data).filter((f) => f.includes('.sqlite'))) expect([f, statSync(join(w.data, f)).mode & 0o777]).toEqual([f, 0o600]);
    execFileSync('chmod', ['0755', w.data]);
    const again = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 25)), log: w.log });
    daemons.push(again);
    expect(w.out.text).toContain(`${w.data} is mode 0755 (readable by others; chmod 0700 it)`);
  });

  it("answers /readyz at once while another process holds the database's write lock", async () => {
    const w = workspace('readyz');
    const daemon = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
    daemons.push(daemon);
    const file = readdirSync(w.data).find((f) => f.endsWith('.sqlite')) as string;
    const other = new Database(join(w.data, file));
    other.exec('BEGIN IMMEDIATE');
    try {
      // The probe takes no lock: the answer does not wait for the 5 s busy timeout.
      const started = performance.now();
      const answers = await Promise.all([1, 2, 3].map(() => fetch(`${daemon.opsUrl}/readyz`)));
      const elapsed = performance.now() - started;
      expect(answers.map((a) => a.status).every((s) => s === 200 || s === 503)).toBe(true);
      expect(elapsed).toBeLessThan(2_000);
      const body = (await answers[0]?.json()) as { checks: { name: string; ok: boolean }[] };
      expect(body.checks.find((c) => c.name === 'database')).toEqual({ name: 'database', ok: true });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('names a data_dir that is a file, with its own code', async () => {
    const w = workspace('file');
    writeFileSync(w.data, 'not a directory');
    await expect(start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log })).rejects.toMatchObject({ code: 'STORE_NOT_A_DIRECTORY' });
  });
});

describe('the last resort', () => {
  it('an uncaught error stops the daemon cleanly, is recorded, and exits 75 for the service manager to restart', async () => {
    const w = workspace('fatal');
    const file = join(w.dir, 'c.yaml');
    writeFileSync(
      file,
      `data_dir: ${w.data}\nstrategies_dir: ${w.dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: fatal }\nlog: { format: json }\n`,
    );
    let fire: ((error: unknown) => void) | undefined;
    let unsubscribed = false;
    let started!: () => void;
    const up = new Promise<void>((resolve) => (started = resolve));
    const run = jupbot(['run', '--config', file], {
      clock: new ManualClock(Date.UTC(2026, 10, 24)),
      // run subscribes once the daemon has started.
      onFatal: (listener) => {
        fire = listener;
        started();
        return () => (unsubscribed = true);
      },
    });
    await up;
    fire?.(new Error('boom in a timer'));
    const result = await run;
    expect(result.code).toBe(75);
    expect(result.stderr).toContain('stopped after an uncaught error: boom in a timer');
    expect(unsubscribed).toBe(true);
    const db = new Database(join(w.data, 'jupbot-paper.sqlite'), { readonly: true });
    const stopped = db.prepare("SELECT data FROM actions WHERE kind = 'daemon.stopped'").get() as { data: string };
    db.close();
    expect(JSON.parse(stopped.data)).toMatchObject({ reason: 'uncaught error: boom in a timer' });
  });

  it('a clean stop records and says which intents it left for the next start', async () => {
    const w = workspace('unfinished');
    const daemon = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
    // Journaled as a decision would be, the instant before the signal: nothing drives it before the stop.
    daemon.engine.trading.journal.plan({ id: 'late/run/1', kind: 'swap', strategy: 'late', params: { amount: '1' } });
    await daemon.stop('operator stop');
    const db = new Database(join(w.data, 'jupbot-paper.sqlite'), { readonly: true });
    const stopped = db.prepare("SELECT data FROM actions WHERE kind = 'daemon.stopped'").get() as { data: string };
    const state = db.prepare("SELECT state FROM intents WHERE id = 'late/run/1'").get() as { state: string };
    db.close();
    expect(state.state).toBe('planned');
    expect(JSON.parse(stopped.data)).toMatchObject({ reason: 'operator stop', unfinished: { planned: 1 } });
    const line = w.out.lines().find((l) => String(l['msg']).startsWith('jupbot stopped'));
    expect(line?.['msg']).toBe('jupbot stopped: operator stop; 1 intent left unfinished (1 planned): the next start resolves it');
    expect(line?.['unfinished']).toEqual({ planned: 1 });
  });
});

describe('notifications', () => {
  it('tells the webhooks when the daemon starts and stops, scrubbed of secrets like the logs', async () => {
    const w = workspace('notify');
    const config = parseConfigText(
      `data_dir: ${w.data}\nstrategies_dir: ${w.dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: notify }\nnotify:\n  webhooks:\n    - kind: generic\n      url: https://hooks.example.com/jupbot\n`,
      join(w.dir, 'c.yaml'),
      {},
      w.dir,
    );
    const posted: string[] = [];
    const fetch = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      posted.push(typeof init?.body === 'string' ? init.body : '');
      return Promise.resolve(new Response('{}', { status: 200 }));
    };
    const redactor = new Redactor();
    redactor.add('sk-live-SECRET-0123456789');
    const daemon = await start(config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log, redactor, fetch: fetch });
    await daemon.stop('operator said sk-live-SECRET-0123456789 by mistake');
    const texts = posted.map((p) => (JSON.parse(p) as { text: string }).text);
    expect(texts[0]).toBe(`jupbot: daemon started: paper mode, wallet ${daemon.engine.wallet}`);
    expect(texts[1]).toMatch(/^jupbot: daemon stopped: operator said .*by mistake$/);
    expect(posted.join('\n')).not.toContain('sk-live-SECRET-0123456789');
  });
});

describe('exit codes the service manager keys on', () => {
  it('run exits 73 for a data_dir another daemon holds, and 74 for a data_dir that is a file', async () => {
    const w = workspace('exits');
    const first = await start(w.config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: w.log });
    daemons.push(first);
    const file = join(w.dir, 'c.yaml');
    writeFileSync(file, `data_dir: ${w.data}\nstrategies_dir: ${w.dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\n`);
    const second = await jupbot(['run', '--config', file]);
    expect(second.code).toBe(73);
    expect(second.stderr).toContain(`in use by another jupbot (pid ${process.pid})`);
    const asFile = join(w.dir, 'plain-file');
    writeFileSync(asFile, 'x');
    writeFileSync(file, `data_dir: ${asFile}\nstrategies_dir: ${w.dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\n`);
    const notDir = await jupbot(['run', '--config', file]);
    expect(notDir.code).toBe(74);
    expect(notDir.stderr).toContain('data_dir is not a directory');
  });
});
