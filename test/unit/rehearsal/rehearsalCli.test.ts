/**
 * `jupbot run` in rehearsal mode, as an operator runs it before going live: the live config with
 * `mode: rehearsal` and a watched address, over real sockets to the simulator standing in for
 * Jupiter and the chain. The key file the config names cannot be read (it is a directory: live mode
 * refuses the same config for it) and JUPBOT_KEYPAIR holds a key: neither is read, the swaps are
 * judged and filled in the ledger, every log line says REHEARSAL, and the summary, `tx explain
 * --intent` and the audit commands read the rehearsal's database.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createSimulator } from '../../../src/sim/simulator.js';
import type { RequestInput } from '../../../src/sim/worldInput.js';
import { jupbot } from '../../support/cli.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const STEP = 5_000;
const DCA = `name: dca-jup
kind: dca
buy: JUP
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "*/5 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('jupbot run with mode: rehearsal', () => {
  it('reads no key, signs nothing, fills swaps in its ledger and says REHEARSAL on every line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-rehearsal-cli-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    writeFileSync(join(dir, 'strategies', 'dca-jup.yaml'), DCA);
    const keyDir = join(dir, 'not-a-key');
    mkdirSync(keyDir, { mode: 0o700 });
    const clock = new ManualClock(START);
    const writes: RequestInput[] = [];
    const sim = createSimulator({ clock, seed: 'rehearsal-cli', onInput: (input) => input.kind === 'request' && writes.push(input) });
    const served = await sim.listen();
    closers.push(() => served.close());
    const wallet = Keypair.generate().publicKey.toBase58();
    sim.control.paperWallet(wallet);
    const secret = bs58.encode(Keypair.generate().secretKey);
    const config = (mode: string): string =>
      [
        `mode: ${mode}`,
        `api: { base_url: "${served.url}" }`,
        `rpc: { url: "${served.url}/rpc" }`,
        `wallet: { address: ${wallet}, keypair_file: ${keyDir} }`,
        `data_dir: ${dir}/data`,
        `strategies_dir: ${dir}/strategies`,
        `lock_dir: ${dir}/locks`,
        'http: { listen: "127.0.0.1:0" }',
        'log: { format: json }',
        '',
      ].join('\n');
    writeFileSync(join(dir, 'live.yaml'), config('live'));
    writeFileSync(join(dir, 'rehearsal.yaml'), config('rehearsal'));
    const env = { JUPITER_API_KEY: 'rehearsal-cli-key-0123456789', HOME: dir };

    // The key path cannot be read: live mode refuses the config for it.
    const live = await jupbot(['validate', '--config', join(dir, 'live.yaml')], { env: { JUPITER_API_KEY: env.JUPITER_API_KEY, HOME: dir }, cwd: dir });
    expect(live.code).not.toBe(0);
    expect(live.stderr).toContain(`${keyDir}: cannot read the key file (EISDIR)`);

    const shutdown = new AbortController();
    let opsUrl: string | null = null;
    let stdout = '';
    const running = jupbot(['run', '--config', join(dir, 'rehearsal.yaml')], {
      env: { ...env, JUPBOT_KEYPAIR: secret },
      cwd: dir,
      clock,
      shutdown: shutdown.signal,
      onStdout: (text) => {
        stdout += text;
        const started = /"ops":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(text);
        if (started && opsUrl === null) opsUrl = started[1] ?? null;
      },
    });
    while (opsUrl === null) await new Promise((resolve) => setImmediate(resolve));
    const ops: string = opsUrl;
    // Eleven simulated minutes: DCA runs fall due at :05 and :10.
    for (let at = START; at < START + 11 * 60_000; at += STEP) {
      await clock.advance(STEP);
      await (await fetch(`${ops}/healthz`)).text();
    }
    const status = (await (await fetch(`${ops}/status`)).json()) as { mode: string; wallet: string; session: unknown };
    expect([status.mode, status.wallet, status.session]).toEqual(['rehearsal', wallet, null]);
    shutdown.abort(new Error('test over'));
    const run = await running;
    expect(run.code).toBe(0);

    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((l) => !l.msg.startsWith('REHEARSAL: '))).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    expect(stdout).toContain(`wallet.keypair_file (${keyDir}) is not read`);
    const db = new Database(join(dir, 'data', 'jupbot-rehearsal.sqlite'), { readonly: true });
    let swap: string;
    try {
      const swaps = db.prepare("SELECT id FROM intents WHERE kind = 'swap' AND state = 'confirmed' ORDER BY created_at").all() as { id: string }[];
      expect(swaps).toHaveLength(2);
      swap = swaps[0]?.id ?? '';
      expect((db.prepare('SELECT count(*) AS n FROM fills').get() as { n: number }).n).toBe(2);
    } finally {
      db.close();
    }
    // Nothing was signed, executed or sent; the key never reached the log or the database.
    expect(new Set(writes.map((w) => `${w.method} ${w.path}`))).toEqual(new Set(['GET /swap/v2/order']));
    expect(stdout).not.toContain(secret);
    expect(readFileSync(join(dir, 'data', 'jupbot-rehearsal.sqlite')).includes(Buffer.from(secret))).toBe(false);

    const where = ['--config', join(dir, 'rehearsal.yaml')];
    const summary = await jupbot(['rehearsal', 'summary', ...where], { env, cwd: dir });
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain('transactions Jupiter built for the wallet: 2; the guard accepted 2, refused 0');
    expect(summary.stdout).toContain('intents: confirmed 2');
    const explained = await jupbot(['tx', 'explain', '--intent', swap, '--wallet', wallet, '--rpc', `${served.url}/rpc`, ...where], { env, cwd: dir });
    // The bytes and route as Jupiter built them; simulated again now, their blockhash has long expired.
    expect(explained.stdout).toContain('jupiter.shared_accounts_route_v2');
    expect([explained.code, explained.stderr]).toEqual([6, 'guard refused: SIMULATION_FAILED\n']);
    expect(explained.stdout).toContain('"BlockhashNotFound"');
    expect(explained.stdout).toContain('REHEARSAL: the transaction Jupiter built for the watched wallet (never signed), which the guard accepted');
    const trades = await jupbot(['audit', 'trades', ...where], { env, cwd: dir });
    expect(trades.code).toBe(0);
    expect(trades.stderr).toContain("is a rehearsal's: nothing in it was signed or sent");
  }, 120_000);
});
