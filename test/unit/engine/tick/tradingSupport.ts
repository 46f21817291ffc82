/**
 * The engine's trading stack, built by the daemon's own startTrading (src/engine/trading.ts) over
 * the in-process simulator on a ManualClock and a real SQLite file, with the feed set engine.ts
 * builds (prices, markets, scores, positions, trading status, price and DCA orders). Only the
 * sockets differ: the Jupiter client and the RPC talk to `sim.dispatch` in process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../../../src/config/loadConfig.js';
import type { Executor } from '../../../../src/engine/executor/executor.js';
import { createFeedSet, type FeedSet } from '../../../../src/engine/feeds/feedSet.js';
import type { TickEvents, TickLoop } from '../../../../src/engine/tick/tickLoop.js';
import { startTrading } from '../../../../src/engine/trading.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { withBearer } from '../../../../src/jupiter/transport.js';
import { createLogger, type Logger } from '../../../../src/ops/log.js';
import { Redactor } from '../../../../src/ops/redact.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import type { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { track } from '../../store/helpers.js';
import { simFetch, type World } from '../executor/support.js';

/** Every poll (prices, scores, positions, orders) and the tick share one interval: one advance, one round. */
export const TRADING_INTERVAL = 10_000;

export interface TradingStack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  orders: TriggerOrders;
  executor: Executor;
  feeds: FeedSet;
  ticks: TickLoop;
  /** Every tick-loop event, in order. */
  seen: { name: keyof TickEvents; payload: TickEvents[keyof TickEvents] }[];
  /** Advances the clock one interval at a time until `n` more ticks have run (feeds poll on the way). */
  tick(n?: number): Promise<TickEvents['tick'][]>;
  /** Stops everything as startTrading's stop() does, then closes the database (a process end). */
  stop(): Promise<void>;
}

/** engine.ts's `mintsInUse` / `marketsInUse` / `eventsInUse` (not exported there). */
function interest(strategies: ReadonlyMap<string, LoadedStrategy>): { mints: string[]; markets: string[]; events: string[] } {
  const mints = new Set<string>();
  const markets = new Set<string>();
  const events = new Set<string>();
  for (const { spec, tokens } of strategies.values()) {
    for (const token of Object.values(tokens)) if (token) mints.add(token.mint);
    if (spec.kind === 'prediction-exit' && spec.positions.market !== undefined) markets.add(spec.positions.market);
    if (spec.kind === 'prediction-exit' && spec.positions.event !== undefined) events.add(spec.positions.event);
  }
  return { mints: [...mints].sort(), markets: [...markets].sort(), events: [...events].sort() };
}

/**
 * Boots a "process" on the world's database file and starts trading: feeds first (engine.ts starts
 * them before startTrading), then everything startTrading starts. Resolves once every feed has a
 * value and the first tick has run, so a test starts from a settled state.
 */
export interface TradingStackOptions {
  /** The engine's logger (default: silent). */
  readonly log?: Logger;
  /** Wraps the Jupiter client's fetch: a test can change what the API answers. */
  readonly jupiterFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  /** More config, as YAML lines after the test's own `poll` line (a `guard` section, say). */
  readonly config?: string;
  /** What the clients talk to the simulator through (a recording one, say). */
  readonly fetch?: typeof globalThis.fetch;
}

export async function startTradingStack(
  w: World,
  loaded: ReadonlyMap<string, LoadedStrategy>,
  intervalMs = TRADING_INTERVAL,
  options: TradingStackOptions = {},
): Promise<TradingStack> {
  const { clock } = w;
  const { db } = openStore(w.file, { clock });
  track(db);
  const audit = new AuditLog(db, clock);
  const fetch = options.fetch ?? simFetch(w.sim);
  // A generous rate: the limiter would otherwise park polls on the manual clock between advances.
  const client = createJupiterClient({
    baseUrl: 'http://sim.local',
    apiKey: 'trading-test-key',
    requestsPerSecond: 1000,
    clock,
    random: createRandom('trading'),
    fetch: options.jupiterFetch ? options.jupiterFetch(fetch) : fetch,
  });
  const authed = withBearer(client, () => Promise.resolve(w.sim.control.triggerToken(w.wallet.address)));
  const abort = new AbortController();

  // engine.ts: the feed set, started before trading.
  const uses = (): ReturnType<typeof interest> => interest(loaded);
  const feeds = createFeedSet({
    client,
    authed,
    clock,
    poll: { prices: intervalMs, scores: intervalMs, positions: intervalMs, orders: intervalMs },
    wallet: w.wallet.address,
    mints: () => uses().mints,
    eventIds: () => uses().events,
    marketIds: () => uses().markets,
  });
  const firstValues = Promise.all(feeds.all.map((f) => f.events.next('updated')));
  feeds.start(abort.signal);

  // The daemon's own composition from here on; every poll and the tick share one interval.
  const seconds = intervalMs / 1000;
  const config = parseConfigText(
    `poll: { prices: ${seconds}s, orders: ${seconds}s }\n${options.config ?? ''}`,
    'trading-test.yaml',
    {},
    mkdtempSync(join(tmpdir(), 'jupbot-trading-')),
  );
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock, fetch });
  const signer = createRpcGuardedSigner({ wallet: w.wallet, audit, rpc, clock });
  const log = options.log ?? createLogger({ level: 'silent', redactor: new Redactor() });
  await firstValues;
  const trading = startTrading({
    config,
    clock,
    log,
    db,
    audit,
    client,
    authed,
    execution: { signer },
    wallet: w.wallet.address,
    rpc,
    strategies: () => loaded,
    feeds,
  });
  const { journal, executor, ticks } = trading;
  const orders = new TriggerOrders(db, audit);

  const seen: TradingStack['seen'] = [];
  for (const name of ['tick', 'planned', 'executed', 'deferred'] as const) ticks.events.on(name, (payload) => seen.push({ name, payload }));
  await ticks.events.next('tick');

  return {
    db,
    audit,
    journal,
    orders,
    executor,
    feeds,
    ticks,
    seen,
    async tick(n = 1) {
      const out: TickEvents['tick'][] = [];
      for (let i = 0; i < n; i++) {
        const next = ticks.events.next('tick');
        await clock.advance(intervalMs);
        out.push(await next);
      }
      return out;
    },
    async stop() {
      await trading.stop();
      abort.abort(new Error('engine stopping'));
      await feeds.done;
      db.close();
    },
  };
}

/** Rows of one SQL count. */
export function countRows(db: Db, sql: string, ...args: unknown[]): number {
  return (db.prepare(sql).get(...args) as { n: number }).n;
}
