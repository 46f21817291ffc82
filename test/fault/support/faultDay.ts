/**
 * One simulated day of the whole daemon (`start` from src/daemon.ts, live mode) against a simulator
 * the test owns, on one ManualClock: scripted prices, optionally the seeded fault plan, then a
 * canonical summary of the final state and what the daemon recorded along the way.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Keypair } from '@solana/web3.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { createRandom } from '../../../src/random.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { createSimulator, type Simulator } from '../../../src/sim/simulator.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { openDatabase } from '../../../src/store/db.js';
import { databaseFile } from '../../../src/store/paths.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { planFaults, type FaultClass, type PlannedFault } from './faultPlan.js';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN, type Exchange } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { STRATEGY_FILES } from './strategyFiles.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** 00:30 UTC, so the 4-hourly DCA's first run (04:00) is a plain scheduled one. */
const START = Date.UTC(2026, 0, 1, 0, 30);

/** The price path, as offsets from the start: each level holds for hours, so delayed work sees the same market. */
const PRICE_PATH: readonly { atMs: number; mint: string; usd: number }[] = [
  { atMs: 0, mint: SOL, usd: 150 },
  { atMs: 0, mint: JUP, usd: 0.8 },
  { atMs: 0, mint: USDC, usd: 1 },
  { atMs: 0, mint: BONK, usd: 0.00002 },
  { atMs: 2.5 * HOUR, mint: BONK, usd: 0.000022 },
  { atMs: 8.5 * HOUR, mint: BONK, usd: 0.000024 },
  { atMs: 19.5 * HOUR, mint: BONK, usd: 0.000019 },
  { atMs: 2.5 * HOUR, mint: JUP, usd: 1.25 },
  { atMs: 5.5 * HOUR, mint: SOL, usd: 185 },
  { atMs: 13.5 * HOUR, mint: SOL, usd: 215 },
  { atMs: 17.5 * HOUR, mint: JUP, usd: 1 },
];

export interface DayOptions {
  readonly seed: string;
  readonly faults: boolean;
  /** Simulated length. @default one day */
  readonly lengthMs?: number;
  /** Keep the data directory (database, config, strategies) for inspection. @default false */
  readonly keepDir?: boolean;
}

export interface DayResult {
  readonly wallet: string;
  readonly realMs: number;
  /** The canonical final state: equal between a faulted and a fault-free run. */
  readonly summary: FinalState;
  /** What the daemon left behind about the faults. */
  readonly recorded: Recorded;
  readonly plan: readonly PlannedFault[];
  /** Exchanges a fault hit, by class. */
  readonly hits: Readonly<Record<FaultClass, number>>;
  readonly auditOk: boolean;
  readonly auditChecked: number;
  /** `done` had not settled before the test stopped the daemon. */
  readonly stayedUp: boolean;
  readonly invariants: { supplyMismatches: string[]; negativeBalances: string[] };
}

export interface FinalState {
  readonly balances: Record<string, string>;
  readonly simOrders: unknown[];
  readonly intents: unknown[];
  readonly triggerOrders: unknown[];
  readonly fills: unknown[];
}

export interface Recorded {
  /** Audit actions by kind. */
  readonly actions: Record<string, number>;
  /** `error` actions' messages (first 200 characters), in order. */
  readonly errorMessages: string[];
  /** Non-zero counters from /metrics worth reading here. */
  readonly metrics: Record<string, number>;
  /** Log lines at warn or above, by message (first 120 characters). */
  readonly warnings: Record<string, number>;
  readonly logins: number;
  readonly failedIntents: unknown[];
  /** Webhook notifications the daemon sent, as `category: text`. */
  readonly alerts: string[];
}

/** A fixed hot wallet, so both runs trade from the same address. */
function walletKey(seed: string): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`${seed}:fault-day-wallet`).digest());
}

function configText(dir: string, url: string): string {
  return [
    'mode: live',
    'api:',
    `  base_url: "${url}"`,
    '  requests_per_second: 10',
    '  timeout: 10s',
    `rpc: { url: "${url}/rpc" }`,
    `wallet: { keypair_file: ${join(dir, 'wallet.json')} }`,
    `data_dir: ${join(dir, 'data')}`,
    `strategies_dir: ${join(dir, 'strategies')}`,
    // Coarser than the defaults (prices 10 s, orders 30 s) to keep a day at ~15 s of CPU: prices, and
    // with them balances and ticks, every minute (a price older than 2 min is never acted on); orders,
    // DCA history and reconciliation every 2 min; positions and scores hourly (only the Lakers exit's
    // deficit rule reads scores); the strategies directory once.
    'poll: { prices: 60s, orders: 2m, positions: 1h, scores: 1h, strategies: 1d }',
    'http: { listen: "127.0.0.1:0" }',
    // Alerts go to a webhook the test catches (deps.fetch): outages longer than down_after say so there.
    'notify: { down_after: 5m, webhooks: [{ url: "http://127.0.0.1:9/fault-day-hook", kind: generic }] }',
    // Live mode allows no prediction program until the operator names it; here it is the simulator's stand-in.
    `prediction: { program_ids: [${ProgramId.jupiterPrediction.toBase58()}] }`,
    'log: { level: info }',
    '',
  ].join('\n');
}

export async function runDay(options: DayOptions): Promise<DayResult> {
  const began = performance.now();
  const lengthMs = options.lengthMs ?? DAY;
  // tmpfs when there is one: SQLite's fsyncs on a busy disk would otherwise dominate the run time.
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'jupbot-fault-day-'));
  const clock = new SteppingClock(START);
  const net = new InProcessNetwork(clock, { record: true });
  const sim: Simulator = createSimulator({ clock: net.simClock(), seed: options.seed, priceWalk: false });
  net.connect(sim);
  let daemon: Daemon | undefined;
  const out = new MemoryStream();
  try {
    const key = walletKey(options.seed);
    const keyFile = join(dir, 'wallet.json');
    writeFileSync(keyFile, JSON.stringify([...key.secretKey]), { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    mkdirSync(join(dir, 'strategies'));
    for (const [name, text] of Object.entries(STRATEGY_FILES)) writeFileSync(join(dir, 'strategies', name), text);
    const wallet = key.publicKey.toBase58();
    sim.control.paperWallet(wallet);
    sim.control.fund(wallet, 150_000_000n, JUP);
    sim.control.fund(wallet, 30_000_000n * 100_000n, BONK);

    const plan = options.faults ? planFaults(options.seed) : [];
    const events = schedule(plan, lengthMs);
    for (const p of PRICE_PATH.filter((p) => p.atMs === 0)) sim.control.setPrice(p.mint, p.usd);
    for (const fault of plan) {
      for (const spec of fault.specs) {
        sim.control.injectFault({ ...spec, fromMs: START + fault.atMs + (spec.fromMs ?? 0), untilMs: START + fault.atMs + (spec.untilMs ?? fault.durationMs) });
      }
    }

    const config = parseConfigText(configText(dir, SIM_ORIGIN), join(dir, 'config.yaml'), { JUPITER_API_KEY: 'fault-day-api-key' }, dir);
    const alerts: string[] = [];
    const hook: typeof globalThis.fetch = (_url, init) => {
      const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { event?: string; text?: string };
      alerts.push(`${body.event ?? '?'}: ${(body.text ?? '').slice(0, 160)}`);
      return Promise.resolve(new Response(null, { status: 200 }));
    };
    const running = await start(config, {
      clock,
      log: createLogger({ destination: out, clock }),
      random: createRandom(`${options.seed}:daemon`),
      fetch: hook,
      network: net.fetch,
    });
    daemon = running;
    let stopped = false;
    void running.done.then(() => (stopped = true));

    for (const event of events) {
      await driveTo(clock, net, START + event.atMs);
      // The world catches up to now before a price moves, so the move lands on the same step in both runs.
      await sim.control.advance(0);
      if (event.type === 'price') sim.control.setPrice(event.mint, event.usd);
      else await revokeCurrentJwt(running, sim, net);
    }
    await driveTo(clock, net, START + lengthMs);
    const stayedUp = !stopped;

    const recorded = await readRecorded(running, out);
    await running.stop('fault day over');
    daemon = undefined;
    const file = databaseFile(config.data_dir, config.mode);
    const { summary, auditOk, auditChecked } = readFinalState(file, sim, wallet);
    return {
      wallet,
      realMs: performance.now() - began,
      summary,
      recorded: { ...recorded, ...readAudit(file), alerts },
      plan,
      hits: countHits(net.exchanges),
      auditOk,
      auditChecked,
      stayedUp,
      invariants: sim.control.checkInvariants(),
    };
  } finally {
    await daemon?.stop('test failed');
    if (options.keepDir) process.stderr.write(`fault day ${options.faults ? 'with' : 'without'} faults kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

type DayEvent = { atMs: number; type: 'price'; mint: string; usd: number } | { atMs: number; type: 'revoke' };

function schedule(plan: readonly PlannedFault[], lengthMs: number): DayEvent[] {
  const events: DayEvent[] = [
    ...PRICE_PATH.filter((p) => p.atMs > 0).map((p) => ({ type: 'price' as const, ...p })),
    ...plan.filter((f) => f.cls === 'jwt-revoked').map((f) => ({ type: 'revoke' as const, atMs: f.atMs })),
  ];
  return events.filter((e) => e.atMs < lengthMs).sort((a, b) => a.atMs - b.atMs);
}

/** Revokes the JWT the daemon holds now: every Trigger call still carrying it is refused with 401. */
async function revokeCurrentJwt(daemon: Daemon, sim: Simulator, net: InProcessNetwork): Promise<void> {
  const session = daemon.engine.session;
  if (session === null) throw new Error('the fault day runs in paper mode: it has a Trigger login');
  const token = await session.token();
  await net.settle();
  sim.control.injectFault({
    path: '/trigger/v2/*',
    headers: { authorization: `Bearer ${token}` },
    kind: 'status',
    status: 401,
    body: { error: 'Unauthorized' },
  });
}

function countHits(exchanges: readonly Exchange[]): Record<FaultClass, number> {
  const hits: Record<FaultClass, number> = { '429-storm': 0, '5xx-burst': 0, timeout: 0, 'malformed-json': 0, 'rpc-outage': 0, 'jwt-revoked': 0 };
  for (const x of exchanges) {
    if (x.held) hits.timeout++;
    else if (x.path === '/rpc' && (x.reset || x.status === 503)) hits['rpc-outage']++;
    else if (x.status === 429) hits['429-storm']++;
    else if (x.status >= 500) hits['5xx-burst']++;
    else if (x.status === 401) hits['jwt-revoked']++;
    else if (x.malformed) hits['malformed-json']++;
  }
  return hits;
}

const COUNTERS =
  /^jupbot_(jupiter_429_total|jupiter_retries_total|jupiter_requests_total|feed_failures_total|errors_total|intent_transitions_total|fills_total)\{([^}]*)\} (\d+(?:\.\d+)?)$/;

async function readRecorded(daemon: Daemon, out: MemoryStream): Promise<Pick<Recorded, 'metrics' | 'warnings' | 'logins'>> {
  const metrics: Record<string, number> = {};
  for (const line of (await daemon.metrics.scrape()).split('\n')) {
    const m = COUNTERS.exec(line);
    if (!m || Number(m[3]) === 0) continue;
    // Successful exchanges are not faults: keep only the request series that carry an error code.
    if (m[1] === 'jupiter_requests_total' && /code=""/.test(m[2] as string)) continue;
    metrics[`${m[1]}{${m[2]}}`] = Number(m[3]);
  }
  const warnings: Record<string, number> = {};
  for (const line of out.lines()) {
    if (line['level'] !== 'warn' && line['level'] !== 'error' && line['level'] !== 'fatal') continue;
    const msg = `${String(line['level'])}: ${String(line['msg']).slice(0, 120)}`;
    warnings[msg] = (warnings[msg] ?? 0) + 1;
  }
  return { metrics, warnings, logins: daemon.engine.session?.health().logins ?? 0 };
}

/** What the audit log and the journal say: actions by kind, error messages, intents that did not confirm. */
function readAudit(file: string): Pick<Recorded, 'actions' | 'errorMessages' | 'failedIntents'> {
  const db = openDatabase(file, { readonly: true });
  try {
    const actions: Record<string, number> = {};
    for (const row of db.prepare('SELECT kind, count(*) AS n FROM actions GROUP BY kind ORDER BY kind').all() as { kind: string; n: number }[])
      actions[row.kind] = row.n;
    const errorMessages = (
      db.prepare("SELECT kind, data FROM actions WHERE kind IN ('error', 'intent.failed', 'intent.error') ORDER BY id").all() as {
        kind: string;
        data: string;
      }[]
    ).map((row) => `${row.kind}: ${row.data.slice(0, 200)}`);
    const failedIntents = db
      .prepare(
        "SELECT strategy, rule, kind, state, error_code AS code, substr(error_message, 1, 160) AS message FROM intents WHERE state != 'confirmed' ORDER BY created_at, id",
      )
      .all();
    return { actions, errorMessages, failedIntents };
  } finally {
    db.close();
  }
}

/** The final state in a form that two runs can be compared by: no ids, signatures or timestamps. */
function readFinalState(file: string, sim: Simulator, wallet: string): { summary: FinalState; auditOk: boolean; auditChecked: number } {
  const ledger = sim.control.dumpLedger({ entries: false });
  const orders = sim.control.dumpOrders() as { price: Record<string, unknown>[] };
  const simOrders = orders.price
    .filter((o) => o['userPubkey'] === wallet)
    .map((o) => ({
      orderType: o['orderType'],
      orderState: o['orderState'],
      inputMint: o['inputMint'],
      initialInputAmount: o['initialInputAmount'],
      remainingInputAmount: o['remainingInputAmount'],
      outputMint: o['outputMint'],
      triggerCondition: o['triggerCondition'],
      triggerPriceUsd: o['triggerPriceUsd'],
      outputAmount: o['outputAmount'],
      inputUsed: o['inputUsed'],
    }))
    .sort(byJson);
  const db = openDatabase(file);
  try {
    const verified = verifyAuditChain(db);
    const summary: FinalState = {
      balances: ledger.balances[wallet] ?? {},
      simOrders,
      intents: db
        .prepare(
          "SELECT strategy, rule, kind, state, count(*) AS n FROM intents WHERE state = 'confirmed' GROUP BY strategy, rule, kind, state ORDER BY strategy, rule, kind, state",
        )
        .all(),
      triggerOrders: db
        .prepare(
          'SELECT strategy, family, order_type, state, input_mint, input_amount, remaining_input_amount, input_used, output_mint, output_amount, trigger_condition, trigger_price_usd, tp_price_usd, sl_price_usd FROM trigger_orders',
        )
        .all()
        .sort(byJson),
      fills: db.prepare('SELECT source, strategy, in_mint, in_amount, out_mint, out_amount, fee_mint, fee_amount FROM fills').all().sort(byJson),
    };
    return { summary, auditOk: verified.ok, auditChecked: verified.checked };
  } finally {
    db.close();
  }
}

const byJson = (a: unknown, b: unknown): number => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};
