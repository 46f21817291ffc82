/**
 * The gate a live start passes (preflight/startGate.ts, requirePreflight.ts): which recorded
 * preflights let it trade, and which changes of the config call for a new one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { JupbotError } from '../../../src/errors.js';
import { createLogger } from '../../../src/ops/log.js';
import { requirePreflight } from '../../../src/preflight/requirePreflight.js';
import { fingerprintHash, startFingerprint, type StartFingerprint } from '../../../src/preflight/startFingerprint.js';
import { preflightVerdict } from '../../../src/preflight/startGate.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openStore } from '../../../src/store/migrate.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { tempDir, track } from '../store/helpers.js';

const WALLET = 'Ep6kzuGSrs6dzFEmD1HUbPUgZYCCQ8hnkFoT3HuVXQyq';
const OTHER_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const CHECK = 'jupbot live check --config /etc/jupbot/live.yaml';
const config = {
  mode: 'live' as const,
  data_dir: '/var/lib/jupbot',
  strategies_dir: '/etc/jupbot/strategies',
  api: { base_url: 'https://api.jup.ag' },
  rpc: { url: 'https://rpc.example.com/key-one' },
};

function world(): { db: ReturnType<typeof openStore>['db']; audit: AuditLog; clock: ManualClock } {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 8));
  const { db } = openStore(join(tempDir(), 'jupbot-live.sqlite'), { clock });
  track(db);
  return { db, audit: new AuditLog(db, clock), clock };
}

const record = (audit: AuditLog, kind: string, fingerprint: StartFingerprint, failed: string[] = []): void => {
  audit.append({ kind, data: { fingerprint: { ...fingerprint }, fingerprintHash: fingerprintHash(fingerprint), failed } });
};

const refusal = (verdict: ReturnType<typeof preflightVerdict>): string => (verdict.go ? 'go' : verdict.error.message);

describe('the preflight gate', () => {
  const fingerprint = startFingerprint(config as never, WALLET);

  it('refuses a first live start with no preflight, naming the command', () => {
    const { db } = world();
    expect(refusal(preflightVerdict(db, fingerprint, CHECK))).toBe(
      `no preflight has passed for the live data directory /var/lib/jupbot, and a first live start trades only after one: run \`${CHECK}\`, then start again (or start with --skip-preflight to go without one)`,
    );
  });

  it('lets a data directory that traded before preflights existed go on', () => {
    const { db, audit } = world();
    // Started by a jupbot whose schema (11) predates the gate.
    audit.append({ kind: 'daemon.started', data: { mode: 'live', schemaVersion: 11 } });
    expect(preflightVerdict(db, fingerprint, CHECK)).toEqual({ go: true, via: 'traded-before-preflights', at: null });
  });

  it('a start recorded by this jupbot (a one-shot halt that cancelled, say) does not open the gate', () => {
    const { db, audit } = world();
    audit.append({ kind: 'daemon.started', data: { mode: 'live', schemaVersion: 13, controlsOnly: true } });
    expect(refusal(preflightVerdict(db, fingerprint, CHECK))).toMatch(/^no preflight has passed for the live data directory/);
  });

  it('goes on a pass for the same wallet and directories, however the strategies or the RPC key change', () => {
    const { db, audit, clock } = world();
    record(audit, 'preflight.passed', fingerprint);
    const rotated = startFingerprint({ ...config, rpc: { url: 'https://rpc.example.com/key-two?api-key=x' } } as never, WALLET);
    expect(preflightVerdict(db, rotated, CHECK)).toEqual({ go: true, via: 'passed', at: clock.now() });
  });

  it('refuses once the wallet or the strategies directory changed, naming which', () => {
    const { db, audit } = world();
    record(audit, 'preflight.passed', fingerprint);
    const moved = startFingerprint({ ...config, strategies_dir: '/srv/jupbot/strategies' } as never, OTHER_WALLET);
    expect(refusal(preflightVerdict(db, moved, CHECK))).toBe(
      `the wallet, strategies_dir changed since the preflight passed at 2026-11-02T08:00:00.000Z: run \`${CHECK}\`, then start again (or start with --skip-preflight to go without one)`,
    );
  });

  it('refuses when the latest preflight failed, even after an earlier pass', () => {
    const { db, audit } = world();
    record(audit, 'preflight.passed', fingerprint);
    record(audit, 'preflight.failed', fingerprint, ['funds', 'rpc']);
    expect(refusal(preflightVerdict(db, fingerprint, CHECK))).toMatch(/^the latest preflight, at 2026-11-02T08:00:00\.000Z, failed \(funds, rpc\): run /);
  });

  it('a skip is recorded and warned about, and later starts of the same config go on without the flag', () => {
    const { db, clock } = world();
    const out = new MemoryStream();
    const log = createLogger({ destination: out, clock });
    expect(() => requirePreflight(db, config as never, WALLET, { skip: false, command: CHECK }, { clock, log })).toThrow(JupbotError);
    requirePreflight(db, config as never, WALLET, { skip: true, command: CHECK }, { clock, log });
    const rows = db.prepare("SELECT kind, data FROM actions WHERE kind LIKE 'preflight.%'").all() as { kind: string; data: string }[];
    expect(rows.map((r) => [r.kind, (JSON.parse(r.data) as { fingerprintHash: string }).fingerprintHash])).toEqual([
      ['preflight.skipped', fingerprintHash(fingerprint)],
    ]);
    expect(
      out
        .lines()
        .filter((l) => l['level'] === 'warn')
        .map((l) => String(l['msg']).split(';')[0]),
    ).toEqual(['preflight skipped (--skip-preflight), recorded in the audit log']);
    expect(preflightVerdict(db, fingerprint, CHECK)).toMatchObject({ go: true, via: 'skipped' });
  });

  it('never gates paper or rehearsal starts', () => {
    const { db, clock } = world();
    const log = createLogger({ destination: new MemoryStream(), clock });
    for (const mode of ['paper', 'rehearsal'] as const)
      expect(() => requirePreflight(db, { ...config, mode } as never, WALLET, { skip: false, command: CHECK }, { clock, log })).not.toThrow();
  });
});
