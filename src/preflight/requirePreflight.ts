/**
 * The daemon's side of the preflight: a live start asks the gate (startGate.ts) and either goes on,
 * saying why in one line, or throws `PREFLIGHT_REQUIRED` (exit 79) before anything is called. A start
 * told to skip the gate that the gate would have refused records `preflight.skipped` and warns; one
 * it lets through goes on as without the flag.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../ops/log.js';
import { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { preflightVerdict } from './startGate.js';
import { fingerprintHash, startFingerprint } from './startFingerprint.js';

export interface PreflightDemand {
  /** `--skip-preflight`: start without one, recorded and warned about. */
  readonly skip: boolean;
  /** The command that records one, as the refusal names it. */
  readonly command: string;
}

/** The check command for a config file, as an operator types it. */
export function liveCheckCommand(configFile: string): string {
  return `jupbot live check --config ${configFile}`;
}

/** Throws `PREFLIGHT_REQUIRED` when a live start may not trade; paper and rehearsal starts are never gated. */
export function requirePreflight(
  db: Db,
  config: Pick<Config, 'mode' | 'data_dir' | 'strategies_dir' | 'api' | 'rpc'>,
  wallet: string,
  demand: PreflightDemand,
  deps: { readonly clock: Clock; readonly log: Logger },
): void {
  if (config.mode !== 'live') return;
  const fingerprint = startFingerprint(config, wallet);
  const verdict = preflightVerdict(db, fingerprint, demand.command);
  // Skipped only when it would refuse: a start the gate lets through needs no skip, and records none.
  if (!verdict.go && demand.skip) {
    const reason = verdict.error.message;
    new AuditLog(db, deps.clock).append({
      kind: 'preflight.skipped',
      data: { fingerprint: { ...fingerprint }, fingerprintHash: fingerprintHash(fingerprint), reason },
    });
    deps.log.warn(
      { preflight: 'skipped', wallet },
      `preflight skipped (--skip-preflight), recorded in the audit log; without it this start would have been refused: ${reason}`,
    );
    return;
  }
  if (!verdict.go) throw verdict.error;
  if (verdict.via === 'traded-before-preflights')
    deps.log.info({ preflight: 'none' }, `this data directory traded live before preflights were recorded: starting; \`${demand.command}\` checks it`);
  else
    deps.log.info(
      { preflight: verdict.via, at: verdict.at },
      `preflight ${verdict.via} at ${new Date(verdict.at).toISOString()} for this wallet and config: trading`,
    );
}
