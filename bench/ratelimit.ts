/**
 * Rate-limit bench (not part of `npm test`): two minutes of saturated load through the Jupiter client
 * against a loopback HTTP server that enforces the quota the way the gateway does (a 60 s sliding
 * window counted on arrival, 429 beyond it, `x-ratelimit-*` headers).
 *
 * The server answers after a random 0–50 ms (latency after arrival, as on a real network), so the
 * client's window must hold up when arrivals and answers are spread.
 *
 * Prints achieved requests per minute, utilisation of the quota (target ≥ 95 %) and the number of
 * 429s (target 0). Run: `npx tsx bench/ratelimit.ts [seconds] [requestsPerMinute]` (defaults 120, 600).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { systemClock } from '../src/clock.js';
import { createRandom } from '../src/random.js';
import { createJupiterClient, Priority } from '../src/jupiter/index.js';

const durationS = Number(process.argv[2] ?? 120);
const perMinute = Number(process.argv[3] ?? 600);
const WINDOW_MS = 60_000;
const WORKERS = 64;
const MAX_LATENCY_MS = 50;
const jitter = createRandom('latency');

// --- the loopback gateway -------------------------------------------------------------------------
const arrivals: number[] = [];
let head = 0;
let served = 0;
let rejected = 0;

function handle(_req: IncomingMessage, res: ServerResponse): void {
  const now = Date.now();
  while (head < arrivals.length && (arrivals[head] ?? 0) + WINDOW_MS <= now) head++;
  const used = arrivals.length - head;
  const oldest = arrivals[head] ?? now;
  const reset = String(Math.ceil((oldest + WINDOW_MS) / 1000));
  if (used >= perMinute) {
    rejected++;
    res.writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-current': String(used), 'x-ratelimit-reset': reset });
    res.end(JSON.stringify({ code: 429, message: '[API Gateway] Too many requests' }));
    return;
  }
  arrivals.push(now);
  served++;
  const id = served;
  setTimeout(() => answer(res, used, reset, id), jitter.int(0, MAX_LATENCY_MS));
}

function answer(res: ServerResponse, used: number, reset: string, id: number): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-ratelimit-remaining': String(perMinute - used - 1),
    'x-ratelimit-current': String(used + 1),
    'x-ratelimit-reset': reset,
    'x-api-gateway-request-id': `bench-${id}`,
  });
  res.end('[]');
}

const server = createServer(handle);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

// --- the client under load ------------------------------------------------------------------------
const client = createJupiterClient({
  baseUrl: `http://127.0.0.1:${port}`,
  apiKey: 'bench-api-key-0000000000',
  requestsPerSecond: perMinute / 60,
  clock: systemClock,
  random: createRandom('bench'),
  maxReadAttempts: 1,
});
let clientSide429 = 0;
let maxWaitMs = 0;
client.events.on('request', (e) => {
  if (e.status === 429) clientSide429++;
});
client.events.on('ratelimited', (e) => {
  maxWaitMs = Math.max(maxWaitMs, e.waitMs);
});

const stop = new AbortController();
const started = performance.now();
const deadline = started + durationS * 1000;
let ok = 0;
let okLastWindow = 0;
let failed = 0;

async function worker(): Promise<void> {
  while (performance.now() < deadline && !stop.signal.aborted) {
    try {
      await client.request({
        method: 'GET',
        path: '/tokens/v2/search',
        route: '/tokens/v2/search',
        query: { query: 'SOL' },
        schema: z.array(z.unknown()),
        priority: Priority.PollMarket,
        signal: stop.signal,
      });
      const at = performance.now();
      if (at <= deadline) ok++;
      if (at <= deadline && at > deadline - WINDOW_MS) okLastWindow++;
    } catch {
      if (!stop.signal.aborted) failed++;
    }
  }
}

console.log(
  `ratelimit bench: ${durationS} s of saturated load (${WORKERS} workers) at a quota of ${perMinute} requests / 60 s on 127.0.0.1:${port}, answers after 0-${MAX_LATENCY_MS} ms`,
);
const timer = setTimeout(() => stop.abort(), durationS * 1000);
await Promise.all(Array.from({ length: WORKERS }, () => worker()));
clearTimeout(timer);
client.close();
server.close();

const minutes = durationS / 60;
const achieved = ok / minutes;
const utilisation = achieved / perMinute;
console.log(`requests ok:          ${ok}`);
console.log(`achieved:             ${achieved.toFixed(1)} requests / minute`);
console.log(`utilisation:          ${(utilisation * 100).toFixed(1)} % (target >= 95 %)`);
if (durationS >= 120) console.log(`last 60 s alone:      ${okLastWindow} requests (${((okLastWindow / perMinute) * 100).toFixed(1)} % of the quota)`);
console.log(`429s from the server: ${rejected} (target 0; client saw ${clientSide429})`);
console.log(`other failures:       ${failed}`);
console.log(`longest limiter wait: ${(maxWaitMs / 1000).toFixed(2)} s`);
const pass = utilisation >= 0.95 && rejected === 0 && failed === 0;
console.log(pass ? 'PASS' : 'FAIL');
process.exitCode = pass ? 0 : 1;
