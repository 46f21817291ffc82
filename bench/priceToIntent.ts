/**
 * The daemon bench's latency phase: how long from the moment the simulated market price crosses a
 * strategy's trigger to the daemon journaling the intent (`intent.planned`).
 *
 * The real daemon (`start` from src/daemon.ts, live mode) runs one locally watched take-profit per
 * synthetic token, each token held still at 10 USD (no random walk) and its take-profit at 10.20.
 * The simulator runs in this process on the daemon's own ManualClock, served on loopback. One
 * crossing at a time: at a random instant (uniform over two poll intervals after the previous
 * intent, so every phase against the price feed's and the decide loop's timers is drawn), the
 * token's price is set to 10.40; the clock then moves in STEP_MS steps, each step waiting until
 * nothing the daemon started is still in flight, until that strategy's intent is planned. The
 * latency is the clock's reading then, less the crossing's instant: exact to one step, not to a poll.
 *
 * Target: p99 ≤ poll.prices + 100 ms. A decide loop ticking on its own interval beside the price
 * feed's waits up to one more interval for a price the feed already has.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { ManualClock } from '../src/clock.js';
import { parseConfigText } from '../src/config/loadConfig.js';
import { start } from '../src/daemon.js';
import { createLogger } from '../src/ops/log.js';
import { createRandom } from '../src/random.js';
import { syntheticTokens } from '../src/sim/tokenCatalog.js';
import { countingFetch } from './countingFetch.js';

const SEED = 'bench-price-to-intent';
const START = Date.UTC(2026, 0, 5, 0, 0, 0);
/** How far the daemon's clock moves at a time: the figures' resolution. */
const STEP_MS = 100;
const POLL_MS = 10_000;
/** A crossing whose intent has not come after this long is counted as missed. */
const GIVE_UP_MS = 10 * POLL_MS;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL = 'So11111111111111111111111111111111111111112';

export interface PriceToIntent {
  readonly pollMs: number;
  readonly stepMs: number;
  /** Milliseconds from each crossing to its `intent.planned`, in crossing order. */
  readonly latencies: readonly number[];
  /** Crossings with no intent within GIVE_UP_MS. */
  readonly missed: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** The phase's lines, as the bench prints them. */
export function describePriceToIntent(r: PriceToIntent): string[] {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 0.99);
  const target = r.pollMs + 100;
  return [
    `price → intent latency over ${r.latencies.length} crossings at random instants (${r.missed} missed), clock stepped ${r.stepMs} ms, poll.prices ${r.pollMs} ms:`,
    `  p50 ${percentile(sorted, 0.5)} ms, p99 ${p99} ms, max ${percentile(sorted, 1)} ms (target: p99 ≤ poll + 100 ms = ${target} ms: ${p99 <= target ? 'meets' : 'OVER'})`,
  ];
}

export async function priceToIntent(crossings: number): Promise<PriceToIntent> {
  // Imported here: the memory phase's process holds no simulator code until it is over.
  const { createSimulator } = await import('../src/sim/simulator.js');
  const clock = new ManualClock(START);
  const tokens = syntheticTokens(SEED, crossings);
  const sim = createSimulator({ clock, seed: SEED, extraTokens: crossings, priceWalk: false, gateway: { unlimited: true } });
  const server = await sim.listen(0);
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-latency-'));
  const counter = countingFetch(globalThis.fetch.bind(globalThis));
  try {
    const wallet = Keypair.fromSeed(createHash('sha256').update(SEED).digest());
    const keypairFile = join(dir, 'wallet.json');
    writeFileSync(keypairFile, JSON.stringify([...wallet.secretKey]));
    chmodSync(keypairFile, 0o600);
    const address = wallet.publicKey.toBase58();
    sim.control.fund(address, 100n * 10n ** 9n, SOL);
    sim.control.fund(address, 1_000_000n * 10n ** 6n, USDC);
    const strategiesDir = join(dir, 'strategies');
    mkdirSync(strategiesDir);
    tokens.forEach((token, i) => {
      sim.control.setPrice(token.mint, 10);
      sim.control.fund(address, 1_000n * 10n ** BigInt(token.decimals), token.mint);
      const name = `cross-${String(i).padStart(4, '0')}`;
      writeFileSync(
        join(strategiesDir, `${name}.yaml`),
        `name: ${name}\nkind: price-order\nsell: ${token.mint}\nreceive: USDC\namount: "1"\nexecution: local\ntake_profit:\n  - at: "10.20"\n    sell: "100%"\n`,
      );
    });
    const configText = [
      'mode: live',
      `api: { base_url: "${server.url}", requests_per_second: 100000, timeout: 5m }`,
      `rpc: { url: "${server.url}/rpc" }`,
      `wallet: { keypair_file: "${keypairFile}" }`,
      `data_dir: "${join(dir, 'data')}"`,
      `strategies_dir: "${strategiesDir}"`,
      // The strategies never change here: their watcher's rescans would only add file reads to a step.
      `poll: { prices: ${POLL_MS / 1000}s, strategies: 1h }`,
      'http: { listen: "127.0.0.1:0" }',
      '',
    ].join('\n');
    mkdirSync(join(dir, 'data'), { mode: 0o700 });
    const config = parseConfigText(configText, join(dir, 'bench.yaml'), { JUPITER_API_KEY: 'bench-latency-api-key-0000' }, dir);
    const daemon = await start(config, { clock, log: createLogger({ level: 'error' }), random: createRandom(SEED), network: counter.fetch });
    const planned = new Map<string, number>();
    daemon.events.on('intent', (e) => {
      if (e.state === 'planned' && e.strategy !== null && !planned.has(e.strategy)) planned.set(e.strategy, clock.now());
    });
    const step = async (): Promise<void> => {
      await clock.advance(STEP_MS);
      await counter.idle();
    };
    // Every feed has a value and the decide loop has run before the first crossing.
    for (let t = 0; t < 2 * POLL_MS; t += STEP_MS) await step();

    const random = createRandom(`${SEED}:instants`);
    const latencies: number[] = [];
    let missed = 0;
    for (const [i, token] of tokens.entries()) {
      const wait = random.int(0, (2 * POLL_MS) / STEP_MS - 1) * STEP_MS;
      for (let t = 0; t < wait; t += STEP_MS) await step();
      const name = `cross-${String(i).padStart(4, '0')}`;
      const crossedAt = clock.now();
      sim.control.setPrice(token.mint, 10.4);
      while (!planned.has(name) && clock.now() - crossedAt < GIVE_UP_MS) await step();
      const at = planned.get(name);
      if (at === undefined) missed++;
      else latencies.push(at - crossedAt);
    }
    await daemon.stop('bench over');
    return { pollMs: POLL_MS, stepMs: STEP_MS, latencies, missed };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
