/**
 * Whether a live start may trade: the audit log must hold a preflight that passed for this start's
 * fingerprint (startFingerprint.ts), and the latest preflight must not have failed. Asked by the
 * daemon after the locks, the ops port and the database, before anything calls Jupiter or the node.
 *
 * - The latest `preflight.passed` or `preflight.skipped` with the same fingerprint: go.
 * - The latest preflight failed: refused, naming what failed.
 * - A pass for another fingerprint: refused, naming what changed (the wallet, strategies_dir…).
 * - No preflight at all: refused, unless the database already holds a `daemon.started` (a data
 *   directory that traded live before preflights existed goes on as it did, with a line suggesting
 *   the check).
 *
 * `--skip-preflight` starts anyway where this would refuse, and records `preflight.skipped` with
 * the fingerprint: the operator accepted this configuration, so later starts with the same
 * fingerprint (a restart by the service manager, which passes no flag) go on too.
 */
import { z } from 'zod';
import { JupbotError } from '../errors.js';
import type { Db } from '../store/db.js';
import { changedFields, fingerprintHash, type StartFingerprint } from './startFingerprint.js';

export const PREFLIGHT_KINDS = ['preflight.passed', 'preflight.failed', 'preflight.skipped'] as const;
export type PreflightKind = (typeof PREFLIGHT_KINDS)[number];

/** What a preflight row's data holds that the gate reads. */
const PreflightData = z.looseObject({
  fingerprint: z.looseObject({}).optional(),
  fingerprintHash: z.string().optional(),
  failed: z.array(z.string()).optional(),
});

export type GateVerdict =
  | { readonly go: true; readonly via: 'passed' | 'skipped'; readonly at: number }
  | { readonly go: true; readonly via: 'traded-before-preflights'; readonly at: null }
  | { readonly go: false; readonly error: JupbotError };

const iso = (ms: number): string => new Date(ms).toISOString();

/** The latest preflight row, or null. */
function latestPreflight(db: Db): { kind: PreflightKind; at: number; data: z.output<typeof PreflightData> } | null {
  const row = db
    .prepare(`SELECT kind, at, data FROM actions WHERE kind IN (${PREFLIGHT_KINDS.map(() => '?').join(', ')}) ORDER BY id DESC LIMIT 1`)
    .get(...PREFLIGHT_KINDS) as { kind: PreflightKind; at: number; data: string } | undefined;
  if (row === undefined) return null;
  const parsed = PreflightData.safeParse(JSON.parse(row.data));
  return { kind: row.kind, at: row.at, data: parsed.success ? parsed.data : {} };
}

/**
 * The schema of the first jupbot with the preflight gate. A start recorded under an older schema was
 * a daemon that traded live before preflights existed; a later `daemon.started` proves nothing (a
 * one-shot `halt --cancel-orders` run records one too, and must not open the gate for good).
 */
const FIRST_SCHEMA_WITH_PREFLIGHT = 12;

function startedBefore(db: Db): boolean {
  return (
    db.prepare("SELECT 1 FROM actions WHERE kind = 'daemon.started' AND json_extract(data, '$.schemaVersion') < ? LIMIT 1").get(FIRST_SCHEMA_WITH_PREFLIGHT) !==
    undefined
  );
}

/**
 * The verdict for a live start of `fingerprint` on this database. `check` is the command to run,
 * as the operator would type it (`jupbot live check --config /etc/jupbot/live.yaml`).
 */
export function preflightVerdict(db: Db, fingerprint: StartFingerprint, check: string): GateVerdict {
  const latest = latestPreflight(db);
  const refuse = (why: string): GateVerdict => ({
    go: false,
    error: new JupbotError('PREFLIGHT_REQUIRED', `${why}: run \`${check}\`, then start again (or start with --skip-preflight to go without one)`, {
      details: { dataDir: fingerprint.data_dir },
    }),
  });
  if (latest === null) {
    if (startedBefore(db)) return { go: true, via: 'traded-before-preflights', at: null };
    return refuse(`no preflight has passed for the live data directory ${fingerprint.data_dir}, and a first live start trades only after one`);
  }
  if (latest.kind === 'preflight.failed') {
    const failed = latest.data.failed ?? [];
    return refuse(`the latest preflight, at ${iso(latest.at)}, failed${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`);
  }
  if (latest.data.fingerprintHash !== fingerprintHash(fingerprint)) {
    const changed = changedFields(latest.data.fingerprint ?? {}, fingerprint);
    const what = changed.length > 0 ? changed.join(', ') : 'what it checked';
    return refuse(`${what} changed since the preflight ${latest.kind === 'preflight.passed' ? 'passed' : 'was skipped'} at ${iso(latest.at)}`);
  }
  return { go: true, via: latest.kind === 'preflight.passed' ? 'passed' : 'skipped', at: latest.at };
}
