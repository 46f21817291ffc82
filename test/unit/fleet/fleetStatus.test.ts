/**
 * How `fleet status` judges a roster entry and sums the fleet, without Redis: the states at their
 * boundaries, the exact fixed-point total (losses and figures of another day included), entries that
 * do not read, and the command's answer when no fleet is configured.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { fleetStatus } from '../../../src/fleet/fleetStatus.js';
import { decodeRosterEntry, encodeRosterEntry, type RosterEntry, rosterState } from '../../../src/fleet/rosterEntry.js';
import { fleetStatusText } from '../../../src/cli/fleet.js';
import { jupbot } from '../../support/cli.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0);
const TODAY = '2026-11-27T00:00:00.000Z';

function entry(over: Partial<RosterEntry> = {}): RosterEntry {
  return {
    id: 'live-W1',
    wallet: 'So1WalletAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    mode: 'live',
    version: '1.2.3',
    host: 'h1',
    pid: 42,
    opsUrl: 'http://127.0.0.1:9464',
    startedAt: NOW - 3_600_000,
    heartbeatMs: 15_000,
    beatAt: NOW - 1_000,
    state: 'running',
    stoppedAt: null,
    today: { since: TODAY, realizedUsd: '0.1', trades: 2 },
    openOrders: 1,
    lastFill: null,
    health: { ready: true, reason: null },
    control: { halted: null, paused: [] },
    ...over,
  };
}

describe('rosterState', () => {
  it('is ok until a whole interval passes without a word, then silent; unhealthy says why; a stop is a stop', () => {
    expect(rosterState(entry({ beatAt: NOW - 14_999 }), NOW)).toEqual({ state: 'ok', reason: null });
    expect(rosterState(entry({ beatAt: NOW - 15_000 }), NOW)).toEqual({ state: 'silent', reason: null });
    const sick = entry({ health: { ready: false, reason: 'prices: stale for 45s' } });
    expect(rosterState(sick, NOW)).toEqual({ state: 'unhealthy', reason: 'prices: stale for 45s' });
    // Silent wins over what a daemon said before it went quiet.
    expect(rosterState({ ...sick, beatAt: NOW - 60_000 }, NOW).state).toBe('silent');
    expect(rosterState(entry({ state: 'stopped', stoppedAt: NOW - 3_600_000, beatAt: NOW - 3_600_000 }), NOW)).toEqual({ state: 'stopped', reason: null });
  });
});

describe('the roster hash', () => {
  it('reads back what was written, and says why a damaged one does not read', () => {
    const e = entry({
      lastFill: { at: '2026-11-27T11:00:00.000Z', strategy: 'tp', summary: 'sell 1 SOL for 150 USDC' },
      control: { halted: { since: NOW, reason: 'r', by: 'me' }, paused: ['dca'] },
    });
    expect(decodeRosterEntry(encodeRosterEntry(e))).toEqual({ entry: e });
    expect(decodeRosterEntry({ ...encodeRosterEntry(e), today: '{' })).toMatchObject({ problem: expect.stringMatching(/^a field is not JSON: /) as unknown });
    expect(decodeRosterEntry({ ...encodeRosterEntry(e), mode: 'moon' })).toMatchObject({ problem: expect.stringMatching(/^mode: /) as unknown });
  });
});

describe('fleetStatus', () => {
  it('sums P&L of the day exactly, leaves out figures of another day, and counts every state', () => {
    const doc = fleetStatus(
      {
        entries: [
          entry({ id: 'a', wallet: 'A', host: 'h1', today: { since: TODAY, realizedUsd: '0.1', trades: 1 }, openOrders: 2 }),
          entry({
            id: 'b',
            wallet: 'B',
            host: 'h2',
            today: { since: TODAY, realizedUsd: '0.2', trades: 1 },
            openOrders: 0,
            health: { ready: false, reason: 'database: disk full' },
          }),
          entry({
            id: 'c',
            wallet: 'C',
            host: 'h3',
            today: { since: TODAY, realizedUsd: '-0.300000000000000001', trades: 1 },
            openOrders: 1,
            beatAt: NOW - 20_000,
          }),
          entry({
            id: 'd',
            wallet: 'D',
            host: 'h4',
            today: { since: '2026-11-26T00:00:00.000Z', realizedUsd: '99', trades: 3 },
            openOrders: 4,
            state: 'stopped',
            stoppedAt: NOW - 86_000_000,
          }),
        ],
        unreadable: [{ id: 'x', problem: 'mode: invalid' }],
      },
      { fleet: 'f', redis: 'redis://r:6379/0', now: NOW, size: 6 },
    );
    expect(doc.daemons.map((d) => [d.id, d.state, d.today.current])).toEqual([
      ['a', 'ok', true],
      ['b', 'unhealthy', true],
      ['c', 'silent', true],
      ['d', 'stopped', false],
    ]);
    // 0.1 + 0.2 - 0.300000000000000001, as floats would never give it.
    expect(doc.total).toEqual({
      daemons: 4,
      ok: 1,
      unhealthy: 1,
      stopped: 1,
      silent: 1,
      realizedUsd: '-0.000000000000000001',
      notToday: 1,
      openOrders: 7,
      expected: 6,
      missing: 2,
    });
    const text = fleetStatusText(doc);
    expect(text).toContain('fleet f (redis://r:6379/0) as of 2026-11-27T12:00:00Z: 4 daemons, 1 ok, 1 unhealthy, 1 silent, 1 stopped');
    expect(text).toContain('unhealthy (database: disk full)');
    expect(text).toMatch(/^UNHEALTHY: B on h2 \(pid 42, http:\/\/127\.0\.0\.1:9464\): database: disk full$/m);
    expect(text).toMatch(/^SILENT: C on h3 .*: no heartbeat since 2026-11-27T11:59:40Z, expected every 15s$/m);
    expect(text).toContain('— (last: 2026-11-26)');
    expect(text).toContain('UNREADABLE: roster entry x: mode: invalid');
    // Six declared, four listed: a daemon that died before an empty Redis came back is absent, not silent.
    expect(text).toMatch(/^MISSING: fleet\.size is 6 but 4 daemons are listed: 2 have not registered, or their entries were lost with Redis's data/m);
    expect(text).toContain('fleet total: P&L today $0.00 (1 daemon with no figures of today left out), 7 open orders');
  });
});

describe('jupbot fleet status without a fleet', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('says to set fleet.redis, exit 2; a redis_env whose variable is unset says the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jb-nofleet-'));
    dirs.push(dir);
    const plain = join(dir, 'plain.yaml');
    writeFileSync(plain, `data_dir: ${dir}/data\nstrategies_dir: ${dir}\n`);
    const none = await jupbot(['fleet', 'status', '--config', plain], { clock: new ManualClock(NOW) });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      `no fleet in ${plain}: set fleet.redis (or fleet.redis_env, with that variable set in this shell) to the Redis the daemons share\n`,
    );
    const fromEnv = join(dir, 'env.yaml');
    writeFileSync(fromEnv, `data_dir: ${dir}/data\nstrategies_dir: ${dir}\nfleet: { redis_env: FLEET_REDIS }\n`);
    expect((await jupbot(['fleet', 'status', '--config', fromEnv], { clock: new ManualClock(NOW) })).code).toBe(2);
  });
});
