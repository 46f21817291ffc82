/**
 * A backtest: the real daemon (strategy loading, decide, the executor, the guard, the journal) in
 * paper mode against the embedded simulator, in process, on a clock that jumps from one wake-up to
 * the next, with the simulator's prices set from a price history as the clock reaches each instant.
 * Vault orders fill in the simulator when the path crosses them, DCA rounds run on schedule, fees and
 * price impact come from the simulator's market model. What the daemon records goes to its own
 * database in the output directory, so `jupbot audit` and `jupbot report` read a backtest as they
 * read a run. Same inputs, same seed: the same trades, byte for byte.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { parse } from 'yaml';
import type { Config } from '../config/config.js';
import { start } from '../daemon.js';
import { JupbotError } from '../errors.js';
import { createLogger } from '../ops/log.js';
import { createRandom } from '../random.js';
import { HttpError } from '../sim/http.js';
import { createSimulator, type Simulator } from '../sim/simulator.js';
import { PAPER_WALLET_FILE } from '../solana/paperWallet.js';
import { databaseFile } from '../store/paths.js';
import { driveTo } from './driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from './inProcessNetwork.js';
import type { PriceHistory, PriceStep } from './priceFile.js';
import { SteppingClock } from './steppingClock.js';

export interface BacktestOptions {
  /** The operator's config: its guard, prediction and session settings apply; mode, paths, polling and notifications are the backtest's. */
  readonly config: Config;
  /** Strategy files to test; by default every file in the config's `strategies_dir`. */
  readonly strategyFiles?: readonly string[] | undefined;
  readonly prices: PriceHistory;
  /** The first instant traded (default: the history's first); prices before it set the opening prices. */
  readonly from?: number | undefined;
  /** The last instant (default: the history's last). */
  readonly to?: number | undefined;
  /** Receives the database, the log, the strategies tested and the paper wallet. Must not hold a backtest already. */
  readonly outDir: string;
  /** The simulated world's seed (prediction games, ids). @default the config's `sim.seed`, else "backtest" */
  readonly seed?: string | undefined;
  /** One platform fee for every pair, in basis points. @default the simulator's schedule by pair (0–50 bps) */
  readonly feeBps?: number | undefined;
  /** Multiplies every token's depth (price impact shrinks as it grows). @default 1 */
  readonly liquidityScale?: number | undefined;
  /** Told each simulated day as it completes (progress). */
  readonly onDay?: ((day: number, of: number) => void) | undefined;
}

export interface BacktestRun {
  readonly database: string;
  /** The strategy files tested, by file name (the strategies' own names are in the database). */
  readonly files: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly seed: string;
  readonly wallet: string;
  /** Price-history keys that named a prediction market the simulated world does not have (their marks were skipped). */
  readonly unknownMarkets: readonly string[];
}

const MINUTE = 60_000;
const clamp = (ms: number, min: number, max: number): number => Math.min(max, Math.max(min, ms));

/** The config the daemon runs the backtest with: the operator's, with the backtest's paths, polling and no outside contact. */
function backtestConfig(config: Config, outDir: string, resolutionMs: number, prediction: boolean): Config {
  // Prices as often as the history has them; orders and scores no faster than a minute. Positions,
  // markets and scores only matter to prediction exits: without one they are read once a day.
  const prices = clamp(resolutionMs || MINUTE, 10_000, 3_600_000);
  const positions = prediction ? prices : 86_400_000;
  return {
    ...config,
    mode: 'paper',
    data_dir: outDir,
    strategies_dir: join(outDir, 'strategies'),
    api: { ...config.api, requests_per_second: 1_000, key: null },
    poll: { prices, orders: Math.max(prices, 2 * MINUTE), positions, scores: Math.max(positions, MINUTE), strategies: 86_400_000 },
    http: { ...config.http, listen: { host: '127.0.0.1', port: 0 } },
    notify: { ...config.notify, webhooks: [] },
    log: { ...config.log, format: 'json' },
    sim: { ...config.sim, speed: 1, port: null },
    // The history is the price file itself: the database keeps an hourly sample, for the report.
    history: { ...config.history, sample_every: Math.max(config.history.sample_every, 3_600_000) },
  };
}

function prepareOutDir(outDir: string, files: readonly string[], seed: string): string {
  if (existsSync(databaseFile(outDir, 'paper')))
    throw new JupbotError('BACKTEST_OUT_EXISTS', `${outDir} already holds a backtest: name another --out, or pass --force to replace it`, {
      details: { outDir },
    });
  mkdirSync(join(outDir, 'strategies'), { recursive: true, mode: 0o700 });
  for (const file of files) copyFileSync(file, join(outDir, 'strategies', basename(file)));
  // A wallet derived from the seed: the same run signs the same transactions. It never holds anything real.
  const key = Keypair.fromSeed(createHash('sha256').update(`${seed}:backtest-wallet`).digest());
  writeFileSync(join(outDir, PAPER_WALLET_FILE), `${JSON.stringify(Array.from(key.secretKey))}\n`, { mode: 0o600 });
  return key.publicKey.toBase58();
}

/** Sets the prices and marks of one step; returns the markets the world does not know. */
function applyStep(sim: Simulator, step: PriceStep, unknown: Set<string>): void {
  for (const point of step.points) {
    if (point.key.startsWith('prediction:')) {
      const [, market, side] = point.key.split(':') as [string, string, 'yes' | 'no'];
      try {
        sim.control.setMark(market, side, Number(point.text));
      } catch (error) {
        // Only a market the world does not have is skipped (and named); anything else is a fault.
        if (!(error instanceof HttpError && error.status === 404)) throw error;
        unknown.add(point.key);
      }
    } else sim.control.setPrice(point.key, Number(point.text));
  }
}

/** A strategy file's `kind` (read, not validated: the daemon loads and reports the file itself). */
function kindOf(file: string): unknown {
  try {
    const doc: unknown = parse(readFileSync(file, 'utf8'));
    return typeof doc === 'object' && doc !== null ? (doc as { kind?: unknown }).kind : undefined;
  } catch {
    return undefined;
  }
}

function strategyFilesOf(options: BacktestOptions): string[] {
  if (options.strategyFiles && options.strategyFiles.length > 0) return [...options.strategyFiles];
  const dir = options.config.strategies_dir;
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestRun> {
  const { prices } = options;
  const first = prices.steps[0] as PriceStep;
  const last = prices.steps[prices.steps.length - 1] as PriceStep;
  const from = options.from ?? first.at;
  const to = options.to ?? last.at;
  if (!(to > from)) throw new RangeError(`a backtest needs --to after --from (from ${new Date(from).toISOString()}, to ${new Date(to).toISOString()})`);
  const seed = options.seed ?? options.config.sim.seed ?? 'backtest';
  const files = strategyFilesOf(options);
  const wallet = prepareOutDir(options.outDir, files, seed);
  const prediction = files.some((file) => kindOf(file) === 'prediction-exit');
  const config = backtestConfig(options.config, options.outDir, prices.resolutionMs, prediction);

  const clock = new SteppingClock(from);
  const net = new InProcessNetwork(clock);
  const marks = prices.keys.some((k) => k.startsWith('prediction:'));
  // The world moves in one-second steps while a prediction strategy may watch a game (scores move
  // second by second); otherwise in minute steps, on the history's own minute grid (prices only move
  // at its instants), which is 60 times less work for the same fills.
  const stepMs = prediction || prices.resolutionMs % MINUTE !== 0 ? 1000 : MINUTE;
  const sim = createSimulator({
    clock: net.simClock(),
    seed,
    stepMs,
    priceWalk: false,
    predictionWalk: !marks,
    gateway: { unlimited: true },
    feeBps: options.feeBps,
    liquidityScale: options.liquidityScale,
  });
  net.connect(sim);
  const unknown = new Set<string>();
  // The opening prices: every step up to `from`, in order, so each token starts at its latest price.
  for (const step of prices.steps) if (step.at <= from) applyStep(sim, step, unknown);

  const logFile = createWriteStream(join(options.outDir, 'backtest.log'), { mode: 0o600 });
  const log = createLogger({ destination: logFile, clock, level: config.log.level });
  const daemon = await start(config, {
    clock,
    log,
    random: createRandom(`${seed}:daemon`),
    network: net.fetch,
    synchronous: 'NORMAL',
    // Its wallet is derived from the seed and trades only in this in-process world: two backtests of one seed may run at once.
    exclusiveWallet: false,
    // Nobody halts a backtest: no socket in its output directory.
    controlChannel: false,
    paperWorld: { url: SIM_ORIGIN, seed, restored: false, fund: (w) => sim.control.paperWallet(w), close: () => Promise.resolve() },
  });
  try {
    const days = Math.ceil((to - from) / 86_400_000);
    let day = 0;
    for (const step of prices.steps) {
      if (step.at <= from) continue;
      if (step.at > to) break;
      // Everything due before this instant runs first; then the prices move; then what is due at the
      // instant itself sees them (a 09:00 DCA run trades at the 09:00 price, not the one before).
      await driveTo(clock, net, step.at - 1);
      await sim.control.advance(0);
      applyStep(sim, step, unknown);
      await driveTo(clock, net, step.at);
      const done = Math.floor((step.at - from) / 86_400_000);
      if (done > day) options.onDay?.((day = done), days);
    }
    await driveTo(clock, net, to);
  } finally {
    await daemon.stop('backtest over');
    await new Promise<void>((resolve) => logFile.end(resolve));
  }
  return {
    database: databaseFile(options.outDir, 'paper'),
    files: files.map((f) => basename(f)),
    from,
    to,
    seed,
    wallet,
    unknownMarkets: [...unknown].sort(),
  };
}

/** Removes a previous backtest's output (`--force`). */
export function clearBacktest(outDir: string): void {
  for (const name of ['strategies', PAPER_WALLET_FILE, 'backtest.log', 'summary.txt', 'summary.json'])
    rmSync(join(outDir, name), { recursive: true, force: true });
  for (const f of existsSync(outDir) ? readdirSync(outDir) : []) if (/\.sqlite(-wal|-shm)?$/.test(f)) rmSync(join(outDir, f), { force: true });
}
