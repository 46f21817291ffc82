/**
 * The daemon's operations server: `/healthz`, `/readyz` (the database's writes first, then the
 * checks it is given), `/metrics`, `/status` (what this daemon is, then the state it is given, the
 * audit chain's head and today's figures) and the live report on `/`.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { reportData } from '../audit/reportData.js';
import { renderReport } from '../audit/reportHtml.js';
import { statusReading } from '../audit/statusFigures.js';
import { statusOrders } from '../audit/statusOrders.js';
import type { Db } from '../store/db.js';
import type { WriteHealth } from '../store/writeHealth.js';
import { version } from '../version.js';
import { databaseReadiness } from './databaseReadiness.js';
import type { Metrics } from './metrics.js';
import type { BoundOpsPort } from './opsPort.js';
import { type OpsServer, type Readiness, readinessOf, type ReadinessCheck, startOpsServer } from './opsServer.js';
import { reusedFor } from './reusedFor.js';
import { type LivePrice, livePrices, priceOfLive, statusBalances, statusClock, type StatusMarket } from './statusMarket.js';

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
  /** The feeds `/status` reads balances and prices from (absent: no balances, orders without distances). */
  readonly market?: StatusMarket | undefined;
  /** The socket the daemon bound before it called anything (opsPort.ts); absent: `http.listen` is bound here. */
  readonly bound?: BoundOpsPort | undefined;
}

/** The server, and what its `/readyz` answers, for the fleet's roster to publish the same health. */
export interface DaemonOpsServer extends OpsServer {
  readiness(): Readiness;
}

export async function startDaemonOpsServer(options: DaemonOpsServerOptions): Promise<DaemonOpsServer> {
  const { config, clock, db, metrics, identity, market } = options;
  const prices = (): Map<string, LivePrice> => (market === undefined ? new Map<string, LivePrice>() : livePrices(market.prices()));
  // Orders, fills and the P&L read the whole history: computed at most every 10 s, however often
  // asked. Balances, prices and the orders' distances are read from memory at each request.
  const reading = reusedFor(10_000, clock, () => statusReading(db, clock.now(), new Map([...prices()].map(([mint, p]) => [mint, p.usd]))));
  const checks = [databaseReadiness(db, options.file, options.writes), ...options.checks];
  const server = await startOpsServer({
    listen: config.http.listen,
    bound: options.bound,
    clock,
    checks,
    metrics,
    onRefused: metrics.opsRefused,
    // The live report: the same page as `jupbot report`, read from the daemon's own connection. It
    // verifies the whole chain, synchronously: rendered at most once per refresh, however many
    // browsers ask, so the page costs the decide loop one rendering per refresh at most.
    pages: { '/': reusedFor(LIVE_REPORT_MS, clock, () => renderReport(reportData(db, clock.now()), { refreshSeconds: LIVE_REPORT_MS / 1000 })) },
    documents: {
      '/status': (): Record<string, unknown> => {
        const { figures, orderRows } = reading();
        const priceOf = priceOfLive(prices());
        return {
          version,
          mode: config.mode,
          instanceId: identity.instanceId,
          startedAt: identity.startedAt,
          schemaVersion: identity.schemaVersion,
          simulator: identity.simulator,
          ...options.status(),
          audit: options.auditHead(),
          clock: statusClock(config.mode, clock),
          ...(market === undefined ? {} : { balances: statusBalances(market.balances(), priceOf, market.tokenName) }),
          ...figures,
          orders: statusOrders(orderRows, priceOf),
        };
      },
    },
  });
  return { url: server.url, close: () => server.close(), readiness: () => readinessOf(checks) };
}
