/**
 * Ops server under a flood (not part of `npm test`): a paper daemon (`start` from src/daemon.ts, the
 * embedded simulator, the system clock) with a history of fills and a DCA strategy, its decide loop
 * ticking every 250 ms (`poll.prices`, which paces it), and 6,000 concurrent clients at `/`, `/status`
 * and `/metrics` (a third each), one connection per client. Prints:
 *
 * - the clients' outcomes: HTTP status counts, errors by code (ECONNRESET: the server closed the
 *   connection without an answer), latency percentiles per route;
 * - how late the decide loop's ticks ran: each tick should start `poll.prices` after the previous one
 *   ended; lateness is how much later it started (p50, p99, max), while idle, while the first `/` and
 *   `/status` are computed alone (one rendering's own cost), and during the flood;
 * - the event loop's delay during the flood (perf_hooks.monitorEventLoopDelay: p50, p99, max);
 * - how often the expensive bodies were computed: `/metrics` scrapes and `/status` documents.
 *
 * The clients run in a child process, so their work is not charged to the daemon's event loop.
 *
 *   npx tsx bench/opsLoad.ts [clients, default 6000] [fills in the history, default 20000]
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../src/clock.js';
import { parseConfigText } from '../src/config/loadConfig.js';
import { start, type Daemon } from '../src/daemon.js';
import { createLogger } from '../src/ops/log.js';
import { SOL_MINT, USDC_MINT } from '../src/solana/programIds.js';
import { AuditLog } from '../src/store/audit.js';
import { recordFill } from '../src/store/fills.js';
import { openStore } from '../src/store/migrate.js';
import { databaseFile } from '../src/store/paths.js';

const ROUTES = ['/', '/status', '/metrics'] as const;
const TICK_MS = 250;
const CLIENT_TIMEOUT_MS = 60_000;

/** What the daemon is doing while a tick is timed: nothing asked of it, the first `/` and `/status` alone, or the flood. */
type Phase = 'idle' | 'renders' | 'flood';

interface Outcome {
  readonly route: string;
  /** The HTTP status, or the error's code when no answer came. */
  readonly result: string;
  readonly ms: number;
}

/** The child: `clients` requests at once, one connection each; prints their outcomes as one JSON line. */
async function flood(url: string, clients: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const one = (route: string): Promise<Outcome> =>
    new Promise((resolve) => {
      const began = performance.now();
      const done = (result: string): void => resolve({ route, result, ms: performance.now() - began });
      const req = request({ host: hostname, port: Number(port), path: route, agent: false, timeout: CLIENT_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode)));
        res.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'ERROR'));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('client timeout'), { code: 'TIMEOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'ERROR'));
      req.end();
    });
  const outcomes = await Promise.all(Array.from({ length: clients }, (_, i) => one(ROUTES[i % ROUTES.length] as string)));
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}

function runFlood(url: string, clients: number): Promise<Outcome[]> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--flood', url, String(clients)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Outcome[]));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))));
  });
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);
const ms = (n: number): string => (Number.isNaN(n) ? '-' : `${n.toFixed(n < 10 ? 1 : 0)} ms`);
const spread = (values: readonly number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)} (${sorted.length} samples)`;
};

/** `count` fills and their actions in the paper database, as a daemon that traded for a while leaves them. */
function seedHistory(dataDir: string, count: number): void {
  const { db } = openStore(databaseFile(dataDir, 'paper'), { clock: systemClock, synchronous: 'NORMAL' });
  const audit = new AuditLog(db, systemClock);
  const at = systemClock.now() - count * 60_000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const buy = Math.floor(i / 10) % 2 === 0;
      const sol = BigInt(100_000_000 + (i % 7) * 1_000_000);
      const usdc = (sol * BigInt(150 + (i % 40))) / 1000n;
      const [inMint, inAmount, inDecimals, outMint, outAmount, outDecimals] = buy
        ? [USDC_MINT, usdc, 6, SOL_MINT, sol, 9]
        : [SOL_MINT, sol, 9, USDC_MINT, usdc, 6];
      const fill = {
        signature: `seed${i}`,
        idx: 0,
        source: 'swap' as const,
        inMint,
        inAmount,
        inDecimals,
        outMint,
        outAmount,
        outDecimals,
        fee: null,
        at: at + i * 60_000,
      };
      recordFill(db, audit, fill, { intentId: null, strategy: `seed-${i % 10}` }, fill.at);
    }
  })();
  db.close();
}

async function main(clients: number, fills: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-ops-'));
  try {
    mkdirSync(join(dir, 'strategies'));
    writeFileSync(
      join(dir, 'strategies', 'dca.yaml'),
      'name: dca-every-5-minutes\nkind: dca\nbuy: SOL\npay_with: USDC\namount: "1"\nexecution: swap\nschedule: { cron: "*/5 * * * *", timezone: UTC }\ncatch_up: skip\n',
    );
    const config = parseConfigText(
      `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: bench-ops }\npoll: { prices: ${TICK_MS}ms }\nlog: { level: warn }\n`,
      join(dir, 'config.yaml'),
      {},
      dir,
    );
    const log = createLogger({ destination: new Writable({ write: (_chunk, _enc, next) => next() }), level: 'warn' });
    // A first run makes the paper world; the history goes in between, so the second run keeps both.
    await (await start(config, { clock: systemClock, log })).stop('seeding');
    let seeded = performance.now();
    seedHistory(config.data_dir, fills);
    seeded = performance.now() - seeded;
    const daemon: Daemon = await start(config, { clock: systemClock, log });
    const scrape = daemon.metrics.scrape.bind(daemon.metrics);
    let scrapes = 0;
    (daemon.metrics as { scrape: () => Promise<string> }).scrape = () => ((scrapes += 1), scrape());
    const engineStatus = daemon.engine.status.bind(daemon.engine);
    let documents = 0;
    (daemon.engine as { status: () => Record<string, unknown> }).status = () => ((documents += 1), engineStatus());

    // Lateness: each tick should start TICK_MS after the previous one ended.
    const ticks: { at: number; lateMs: number; phase: Phase }[] = [];
    let lastEnd: number | null = null;
    let phase: Phase = 'idle';
    daemon.engine.trading.ticks.events.on('tick', ({ at }) => {
      if (lastEnd !== null) ticks.push({ at, lateMs: at - (lastEnd + TICK_MS), phase });
      lastEnd = Date.now();
    });
    const idle = (ms = 3_000): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    await idle();
    // The first `/` renders the report (the whole chain verified), the first `/status` reads the whole
    // history for today's figures: each measured alone, before the flood (their own cost, not the flood's).
    const alone = async (route: string): Promise<number> => {
      const began = performance.now();
      await fetch(`${daemon.opsUrl}${route}`).then((r) => r.arrayBuffer());
      return performance.now() - began;
    };
    phase = 'renders';
    const firstPage = await alone('/');
    const firstStatus = await alone('/status');
    // The tick a rendering held back ends after it: still counted with the renderings.
    await idle(1_000);
    phase = 'idle';
    await idle();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    phase = 'flood';
    loop.enable();
    const began = performance.now();
    const outcomes = await runFlood(daemon.opsUrl, clients);
    const floodMs = performance.now() - began;
    loop.disable();
    phase = 'idle';
    await idle();
    const probe = await fetch(`${daemon.opsUrl}/healthz`);
    await daemon.stop('bench over');

    const results = new Map<string, number>();
    for (const o of outcomes) results.set(o.result, (results.get(o.result) ?? 0) + 1);
    const lines = [
      `history: ${fills.toLocaleString('en')} fills (seeded in ${seeded.toFixed(0)} ms); first / alone ${ms(firstPage)}, first /status alone ${ms(firstStatus)}`,
      `flood: ${clients.toLocaleString('en')} concurrent clients at ${ROUTES.join(', ')}, all settled in ${ms(floodMs)}`,
      `outcomes: ${[...results].map(([result, n]) => `${result} ×${n}`).join(', ')}`,
      ...ROUTES.map(
        (route) => `  ${route.padEnd(8)} answered: ${spread(outcomes.filter((o) => o.route === route && /^\d+$/.test(o.result)).map((o) => o.ms))}`,
      ),
      `  errors   (no answer): ${spread(outcomes.filter((o) => !/^\d+$/.test(o.result)).map((o) => o.ms))}`,
      `computed during the run: ${scrapes} /metrics scrapes, ${documents} /status documents`,
      ...(['idle', 'renders', 'flood'] as const).map(
        (p) => `tick lateness, ${p.padEnd(7)}: ${spread(ticks.filter((t) => t.phase === p).map((t) => t.lateMs))}`,
      ),
      `event loop delay flooded: p50 ${ms(loop.percentile(50) / 1e6)}, p99 ${ms(loop.percentile(99) / 1e6)}, max ${ms(loop.max / 1e6)}`,
      `/healthz after the flood: ${probe.status}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--flood') await flood(process.argv[3] as string, Number(process.argv[4]));
else await main(Number(process.argv[2] ?? 6_000), Number(process.argv[3] ?? 20_000));
