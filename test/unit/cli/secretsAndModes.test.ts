import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openStore } from '../../../src/store/migrate.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { SECRET_BASE58, SECRET_JSON } from '../solana/secretCapture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function live(key: { text?: string; mode?: number } = {}): { dir: string; config: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-secrets-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  const keyFile = join(dir, 'id.json');
  writeFileSync(keyFile, key.text ?? SECRET_JSON);
  chmodSync(keyFile, key.mode ?? 0o600);
  const config = join(dir, 'live.yaml');
  writeFileSync(config, `mode: live\nwallet:\n  keypair_file: ${keyFile}\ndata_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\n`);
  return { dir, config, keyFile };
}

const bytes = (n: number): string => JSON.stringify(Array.from({ length: n }, (_, i) => i % 256));

describe("validate applies start-up's key checks, never printing the key", () => {
  it.each([
    ['mode 0644', { mode: 0o644 }, 'chmod 600'],
    ['malformed JSON', { text: '[1, 2,' }, 'id.json'],
    ['63 bytes', { text: bytes(63) }, '64'],
    ['65 bytes', { text: bytes(65) }, '64'],
  ])('a key file with %s fails validation', async (_label, key, hint) => {
    const w = live(key);
    const run = await jupbot(['validate', '--config', w.config], { cwd: w.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('wallet: ');
    expect(run.stderr).toContain(hint);
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(SECRET_BASE58);
      expect(text).not.toContain(SECRET_JSON);
    }
  });

  it('a good key file passes; a missing API key is a note for run, not a failure', async () => {
    const w = live();
    const run = await jupbot(['validate', '--config', w.config], { cwd: w.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('note: JUPITER_API_KEY is not set: jupbot run will need it');
  });
});

describe('read-only commands need nothing but the files', () => {
  it('audit and plan of a live config run without JUPITER_API_KEY', async () => {
    const w = live();
    const { db } = openStore(join(w.dir, 'data', 'jupbot-live.sqlite'), { clock: new ManualClock() });
    db.close();
    const audit = await jupbot(['audit', 'actions', '--config', w.config], { cwd: w.dir });
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    const plan = await jupbot(['plan', '--config', w.config], { cwd: w.dir });
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('live mode: rules only');
  });
});

describe('paper mode keeps away from a real key, and the start line says where it trades', () => {
  it('ignores JUPBOT_KEYPAIR with a warning, and names PAPER, the paper wallet and the simulator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-key-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    const config = parseConfigText(
      `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: paper-key }\n`,
      join(dir, 'c.yaml'),
      { JUPBOT_KEYPAIR: SECRET_BASE58 },
      dir,
    );
    const out = new MemoryStream();
    const daemon = await start(config, { clock: new ManualClock(Date.UTC(2026, 10, 24)), log: createLogger({ destination: out }) });
    await daemon.stop('checked');
    const real = Keypair.fromSecretKey(bs58.decode(SECRET_BASE58)).publicKey.toBase58();
    expect(daemon.engine.wallet).not.toBe(real);
    expect(out.text).toContain('JUPBOT_KEYPAIR is set but ignored: paper mode signs only with its own paper wallet');
    const line = out.lines().find((l) => String(l['msg']).startsWith('jupbot started'));
    expect(line?.['msg']).toBe(
      `jupbot started in PAPER mode: paper wallet ${daemon.engine.wallet}, simulated Jupiter and Solana at ${daemon.simulator?.url ?? ''}; no real funds, nothing leaves this machine`,
    );
    expect(out.text).not.toContain(SECRET_BASE58);
  });
});
