/**
 * The control commands with no daemon running: the change is recorded in the database under the
 * data directory's lock, and the next start follows it; a halt that cancels starts the daemon's own
 * composition in its one-shot mode (no strategy decides) and stops once nothing is left. A daemon
 * that holds the lock without answering on its socket is said to be unreachable, and nothing changes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { lockDataDir } from '../../../src/store/dataDirLock.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('control commands with no daemon running', () => {
  it('record the change in the database for the next start; a cancelling halt runs the controls once; a silent lock holder is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jb-offline-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    const text = `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nlock_dir: ${dir}/locks\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: offline }\n`;
    const configFile = join(dir, 'config.yaml');
    writeFileSync(configFile, text);
    const config = parseConfigText(text, configFile, {}, dir);
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
    const cli = (args: string[]): ReturnType<typeof jupbot> => jupbot([...args, '--config', configFile], { clock });
    const log = createLogger({ destination: new MemoryStream() });

    // Paper mode before its first run has no world: nothing to halt, and nothing written.
    const early = await cli(['halt']);
    expect(early.code).toBe(7);
    expect(early.stderr).toContain('paper mode has no world');

    const first = await start(config, { clock, log });
    await first.stop('first run over');

    const halt = await cli(['halt', '--reason', 'maintenance']);
    expect(halt.stderr).toBe('');
    expect(halt.code).toBe(0);
    expect(halt.stdout).toContain('recorded by the database (no daemon is running; the next start follows it)');
    expect(halt.stdout).toMatch(/^HALTED since .+ by .+: maintenance$/m);

    const cancel = await cli(['halt', '--cancel-orders', '--wait', '1m']);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain('no daemon is running: starting it to cancel and sell only (no strategy decides), until nothing is left');
    expect(cancel.stdout).toContain('nothing left: no live order of ours');

    // Not waiting: recorded, for the next start to act on.
    const close = await cli(['halt', '--close-positions', '--wait', '0']);
    expect(close.code).toBe(0);
    expect(close.stdout).toContain('not waited for: the next start of the daemon cancels and sells before anything else');

    const second = await start(config, { clock, log });
    try {
      expect(second.engine.control.status().halted).toMatchObject({ reason: 'maintenance', cancelOrders: true, closePositions: true });
      const started = second.store.db.prepare("SELECT count(*) AS n FROM actions WHERE kind = 'daemon.started'").get() as { n: number };
      // The first run, the one-shot run of the controls, and this one.
      expect(started.n).toBe(3);
    } finally {
      await second.stop('second run over');
    }

    // The lock is held (by this very process here) and nothing answers on the socket.
    const typo = await cli(['pause', 'Not A Name']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('not a strategy name');

    const lock = lockDataDir(config.data_dir);
    try {
      const silent = await cli(['pause', 'dca-jup']);
      expect(silent.code).toBe(7);
      expect(silent.stderr).toMatch(
        /is in use by another jupbot \(pid \d+\).*; but its control socket .*control\.sock does not answer \(ENOENT\): nothing was changed/,
      );
    } finally {
      lock.release();
    }
    const resume = await cli(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('not halted: strategies decide');
  }, 60_000);
});
