/**
 * The daemon's operations server: `/healthz`, `/readyz` (the database's writes first, then the
 * checks it is given), `/metrics`, `/status` (what this daemon is, then the state it is given, the
 * audit chain's head and today's figures) and the live report on `/`.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { reportData } from '../audit/reportData.js';
import { renderReport } from '../audit/reportHtml.js';
import { statusFigures } from '../audit/statusFigures.js';
import type { Db } from '../store/db.js';
import type { WriteHealth } from '../store/writeHealth.js';
import { version } from '../version.js';
import { databaseReadiness } from './databaseReadiness.js';
import type { Metrics } from './metrics.js';
import type { BoundOpsPort } from './opsPort.js';
import { startOpsServer, type OpsServer, type ReadinessCheck } from './opsServer.js';
import { reusedFor } from './reusedFor.js';

/** How often the live report refreshes, and how long one rendering is served. */
const LIVE_REPORT_MS = 30_000;

export interface DaemonOpsServerOptions {
  readonly config: Pick<Config, 'http' | 'mode'>;
  readonly clock: Clock;
  /** The daemon's connection: `/status` figures and the live report read it; `/readyz` checks its writes. */
  readonly db: Db;
  readonly file: string;
  readonly writes: WriteHealth;
  readonly metrics: Metrics;
  /** `/readyz` checks after the database's. */
  readonly checks: readonly ReadinessCheck[];
  /** Who is answering: named at the top of `/status`. */
  readonly identity: {
    readonly instanceId: string;
    readonly startedAt: number;
    readonly schemaVersion: number;
    readonly simulator: { readonly url: string; readonly seed: string } | null;
  };
  /** The running parts' state, in `/status` after the identity. */
  readonly status: () => Record<string, unknown>;
  /** The audit chain's head, in `/status`. */
  readonly auditHead: () => unknown;
  /** The socket the daemon bound before it called anything (opsPort.ts); absent: `http.listen` is bound here. */
  readonly bound?: BoundOpsPort | undefined;
}

export async function startDaemonOpsServer(options: DaemonOpsServerOptions): Promise<OpsServer> {
  const { config, clock, db, metrics, identity } = options;
  // Orders, fills and today's P&L read the whole history: computed at most every 10 s, however often asked.
  const figures = reusedFor(10_000, clock, () => statusFigures(db, clock.now()));
  return await startOpsServer({
    listen: config.http.listen,
    bound: options.bound,
    clock,
    checks: [databaseReadiness(db, options.file, options.writes), ...options.checks],
    metrics,
    onRefused: metrics.opsRefused,
    // The live report: the same page as `jupbot report`, read from the daemon's own connection. It
    // verifies the whole chain, synchronously: rendered at most once per refresh, however many
    // browsers ask, so the page costs the decide loop one rendering per refresh at most.
    pages: { '/': reusedFor(LIVE_REPORT_MS, clock, () => renderReport(reportData(db, clock.now()), { refreshSeconds: LIVE_REPORT_MS / 1000 })) },
    documents: {
      '/status': (): Record<string, unknown> => ({
        version,
        mode: config.mode,
        instanceId: identity.instanceId,
        startedAt: identity.startedAt,
        schemaVersion: identity.schemaVersion,
        simulator: identity.simulator,
        ...options.status(),
        audit: options.auditHead(),
        ...figures(),
      }),
    },
  });
}
