/**
 * Daemon bench (not part of `npm test`): the real daemon
 * (`start` from src/daemon.ts, live mode) with 1,000 strategies over 200 mints and 10 s price polls,
 * for 24 simulated hours on a ManualClock advanced in 10 s steps. Prints:
 *
 * - API calls per price poll (target: 2 search calls for 200 mints, ≤ 100 mints a call), per poll of
 *   the Trigger order feeds, per vault placement (deposit craft, create, reading the order back: one
 *   history page of its mint however long the history), the search calls of startup token resolution
 *   (target: ⌈mints / 100⌉ plus one per symbol), every call the daemon made by route per simulated
 *   hour, and by API area over the whole run (no strategy here reads prediction markets: target 0
 *   prediction calls; with BENCH_SWAP_ONLY=1 the vault exits are local exits too, nothing needs
 *   Trigger: target 0 Trigger calls as well);
 * - CPU ms per 10 s step (everything the daemon does in one poll interval) and per tick (the
 *   decide loop over every strategy, from its first `decided` event to its `tick` event);
 * - RSS and heap every simulated hour, after a GC when run with --expose-gc (target: RSS ≤ 150 MB,
 *   flat: the slope over the last 12 hours), the peak RSS, and where the memory is at the start and
 *   at the end (bench/memoryBreakdown.ts); BENCH_HEAP_SNAPSHOT=FILE also writes a heap snapshot at
 *   the end, for bench/heapSummary.ts;
 * - the real time the run took;
 * - then the latency phase (bench/priceToIntent.ts): the time from a simulated price crossing a
 *   strategy's trigger to its `intent.planned`, over 100 crossings at random instants on a clock
 *   stepped 100 ms at a time; p50, p99 and max in ms beside `poll.prices` (target: p99 ≤ poll + 100 ms).
 *
 * The simulator runs in a child process on its own ManualClock, advanced in step through
 * `POST /__sim/advance`, so the figures are the daemon's alone. Calls are counted by wrapping
 * `fetch` in this process; each answer is read whole inside the wrapper so "no request in flight"
 * means the daemon has nothing left to do for this step.
 *
 *   npm run bench:daemon -- [hours, default 24] [strategies, default 1000] [mints, default 200]
 *   npm run bench:daemon -- latency [crossings, default 100]     (the latency phase alone)
 *
 * That bundles this file with esbuild into dist/bench/ and runs it with plain node and the memory
 * settings `npm start` uses (MALLOC_ARENA_MAX=2, --optimize-for-size, --enable-source-maps):
 * memory is measured on compiled code, as a deployed daemon runs, not under tsx (whose compiler
 * would add its own tens of MB). `npx tsx --expose-gc bench/daemon.ts` still works for a quick look.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { writeHeapSnapshot } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { ManualClock } from '../src/clock.js';
import { parseConfigText } from '../src/config/loadConfig.js';
import { start } from '../src/daemon.js';
import { StrategyWatcher } from '../src/engine/strategyWatcher.js';
import { API_AREAS, areaOfRoute } from '../src/jupiter/apiAreas.js';
import { createLogger } from '../src/ops/log.js';
import { createRandom } from '../src/random.js';
import { describeBreakdown, mb, memoryBreakdown } from './memoryBreakdown.js';
import { syntheticTokens, TOKEN_CATALOG } from '../src/sim/tokenCatalog.js';
import { countingFetch, ONE_ORDER } from './countingFetch.js';
import { describePriceToIntent, priceToIntent } from './priceToIntent.js';

const SEED = 'bench-daemon';
const START = Date.UTC(2026, 0, 5, 0, 0, 0);
const STEP_MS = 10_000;
const HOUR_MS = 3_600_000;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL = 'So11111111111111111111111111111111111111112';

/** The child: the simulator on its own ManualClock, moved only by `POST /__sim/advance`. */
async function serve(extraTokens: number): Promise<void> {
  // Imported here, in the child only: the measured process holds no simulator code.
  const { createSimulator } = await import('../src/sim/simulator.js');
  const clock = new ManualClock(START);
  const sim = createSimulator({ clock, seed: SEED, extraTokens, gateway: { unlimited: true } });
  const server = await sim.listen(0);
  console.log(server.url);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

async function startSimulator(extraTokens: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', String(extraTokens)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { url: url.trim(), stop: () => child.kill('SIGTERM') };
}

/**
 * 1,000 strategies over the mints: mostly locally watched exits that hold, some vault exits, some DCA
 * swaps. `swapOnly`: the vault exits are local ones, so no strategy needs Trigger.
 */
function strategyFiles(count: number, sellable: readonly string[], swapOnly: boolean): { name: string; text: string; kind: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const mint = sellable[i % sellable.length] as string;
    const name = `bench-${String(i).padStart(4, '0')}`;
    const slot = i % 20;
    if (slot < 16 || (swapOnly && slot < 18)) {
      // Exits far from the price: armed, then holding all day.
      const exit = i % 2 === 0 ? 'stop_loss:\n  at: "-80%"\n' : 'trailing_stop:\n  distance: "70%"\n';
      return {
        name,
        kind: 'local exits',
        text: `name: ${name}\nkind: price-order\nsell: ${mint}\nreceive: USDC\namount: "1%"\nexecution: local\ntake_profit:\n  - at: "+300%"\n    sell: "100%"\n${exit}`,
      };
    }
    if (slot < 18) {
      return {
        name,
        kind: 'vault exits',
        text: `name: ${name}\nkind: price-order\nsell: ${mint}\nreceive: USDC\namount: "2%"\nexecution: vault\ntake_profit:\n  - at: "+300%"\n    sell: "100%"\nstop_loss:\n  at: "-80%"\nexpires_after: 7d\n`,
      };
    }
    // One DCA run a day each, spread over the day's hours and minutes (two of every twenty strategies
    // are DCA, so the hour counts those pairs: `i % 24` would leave half the hours without a run).
    const cron = `${(i * 7) % 60} ${Math.floor(i / 20) % 24} * * *`;
    const buy = mint === USDC ? SOL : mint;
    return {
      name,
      kind: 'dca swaps',
      text: `name: ${name}\nkind: dca\nbuy: ${buy}\npay_with: USDC\namount: "5"\nexecution: swap\nschedule:\n  cron: "${cron}"\n  timezone: UTC\n`,
    };
  });
}

/** The bench's own calls to the simulator: not counted as the daemon's. */
const benchFetch = globalThis.fetch.bind(globalThis);

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await benchFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

interface Sample {
  readonly hour: number;
  readonly rss: number;
  readonly heap: number;
  readonly external: number;
  readonly stepCpuMs: number;
  readonly tickCpuMs: number;
  readonly calls: number;
  readonly search: number;
}

const ROW_HEADER = ' hour   rss MB  heap MB  ext MB  cpu ms/step  cpu ms/tick  calls  search  real s';

/** One line of the hourly table, printed as it is measured so a partial run still reports. */
function printRow(s: Sample | undefined, realMs = 0): void {
  if (!s) return;
  const cols = [
    s.hour.toString().padStart(5),
    mb(s.rss).padStart(8),
    mb(s.heap).padStart(8),
    mb(s.external).padStart(7),
    s.stepCpuMs.toFixed(2).padStart(12),
    s.tickCpuMs.toFixed(2).padStart(12),
    String(s.calls).padStart(6),
    String(s.search).padStart(7),
    (realMs / 1000).toFixed(0).padStart(7),
  ];
  console.log(cols.join(' '));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Crossings of the latency phase unless the command line says otherwise. */
const CROSSINGS = 100;

async function latencyPhase(crossings: number): Promise<void> {
  console.log('');
  for (const line of describePriceToIntent(await priceToIntent(crossings))) console.log(line);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'latency') return await latencyPhase(Number(process.argv[3] ?? CROSSINGS));
  const hours = Number(process.argv[2] ?? 24);
  const strategyCount = Number(process.argv[3] ?? 1000);
  const mintCount = Number(process.argv[4] ?? 200);
  const swapOnly = process.env.BENCH_SWAP_ONLY === '1';
  const realStarted = performance.now();

  // The mints in use: the real verified tokens, then synthetic ones up to `mintCount`.
  const real = TOKEN_CATALOG.filter((t) => t.isVerified).map((t) => t.mint);
  const extraTokens = Math.max(0, mintCount - real.length);
  const mints = [...real, ...syntheticTokens(SEED, extraTokens).map((t) => t.mint)].slice(0, mintCount);
  const sellable = mints.filter((m) => m !== USDC);
  const sim = await startSimulator(extraTokens);
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-daemon-'));
  const counter = countingFetch(benchFetch);
  try {
    const strategiesDir = join(dir, 'strategies');
    mkdirSync(strategiesDir);
    const files = strategyFiles(strategyCount, sellable, swapOnly);
    for (const f of files) writeFileSync(join(strategiesDir, `${f.name}.yaml`), f.text);
    const kinds = new Map<string, number>();
    for (const f of files) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);

    // The wallet: a fixed key, funded in the simulated world with SOL, USDC and 50,000 USD of each mint.
    const wallet = Keypair.fromSeed(createHash('sha256').update(SEED).digest());
    const keypairFile = join(dir, 'wallet.json');
    writeFileSync(keypairFile, JSON.stringify([...wallet.secretKey]));
    chmodSync(keypairFile, 0o600);
    const address = wallet.publicKey.toBase58();
    const priceOf = new Map(createSimulatorPrices(extraTokens));
    await post(`${sim.url}/__sim/fund`, { wallet: address, mint: SOL, amount: (1_000n * 10n ** 9n).toString() });
    for (const mint of mints.filter((m) => m !== SOL)) {
      const t = priceOf.get(mint);
      if (!t) throw new Error(`no price for ${mint}`);
      const usd = mint === USDC ? 1_000_000 : 50_000;
      await post(`${sim.url}/__sim/fund`, { wallet: address, mint, amount: BigInt(Math.floor((usd / t.price) * 10 ** t.decimals)).toString() });
    }

    const configFile = join(dir, 'bench.yaml');
    const configText = [
      'mode: live',
      `api: { base_url: "${sim.url}", requests_per_second: 100000, timeout: 5m }`,
      `rpc: { url: "${sim.url}/rpc" }`,
      `wallet: { keypair_file: "${keypairFile}" }`,
      `data_dir: "${join(dir, 'data')}"`,
      `strategies_dir: "${strategiesDir}"`,
      'poll: { prices: 10s }',
      'http: { listen: "127.0.0.1:0" }',
      '',
    ].join('\n');
    writeFileSync(configFile, configText);
    // 0700 as the daemon makes it, so the bench's warning count is about the run, not the setup.
    mkdirSync(join(dir, 'data'), { mode: 0o700 });
    const config = parseConfigText(configText, configFile, { JUPITER_API_KEY: 'bench-daemon-api-key-0000' }, dir);

    const logged = { lines: 0, byMsg: new Map<string, number>() };
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk
          .toString()
          .split('\n')
          .filter((l) => l !== '')) {
          logged.lines++;
          const { level, msg } = JSON.parse(line) as { level?: string; msg?: string };
          const key = `${level ?? '?'}: ${(msg ?? '').slice(0, 140)}`;
          logged.byMsg.set(key, (logged.byMsg.get(key) ?? 0) + 1);
        }
        done();
      },
    });
    const clock = new ManualClock(START);
    // The strategy watcher's rescans read files, not fetches: count the scans in progress too, so a
    // step ends only once the daemon has nothing left to do for it.
    let scanning = 0;
    const scan = Object.getOwnPropertyDescriptor(StrategyWatcher.prototype, 'poll')?.value as (this: StrategyWatcher) => Promise<void>;
    // The first scan resolves every file's tokens before any feed starts: its search calls are resolution's alone.
    let resolutionSearches: number | null = null;
    StrategyWatcher.prototype.poll = async function poll(this: StrategyWatcher): Promise<void> {
      scanning++;
      try {
        await scan.call(this);
      } finally {
        scanning--;
        resolutionSearches ??= counter.calls.get('/tokens/v2/search') ?? 0;
      }
    };
    const settle = async (): Promise<void> => {
      await counter.idle();
      while (scanning > 0) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await counter.idle();
      }
    };
    // What this process holds before the daemon starts (node, tsx, the imported modules): not the daemon's.
    gc?.();
    const baseline = process.memoryUsage();
    const baselineBreakdown = memoryBreakdown();
    globalThis.fetch = counter.fetch;
    const startT = performance.now();
    const daemon = await start(config, { clock, log: createLogger({ level: 'warn', destination }), random: createRandom(SEED) });
    await settle();
    const startupMs = performance.now() - startT;
    const startupCalls = new Map(counter.calls);
    console.log(
      `daemon bench: ${strategyCount} strategies (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}) over ${mints.length} mints, ${hours} simulated h in ${STEP_MS / 1000} s steps`,
    );
    console.log(`node ${process.version}, ${gc ? 'GC before each memory sample' : 'no --expose-gc: memory samples without a GC first'}`);
    console.log(`before start: rss ${mb(baseline.rss)} MB, heap ${mb(baseline.heapUsed)} MB (node and the imported modules, plus tsx when run through it)`);
    for (const line of describeBreakdown(baselineBreakdown)) console.log(`  ${line}`);
    console.log(
      `startup: ${startupMs.toFixed(0)} ms real, ${daemon.engine.strategies.active.size} strategies active, calls: ${[...startupCalls].map(([r, n]) => `${r} ${n}`).join(', ')}`,
    );

    let scans = 0;
    daemon.engine.strategies.events.on('polled', () => scans++);
    // Polls of the Trigger feeds, startup's included (their calls are counted from the start too).
    const feedPolls = { orders: 0, dca: 0 };
    for (const name of ['orders', 'dca'] as const) {
      const feed = daemon.engine.feeds[name];
      if (!feed) continue;
      const state = feed.state();
      if (state.at !== null || state.lastError !== null) feedPolls[name]++;
      feed.events.on('updated', () => feedPolls[name]++);
      feed.events.on('failed', () => feedPolls[name]++);
    }

    // Per poll: search calls between two price-feed outcomes.
    const prices = daemon.engine.feeds.prices;
    let searchAtLastPoll = counter.calls.get('/tokens/v2/search') ?? 0;
    const searchPerPoll: number[] = [];
    let priceFailures = 0;
    const onPoll = (): void => {
      const now = counter.calls.get('/tokens/v2/search') ?? 0;
      searchPerPoll.push(now - searchAtLastPoll);
      searchAtLastPoll = now;
    };
    prices.events.on('updated', (e) => {
      onPoll();
      lastPriceCount = e.value.size;
    });
    prices.events.on('failed', () => {
      priceFailures++;
      onPoll();
    });
    let lastPriceCount = 0;

    // Tick CPU: from the first `decided` of a tick (the decide loop starts) to its `tick` event.
    const ticks = daemon.engine.trading.ticks;
    let tickStart: { cpu: NodeJS.CpuUsage; wall: number } | null = null;
    const tickCpu: number[] = [];
    const tickWall: number[] = [];
    const tickSummary = { ticks: 0, skipped: 0, intents: 0, holds: 0 };
    ticks.events.on('decided', () => {
      tickStart ??= { cpu: process.cpuUsage(), wall: performance.now() };
    });
    ticks.events.on('tick', (e) => {
      tickSummary.ticks++;
      tickSummary.intents += e.intents;
      tickSummary.holds += e.holds;
      if (e.skipped !== null) tickSummary.skipped++;
      if (tickStart) {
        const used = process.cpuUsage(tickStart.cpu);
        tickCpu.push((used.user + used.system) / 1000);
        tickWall.push(performance.now() - tickStart.wall);
      }
      tickStart = null;
    });

    const stepCpu: number[] = [];
    const samples: Sample[] = [];
    const sample = (hour: number, fromStep: number, fromTick: number, callsBefore: number, searchBefore: number): void => {
      gc?.();
      const m = process.memoryUsage();
      const total = [...counter.calls.values()].reduce((s, n) => s + n, 0);
      const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
      samples.push({
        hour,
        rss: m.rss,
        heap: m.heapUsed,
        external: m.external + m.arrayBuffers,
        stepCpuMs: mean(stepCpu.slice(fromStep)),
        tickCpuMs: mean(tickCpu.slice(fromTick)),
        calls: total - callsBefore,
        search: (counter.calls.get('/tokens/v2/search') ?? 0) - searchBefore,
      });
    };
    const totalCalls = (): number => [...counter.calls.values()].reduce((s, n) => s + n, 0);
    sample(0, 0, 0, totalCalls(), counter.calls.get('/tokens/v2/search') ?? 0);
    const steadyCalls = new Map<string, number>();
    const callsAtSteady = new Map(counter.calls);

    const loopStarted = performance.now();
    const realSplit = { sim: 0, advance: 0, idle: 0 };
    const stepsPerHour = HOUR_MS / STEP_MS;
    const totalSteps = Math.max(1, Math.round(hours * stepsPerHour));
    console.log('');
    console.log(ROW_HEADER);
    printRow(samples[0]);
    let fromStep = 0;
    let fromTick = 0;
    let callsBefore = totalCalls();
    let searchBefore = counter.calls.get('/tokens/v2/search') ?? 0;
    for (let step = 1; step <= totalSteps; step++) {
      // Two half steps: the strategy watcher rescans every 5 s, and a loop only parks again (and so
      // only wakes within this advance) once its I/O is done.
      let cpuMs = 0;
      for (let half = 0; half < 2; half++) {
        const t0 = performance.now();
        await post(`${sim.url}/__sim/advance`, { ms: STEP_MS / 2 });
        const t1 = performance.now();
        const cpu = process.cpuUsage();
        await clock.advance(STEP_MS / 2);
        const t2 = performance.now();
        await settle();
        const used = process.cpuUsage(cpu);
        cpuMs += (used.user + used.system) / 1000;
        realSplit.sim += t1 - t0;
        realSplit.advance += t2 - t1;
        realSplit.idle += performance.now() - t2;
      }
      stepCpu.push(cpuMs);
      if (step % stepsPerHour === 0 || step === totalSteps) {
        sample(Number((step / stepsPerHour).toFixed(2)), fromStep, fromTick, callsBefore, searchBefore);
        printRow(samples[samples.length - 1], performance.now() - loopStarted);
        [fromStep, fromTick, callsBefore, searchBefore] = [stepCpu.length, tickCpu.length, totalCalls(), counter.calls.get('/tokens/v2/search') ?? 0];
      }
    }
    for (const [route, n] of counter.calls) steadyCalls.set(route, n - (callsAtSteady.get(route) ?? 0));
    const loopMs = performance.now() - loopStarted;
    gc?.();
    const endMemory = memoryBreakdown();
    // BENCH_HEAP_SNAPSHOT=FILE: the heap as it is now, for bench/heapSummary.ts.
    if (process.env.BENCH_HEAP_SNAPSHOT) console.log(`heap snapshot: ${writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT)}`);
    const status = ticks.status();
    await daemon.stop('bench over');
    globalThis.fetch = benchFetch;

    // Report.
    console.log('');
    const polls = searchPerPoll.slice(1);
    const perPoll = new Map<number, number>();
    for (const n of polls) perPoll.set(n, (perPoll.get(n) ?? 0) + 1);
    const simHours = totalSteps / stepsPerHour;
    console.log('');
    console.log(
      `price polls: ${polls.length} after the first (${priceFailures} failed), ${lastPriceCount} prices each; search calls per poll: ${[...perPoll].map(([n, c]) => `${n} calls × ${c} polls`).join(', ')} (target: ${Math.ceil(lastPriceCount / 100)}, ≤ 100 mints a call)`,
    );
    // By API area, startup included: an area no loaded strategy needs is not polled at all.
    const byArea = new Map<string, number>([...API_AREAS, 'rpc'].map((area) => [area, 0]));
    for (const [route, n] of counter.calls) {
      const area = route.startsWith('rpc ') ? 'rpc' : (areaOfRoute(route.replace(/^[A-Z]+ /, '')) ?? 'other');
      byArea.set(area, (byArea.get(area) ?? 0) + n);
    }
    console.log(
      `calls by API area over the run, startup included: ${[...byArea].map(([area, n]) => `${area} ${n}`).join(', ')} (target: ${swapOnly ? 'trigger 0, ' : ''}prediction 0)`,
    );
    const written = new Set(files.flatMap((f) => [...f.text.matchAll(/^(?:sell|receive|buy|pay_with): (\S+)$/gm)].map((m) => m[1] as string)));
    const writtenMints = [...written].filter((t) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(t)).length;
    console.log(
      `startup token resolution: ${resolutionSearches ?? '?'} search calls for ${writtenMints} mints and ${written.size - writtenMints} symbols written in the strategies (target: ⌈${writtenMints} / 100⌉ = ${Math.ceil(writtenMints / 100)}, plus one per symbol)`,
    );
    const n = (route: string): number => counter.calls.get(route) ?? 0;
    const feedCalls = (prefix: string): number =>
      [...counter.calls].filter(([r]) => r.startsWith(prefix) && !r.endsWith(ONE_ORDER)).reduce((t, [, c]) => t + c, 0);
    for (const [name, path] of [
      ['orders', '/trigger/v2/orders/history'],
      ['dca', '/trigger/v2/orders/history/dca'],
    ] as const) {
      const calls = name === 'orders' ? feedCalls(path) - feedCalls(`${path}/dca`) : feedCalls(path);
      console.log(`${name} feed: ${feedPolls[name]} polls, ${calls} history calls (${(calls / Math.max(1, feedPolls[name])).toFixed(2)} per poll)`);
    }
    const placements = n('POST /trigger/v2/orders/price') + n('POST /trigger/v2/orders/dca');
    const patches = n('PATCH /trigger/v2/orders/price/{id}');
    const readBacks = n(`/trigger/v2/orders/history${ONE_ORDER}`) + n(`/trigger/v2/orders/history/dca${ONE_ORDER}`) + n('/trigger/v2/orders/history/dca/{id}');
    const placing = n('POST /trigger/v2/deposit/craft') + placements;
    console.log(
      `vault placements: ${placements} (${n('POST /trigger/v2/orders/price')} price, ${n('POST /trigger/v2/orders/dca')} DCA), PATCHes: ${patches}; Trigger calls per placement: ${((placing + readBacks) / Math.max(1, placements)).toFixed(2)} (deposit craft + create + reading the order back; read-backs ${readBacks}, for placements and PATCHes together: ${(readBacks / Math.max(1, placements + patches)).toFixed(2)} each); the vault read and the RPC calls of signing are shared with other work`,
    );
    console.log(`calls by route over ${simHours} h after startup (per 10 s step):`);
    const steps = totalSteps;
    for (const [route, n] of [...steadyCalls].sort((a, b) => b[1] - a[1]))
      console.log(`  ${route.padEnd(64)} ${String(n).padStart(7)}  (${(n / steps).toFixed(2)})`);
    const sortedStep = [...stepCpu].sort((a, b) => a - b);
    const sortedTick = [...tickCpu].sort((a, b) => a - b);
    const sortedWall = [...tickWall].sort((a, b) => a - b);
    const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
    console.log(
      `cpu ms per 10 s step (all daemon work): mean ${mean(stepCpu).toFixed(2)}, p50 ${percentile(sortedStep, 0.5).toFixed(2)}, p99 ${percentile(sortedStep, 0.99).toFixed(2)}, max ${percentile(sortedStep, 1).toFixed(2)}`,
    );
    console.log(
      `cpu ms per tick (decide loop, ${strategyCount} strategies): mean ${mean(tickCpu).toFixed(2)}, p50 ${percentile(sortedTick, 0.5).toFixed(2)}, p99 ${percentile(sortedTick, 0.99).toFixed(2)}, max ${percentile(sortedTick, 1).toFixed(2)}; wall p50 ${percentile(sortedWall, 0.5).toFixed(2)} ms`,
    );
    console.log(
      `ticks: ${tickSummary.ticks} (${tickSummary.skipped} skipped), ${tickSummary.intents} intents, ${tickSummary.holds} holds; status: planned ${status.planned}, deferred ${JSON.stringify(status.deferred)}, blocked ${status.blocked ?? 'no'}`,
    );
    const half = samples.filter((s) => s.hour >= simHours / 2);
    const last = samples[samples.length - 1];
    const rssSlope = slope(half.map((s) => [s.hour, s.rss / 1024 / 1024]));
    const heapSlope = slope(half.map((s) => [s.hour, s.heap / 1024 / 1024]));
    console.log(
      `memory after ${simHours} h: rss ${last ? mb(last.rss) : '?'} MB (target ≤ 150: ${last && last.rss <= 150 * 1024 * 1024 ? 'meets' : 'OVER'}; ${last ? mb(last.rss - baseline.rss) : '?'} MB above the process before start), heap ${last ? mb(last.heap) : '?'} MB; slope over the last ${simHours / 2} h: rss ${rssSlope.toFixed(2)} MB/h, heap ${heapSlope.toFixed(2)} MB/h`,
    );
    for (const line of describeBreakdown(endMemory)) console.log(line);
    console.log(`strategy watcher rescans of ${strategyCount} files: ${scans} (poll.strategies 5s: ${2 * totalSteps} expected)`);
    console.log(`log lines at warn and above: ${logged.lines}`);
    for (const [msg, n] of [...logged.byMsg].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${String(n).padStart(6)} × ${msg}`);
    console.log(
      `real time: ${((performance.now() - realStarted) / 1000).toFixed(1)} s (startup ${(startupMs / 1000).toFixed(1)} s, ${steps} steps ${(loopMs / 1000).toFixed(1)} s: advancing the simulator ${(realSplit.sim / 1000).toFixed(1)} s, the daemon's clock ${(realSplit.advance / 1000).toFixed(1)} s, waiting for its calls ${(realSplit.idle / 1000).toFixed(1)} s)`,
    );
  } finally {
    globalThis.fetch = benchFetch;
    sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  await latencyPhase(CROSSINGS);
}

/** Starting prices and decimals of every simulated token, as the child's simulator has them. */
function createSimulatorPrices(extraTokens: number): [string, { price: number; decimals: number }][] {
  return [...TOKEN_CATALOG, ...syntheticTokens(SEED, extraTokens)].map((t) => [t.mint, { price: t.priceUsd, decimals: t.decimals }]);
}

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]));
else await main();
