/**
 * The control commands need no secret: under systemd the key is a credential only the service sees
 * (`${CREDENTIALS_DIRECTORY}`) and the API key lives in the unit's environment, so an operator's
 * shell has neither. A halt or pause must still be recorded; only the one-shot run that cancels
 * (a daemon of its own) needs them, and says so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { ControlState } from '../../../src/control/controlState.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openStore } from '../../../src/store/migrate.js';
import { databaseFile } from '../../../src/store/paths.js';
import { jupbot } from '../../support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('control commands with a live config and none of its secrets', () => {
  it('record a halt and a pause; a cancelling halt with no daemon asks for what it lacks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jb-nosecret-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    const configFile = join(dir, 'live.yaml');
    writeFileSync(
      configFile,
      [
        'mode: live',
        `data_dir: ${dir}/data`,
        `strategies_dir: ${dir}/strategies`,
        `lock_dir: ${dir}/locks`,
        'wallet: { keypair_file: "${CREDENTIALS_DIRECTORY}/wallet-key" }',
        'rpc: { url: "https://rpc.example.org" }',
        '',
      ].join('\n'),
    );
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
    // No JUPITER_API_KEY, no CREDENTIALS_DIRECTORY: an operator's shell.
    const cli = (args: string[]): ReturnType<typeof jupbot> => jupbot([...args, '--config', configFile], { clock, env: {} });

    const halt = await cli(['halt', '--reason', 'from my shell']);
    expect(halt.stderr).toBe('');
    expect(halt.code).toBe(0);
    expect(halt.stdout).toContain('recorded by the database (no daemon is running; the next start follows it)');
    const pause = await cli(['pause', 'sol-dca']);
    expect(pause.code).toBe(0);

    const { db } = openStore(databaseFile(`${dir}/data`, 'live'), { clock });
    try {
      expect(new ControlState(db, new AuditLog(db, clock), clock).status()).toMatchObject({
        halted: { reason: 'from my shell', cancelOrders: false },
        paused: [{ strategy: 'sol-dca' }],
      });
    } finally {
      db.close();
    }

    // Cancelling needs a daemon, and a daemon needs the key: the command names what is missing.
    const cancel = await cli(['halt', '--cancel-orders', '--wait', '1m']);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain('CREDENTIALS_DIRECTORY');
    expect(cancel.stdout).toContain('the halt is recorded in the database; the cancels and sales need the daemon, which cannot start from here:');
  });
});
