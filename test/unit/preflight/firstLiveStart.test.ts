/**
 * A first live start, as an operator makes it: config/live.example.yaml copied, a key in place.
 * Until a preflight passed, `jupbot run` exits 79 having asked nothing of the network; `jupbot live
 * check` against the simulator standing in for Jupiter and the node passes and records it; the next
 * `run` starts (and trades nothing: the example's strategies directory is empty).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/db.js';
import { liveWorkspace } from './liveWorkspace.js';

const kinds = (file: string): string[] => {
  const db = openDatabase(file, { readonly: true });
  try {
    return (db.prepare("SELECT kind FROM actions WHERE kind LIKE 'preflight.%' OR kind LIKE 'daemon.%' ORDER BY id").all() as { kind: string }[]).map(
      (r) => r.kind,
    );
  } finally {
    db.close();
  }
};

describe('a first live start of config/live.example.yaml', () => {
  it('is refused with 79 before any request until live check passed, then starts', async () => {
    const w = liveWorkspace();
    const refused = await w.run(['run', '--config', 'config/live.yaml']);
    expect(refused.code).toBe(79);
    expect(w.requests).toEqual([]);
    expect(refused.stderr).toBe(
      `jupbot: no preflight has passed for the live data directory ${w.dataDir}, and a first live start trades only after one: run \`jupbot live check --config config/live.yaml\`, then start again (or start with --skip-preflight to go without one)\n`,
    );

    const check = await w.run(['live', 'check', '--config', 'config/live.yaml']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    const lines = check.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      'ok      data directory',
      'ok      key',
      'ok      ops port',
      'ok      api key',
      'ok      rpc',
      'ok      funds',
      'ok      strategies',
      'preflight passed, recorded in ' + join(w.dataDir, 'jupbot-live.sqlite'),
    ]);
    expect(lines[5]).toBe(`ok      funds: ${w.wallet} holds 2 SOL (at least 0.05 for fees and new token accounts); no other token`);
    expect(lines[4]).toMatch(/^ok {6}rpc: https:\/\/api\.mainnet-beta\.solana\.com answers, block height \d+, mainnet-beta$/);
    expect(kinds(join(w.dataDir, 'jupbot-live.sqlite'))).toEqual(['preflight.passed']);

    const asked = w.requests.length;
    expect(asked).toBeGreaterThan(0);
    const stop = new AbortController();
    const started = await w.run(['run', '--config', 'config/live.yaml'], {
      shutdown: stop.signal,
      onStdout: (text) => {
        if (text.includes('jupbot started in LIVE mode')) stop.abort(new Error('test over'));
      },
    });
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toContain('preflight passed at 2026-11-02T08:00:00.000Z for this wallet and config: trading');
    expect(w.requests.length).toBeGreaterThan(asked);
    expect(kinds(join(w.dataDir, 'jupbot-live.sqlite'))).toEqual(['preflight.passed', 'daemon.started', 'daemon.stopped']);
    // Nothing to trade: the example's strategies directory holds only its README.
    expect(existsSync(join(w.strategies, 'README.md'))).toBe(true);
    expect(started.stdout).toContain('no valid strategy in strategies_dir');
  }, 60_000);
});
