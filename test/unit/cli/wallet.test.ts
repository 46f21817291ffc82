import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { CliExit, type CliContext } from '../../../src/cli/context.js';
import { walletCommand } from '../../../src/cli/wallet.js';
import { SECRET_BASE58, SECRET_JSON } from '../solana/secretCapture.js';

// `jupbot wallet` is registered by src/cli/index.ts; here the command runs on its own.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function wallet(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; exit: CliExit | null; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-wallet-cli-'));
  dirs.push(dir);
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, cwd: dir, clock: new ManualClock() };
  let exit: CliExit | null = null;
  try {
    await walletCommand(ctx)
      .exitOverride()
      .parseAsync(
        args.map((a) => a.replace('$DIR', dir)),
        { from: 'user' },
      );
  } catch (error) {
    if (!(error instanceof CliExit)) throw error;
    exit = error;
  }
  return { stdout, stderr, exit, dir };
}

describe('jupbot wallet', () => {
  it('new writes a 0600 paper wallet and prints only its address and file', async () => {
    const run = await wallet(['new', '--file', '$DIR/paper.json']);
    const file = join(run.dir, 'paper.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(run.stdout).toMatch(/^address: [1-9A-HJ-NP-Za-km-z]{32,44}\nfile: .*paper\.json \(mode 600\)\n$/);
    expect(run.stdout).not.toContain(readFileSync(file, 'utf8').trim());
  });

  it('show checks the key file and explains an insecure mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-wallet-cli-'));
    dirs.push(dir);
    const key = join(dir, 'id.json');
    writeFileSync(key, SECRET_JSON);
    chmodSync(key, 0o644);
    const config = join(dir, 'config.yaml');
    writeFileSync(config, `wallet: { keypair_file: ${key} }\n`);
    const bad = await wallet(['show', '--config', config]);
    expect(bad.exit?.exitCode).toBe(1);
    expect(bad.exit?.message).toContain(`chmod 600 ${key}`);
    chmodSync(key, 0o600);
    const good = await wallet(['show', '--config', config]);
    expect(good.exit).toBeNull();
    expect(good.stdout).toContain(`source: ${key} (mode 600)`);
    const fromEnv = await wallet(['show', '--config', config], { JUPBOT_KEYPAIR: SECRET_BASE58 });
    expect(fromEnv.stdout).toContain('source: JUPBOT_KEYPAIR');
    for (const text of [bad.stdout, bad.stderr, bad.exit?.message ?? '', good.stdout, fromEnv.stdout]) {
      expect(text).not.toContain(SECRET_BASE58);
      expect(text).not.toContain(SECRET_JSON);
    }
  });
});
