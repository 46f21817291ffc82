/**
 * The daemon's own composition root (startEngine, src/engine/engine.ts) over the in-process
 * simulator on a ManualClock and a real SQLite file: the same clients, guard, Trigger login, feeds,
 * journal, executor, reconciliation, decide loop and mirror syncs the daemon runs, with the
 * strategies written to a strategies directory for its watcher. Only the sockets differ: the Jupiter
 * client and the RPC talk to `sim.dispatch` in process (the operations server listens on a free
 * loopback port), and no lock is taken.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseConfigText } from '../../../../src/config/loadConfig.js';
import type { DaemonEvents } from '../../../../src/daemonEvents.js';
import { type Engine, startEngine } from '../../../../src/engine/engine.js';
import type { Executor } from '../../../../src/engine/executor/executor.js';
import type { FeedSet } from '../../../../src/engine/feeds/feedSet.js';
import type { TickEvents, TickLoop } from '../../../../src/engine/tick/tickLoop.js';
import { createLogger, type Logger } from '../../../../src/ops/log.js';
import { Redactor } from '../../../../src/ops/redact.js';
import { createRandom } from '../../../../src/random.js';
import type { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import type { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';
import { track } from '../../store/helpers.js';
import { simFetch } from '../../../support/simFetch.js';
import type { TestWorld as World } from '../../../support/testStack.js';

/** Every poll (prices, scores, positions, orders) and the tick share one interval: one advance, one round. */
export const TRADING_INTERVAL = 10_000;

export interface TradingStack {
  /** The composition root's engine (its status, its protections, its operations server). */
  engine: Engine;
  db: Db;
  /** The audit log the engine writes through. */
  audit: AuditLog;
  journal: Journal;
  /** The order mirror, read from the same database. */
  orders: TriggerOrders;
  executor: Executor;
  feeds: FeedSet;
  ticks: TickLoop;
  /** Every tick-loop event, in order. */
  seen: { name: keyof TickEvents; payload: TickEvents[keyof TickEvents] }[];
  /** Writes `strategy` to the strategies directory and has the watcher rescan it: a hot reload, at once. */
  edit(strategy: LoadedStrategy): Promise<void>;
  /** Advances the clock one interval at a time until `n` more ticks have run (feeds poll on the way). */
  tick(n?: number): Promise<TickEvents['tick'][]>;
  /** Stops everything as the daemon's stop does, then closes the database (a process end). */
  stop(): Promise<void>;
}

export interface TradingStackOptions {
  /** The engine's logger (default: silent). */
  readonly log?: Logger;
  /** Wraps what the clients talk to the simulator through: a test can change what the API answers. */
  readonly jupiterFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  /** More config, as YAML lines after the test's own `poll` line (a `guard` section, say). */
  readonly config?: string;
  /** What the clients talk to the simulator through (a recording one, say). */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Boots a "process" on the world's database file: the composition root with `loaded` as the files
 * of its strategies directory. Resolves once every feed the strategies need has a value and a tick
 * has run on them, so a test starts from a settled state.
 */
export async function startTradingStack(
  w: World,
  loaded: ReadonlyMap<string, LoadedStrategy>,
  intervalMs = TRADING_INTERVAL,
  options: TradingStackOptions = {},
): Promise<TradingStack> {
  const { clock } = w;
  const store = openStore(w.file, { clock });
  const { db } = store;
  track(db);
  const fetch = options.fetch ?? simFetch(w.sim);
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-trading-'));
  const strategiesDir = join(dir, 'strategies');
  mkdirSync(strategiesDir);
  for (const strategy of loaded.values()) writeFileSync(join(strategiesDir, basename(strategy.file)), strategy.text);
  // Every poll and the tick share one interval; the watcher rescans its files far less often.
  const every = `${intervalMs / 1000}s`;
  const config = parseConfigText(
    `mode: paper\nstrategies_dir: "${strategiesDir}"\ndata_dir: "${dir}"\nhttp: { listen: "127.0.0.1:0" }\n` +
      `poll: { prices: ${every}, orders: ${every}, scores: ${every}, positions: ${every}, strategies: 1h }\n${options.config ?? ''}`,
    join(dir, 'trading-test.yaml'),
    {},
    dir,
  );
  const log = options.log ?? createLogger({ level: 'silent', redactor: new Redactor() });
  const engine = await startEngine({
    config,
    clock,
    random: createRandom('trading'),
    log,
    redactor: new Redactor(),
    store: { db, file: w.file, version: store.version, applied: store.applied },
    wallet: w.wallet,
    instanceId: 'trading-test',
    // The world is the test's: nothing to fund, nothing to close.
    paper: { url: 'http://sim.local', seed: 'trading-test', restored: true, fund: () => undefined, close: () => Promise.resolve() },
    events: new TypedEmitter<DaemonEvents>(),
    // The tests move funds from elsewhere on purpose: no other trader to look for.
    watchWallet: false,
    network: options.jupiterFetch ? options.jupiterFetch(fetch) : fetch,
  });
  const { feeds } = engine;
  const { journal, executor, ticks } = engine.trading;
  const seen: TradingStack['seen'] = [];
  for (const name of ['tick', 'planned', 'executed', 'deferred'] as const) ticks.events.on(name, (payload) => seen.push({ name, payload }));
  // Feeds of an area no strategy needs are paused and never poll: the others each have a value, then a tick runs on them.
  const polling = feeds.all.filter((feed) => feed.state().paused === null && feed.state().at === null);
  await Promise.all(polling.map((feed) => feed.events.next('updated')));
  if (ticks.status().ticks === 0) await ticks.events.next('tick');
  await ticks.tick();

  return {
    engine,
    db,
    audit: engine.audit,
    journal,
    orders: new TriggerOrders(db, engine.audit),
    executor,
    feeds,
    ticks,
    seen,
    async edit(strategy) {
      writeFileSync(join(strategiesDir, basename(strategy.file)), strategy.text);
      await engine.strategies.poll();
    },
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
      await engine.stop('test over');
      db.close();
    },
  };
}

/** Rows of one SQL count. */
export function countRows(db: Db, sql: string, ...args: unknown[]): number {
  return (db.prepare(sql).get(...args) as { n: number }).n;
}
