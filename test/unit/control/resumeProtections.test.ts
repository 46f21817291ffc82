/**
 * `jupbot resume --protections`: the operator's clear of an account-wide protection that tripped (a
 * drawdown clears no other way). Through a running daemon's control socket it clears the daemon's
 * own trip (its `/status` and decide loop follow at once); with no daemon running it clears the
 * trips in the database under the data directory's lock. Either way each clear is one
 * `protection.cleared` row naming who asked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { activeTrips, recordTrip } from '../../../src/protections/protectionRecords.js';
import { AuditLog } from '../../../src/store/audit.js';
import type { Db } from '../../../src/store/db.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clearedRows = (db: Db): { name: string; by: string }[] =>
  (db.prepare("SELECT data FROM actions WHERE kind = 'protection.cleared' ORDER BY id").all() as { data: string }[]).map((r) => {
    const data = JSON.parse(r.data) as { name: string; by: string };
    return { name: data.name, by: data.by };
  });

describe('jupbot resume --protections', () => {
  it('clears a tripped drawdown through the running daemon, and in the database when none runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jb-resume-prot-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    const text =
      `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nlock_dir: ${dir}/locks\nhttp: { listen: "127.0.0.1:0" }\n` +
      `sim: { seed: resume-protections }\nprotections: { max_drawdown: 10%, max_exposure_usd: 1000000 }\n`;
    const configFile = join(dir, 'config.yaml');
    writeFileSync(configFile, text);
    const config = parseConfigText(text, configFile, {}, dir);
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
    const cli = (args: string[]): ReturnType<typeof jupbot> => jupbot([...args, '--config', configFile], { clock });
    const log = createLogger({ destination: new MemoryStream() });
    const trip = (db: Db, later = 0): void => {
      expect(recordTrip(db, new AuditLog(db, clock), { name: 'max_drawdown', since: clock.now() + later, pauses: 'buying', data: { figure: '12%' } })).toBe(
        true,
      );
    };

    const daemon = await start(config, { clock, log });
    try {
      const { db } = daemon.store;
      trip(db);
      // A strategy name and --protections do not mix: nothing is sent.
      const mixed = await cli(['resume', 'dca-jup', '--protections']);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toContain('--protections clears account-wide protections');
      expect(activeTrips(db).map((t) => t.name)).toEqual(['max_drawdown']);

      const resumed = await cli(['resume', '--protections']);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('recorded by the running daemon');
      expect(resumed.stdout).toContain('protections cleared: max_drawdown');
      expect(activeTrips(db)).toEqual([]);
      expect(daemon.engine.protections.status().find((p) => p.name === 'max_drawdown')?.tripped).toBeNull();
      const cleared = clearedRows(db);
      expect(cleared.map((r) => r.name)).toEqual(['max_drawdown']);
      expect(cleared[0]?.by).toMatch(/\(uid \d+\)$/);

      // Nothing tripped: said, and nothing written.
      const again = await cli(['resume', '--protections']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('nothing to change');
      expect(again.stdout).toContain('no protection had tripped');
      expect(clearedRows(db)).toHaveLength(1);
      // Tripped again, a minute later (one trip per protection and instant).
      trip(db, 60_000);
    } finally {
      await daemon.stop('test over');
    }

    // No daemon: the trip recorded above is cleared in the database itself.
    const offline = await cli(['resume', '--protections']);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('recorded by the database');
    expect(offline.stdout).toContain('protections cleared: max_drawdown');
    const next = await start(config, { clock, log });
    try {
      expect(activeTrips(next.store.db)).toEqual([]);
      expect(clearedRows(next.store.db).map((r) => r.name)).toEqual(['max_drawdown', 'max_drawdown']);
    } finally {
      await next.stop('test over');
    }
  });
});
