/**
 * Requests per second the simulator serves on loopback, for the two hottest daemon paths:
 * token search (price polling) and /swap/v2/order (quotes). Target: ≥ 2,000 per second each, so the
 * simulator is never the bottleneck of a daemon benchmark. Not part of `npm test`.
 *
 *   npx tsx bench/sim.ts [seconds per case, default 3] [concurrency, default 32]
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../src/clock.js';
import { createSimulator } from '../src/sim/simulator.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TAKER = 'BhbuNgiMxfLwyy1AneQXxjXTQVY9JQd91UqrdLSuhRva';
const seconds = Number(process.argv[2] ?? 3);
const concurrency = Number(process.argv[3] ?? 32);

if (process.argv.includes('--serve')) {
  // The server half: its own process, so the load generator does not share its event loop.
  const sim = createSimulator({ clock: systemClock, seed: 'bench', gateway: { unlimited: true }, paperWallets: [TAKER] });
  const server = await sim.listen(0);
  console.log(server.url);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
} else {
  await main();
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { url: first.trim(), stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const server = await startServer();
  const { port } = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

  function get(path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': 'bench' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  }

  async function run(name: string, path: () => string): Promise<number> {
    for (let i = 0; i < 200; i++) await get(path());
    let done = 0;
    let failed = 0;
    const latencies: number[] = [];
    const end = performance.now() + seconds * 1000;
    const worker = async (): Promise<void> => {
      while (performance.now() < end) {
        const t = performance.now();
        const status = await get(path());
        latencies.push(performance.now() - t);
        if (status === 200) done++;
        else failed++;
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
    const elapsed = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    const rps = done / elapsed;
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    console.log(
      `${name.padEnd(34)} ${rps.toFixed(0).padStart(6)} req/s  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  (${done} ok, ${failed} failed, ${concurrency} concurrent)`,
    );
    return rps;
  }

  console.log(`simulator at ${server.url}, ${seconds}s per case`);
  const results = [
    await run('GET /ultra/v1/search (symbol)', () => '/ultra/v1/search?query=SOL'),
    await run('GET /ultra/v1/search (3 mints)', () => `/ultra/v1/search?query=${SOL},${USDC},JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN`),
    await run('GET /swap/v2/order (quote only)', () => `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=100000000`),
    await run('GET /swap/v2/order (with taker, tx)', () => `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=100000000&taker=${TAKER}`),
  ];
  const worst = Math.min(...results);
  console.log(`slowest case ${worst.toFixed(0)} req/s: ${worst >= 2000 ? 'meets' : 'BELOW'} the 2,000 req/s target`);
  agent.destroy();
  server.stop();
}
