/**
 * Overlap warnings: `jupbot validate` and `jupbot plan` name two enabled strategies managing the same
 * token, each with what it would do, on stderr and with the exit code unchanged; the daemon's
 * strategy scan logs the same warning once.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { StrategyWatcher } from '../../../src/engine/strategyWatcher.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';
import { jupbot, repoRoot } from '../../support/cli.js';

const SOL = 'So11111111111111111111111111111111111111112';
const takeProfit = 'name: sol-tp\nkind: price-order\nsell: SOL\namount: "2"\ntake_profit:\n  - at: "200"\nstop_loss:\n  at: "120"\n';
// The same token named by its mint: still the same token.
const trailing = `name: sol-trail\nkind: price-order\nsell: ${SOL}\namount: "50%"\nexecution: local\ntrailing_stop:\n  distance: "10%"\n`;
const bonk = 'name: bonk-stop\nkind: price-order\nsell: BONK\namount: "1000"\nstop_loss:\n  at: "0.00001"\n';
const dca = 'name: sol-dca\nkind: dca\nbuy: SOL\namount: "25"\nschedule:\n  cron: "0 9 * * *"\n  timezone: UTC\n';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jupbot-overlaps-'));
  mkdirSync(join(dir, 's'));
  writeFileSync(join(dir, 'c.yaml'), 'mode: paper\nstrategies_dir: s\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (files: Record<string, string>): void => {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 's', name), text);
};

const WARNING = [
  "warning: sol-tp and sol-trail overlap: both sell SOL: each sizes its exits from the same SOL balance, so together they may sell more than the wallet holds or find it locked in the other's orders",
  '  sol-tp (s/tp.yaml): sells 2 SOL for USDC (take-profit at 200; stop loss at 120; vault orders)',
  '  sol-trail (s/trail.yaml): sells 50% of the SOL balance for USDC (trailing stop 10% below the peak; watched locally, swapped)',
];

describe('overlap warnings', () => {
  it('validate names both strategies and what each would do, exit 0', async () => {
    write({ 'tp.yaml': takeProfit, 'trail.yaml': trailing, 'dca.yaml': dca });
    const run = await jupbot(['validate', '--config', 'c.yaml'], { cwd: dir });
    expect(run.code).toBe(ExitCode.Ok);
    expect(run.stdout).toContain('ok: s/trail.yaml (sol-trail, price-order)');
    // The DCA buys SOL: it adds to what the exits sell, and is no overlap.
    expect(run.stderr.trimEnd().split('\n')).toEqual(WARNING);
  });

  it('plan prints the same warning, exit 0', async () => {
    write({ 'tp.yaml': takeProfit, 'trail.yaml': trailing });
    const run = await jupbot(['plan', '--config', 'c.yaml'], { cwd: dir });
    expect(run.code).toBe(ExitCode.Ok);
    expect(run.stdout).toContain('sol-trail (price-order) — s/trail.yaml');
    expect(run.stderr.trimEnd().split('\n')).toEqual(WARNING);
  });

  it('says nothing for disjoint strategies, nor for a disabled one', async () => {
    write({ 'tp.yaml': takeProfit, 'bonk.yaml': bonk, 'dca.yaml': dca, 'trail.yaml': trailing.replace('kind:', 'enabled: false\nkind:') });
    for (const command of ['validate', 'plan']) {
      const run = await jupbot([command, '--config', 'c.yaml'], { cwd: dir });
      expect([command, run.code, run.stderr]).toEqual([command, ExitCode.Ok, '']);
    }
  });

  it('says nothing for the demo strategies', async () => {
    for (const command of ['validate', 'plan']) {
      const run = await jupbot([command, '--config', 'config/default.yaml']);
      expect([command, run.code, run.stderr]).toEqual([command, ExitCode.Ok, '']);
    }
  });

  it('the daemon’s scan of the demo strategies logs no overlap', async () => {
    const warnings: string[] = [];
    const watcher = new StrategyWatcher({
      dir: join(repoRoot, 'strategies'),
      cwd: repoRoot,
      clock: new ManualClock(Date.UTC(2026, 5, 1)),
      intervalMs: 5_000,
      search: paperTokenSearch,
      limits: DEFAULT_STRATEGY_LIMITS,
      log: { debug: () => undefined, info: () => undefined, warn: (_obj: object, msg: string) => warnings.push(msg) },
    });
    await watcher.poll();
    expect(watcher.active.size).toBe(7);
    expect(warnings).toEqual([]);
  });

  it('the daemon’s strategy scan logs an overlap once, and again only after it went away and came back', async () => {
    write({ 'tp.yaml': takeProfit, 'trail.yaml': trailing });
    const warnings: { obj: object; msg: string }[] = [];
    const log = { debug: () => undefined, info: () => undefined, warn: (obj: object, msg: string) => warnings.push({ obj, msg }) };
    const watcher = new StrategyWatcher({
      dir: join(dir, 's'),
      cwd: dir,
      clock: new ManualClock(Date.UTC(2026, 5, 1)),
      intervalMs: 5_000,
      search: paperTokenSearch,
      limits: DEFAULT_STRATEGY_LIMITS,
      log,
    });
    await watcher.poll();
    await watcher.poll();
    expect(warnings).toEqual([
      {
        obj: { overlap: `sell:${SOL}|sol-tp|sol-trail`, strategies: ['sol-tp', 'sol-trail'] },
        msg: `${WARNING[0]?.replace('warning: ', '')}; ${WARNING[1]?.trim()}; ${WARNING[2]?.trim()}`,
      },
    ]);
    unlinkSync(join(dir, 's', 'trail.yaml'));
    await watcher.poll();
    write({ 'trail.yaml': trailing });
    await watcher.poll();
    expect(warnings).toHaveLength(2);
  });
});
