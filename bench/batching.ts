/**
 * Batching bench (not part of `npm test`): USD prices for 1,000 mints must cost exactly
 * ceil(1000 / 100) = 10 search calls, and scores for 1,000 events exactly 10 score calls, each
 * carrying at most 100 ids. Runs the real client against a loopback HTTP server that counts calls.
 * Run: `npx tsx bench/batching.ts`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import { systemClock } from '../src/clock.js';
import { createRandom } from '../src/random.js';
import { createJupiterClient, prediction, tokens } from '../src/jupiter/index.js';

const N = 1000;
const calls: { path: string; ids: number }[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  res.setHeader('content-type', 'application/json');
  if (url.pathname === '/tokens/v2/search') {
    const mints = (url.searchParams.get('query') ?? '').split(',');
    calls.push({ path: url.pathname, ids: mints.length });
    res.end(JSON.stringify(mints.map((id, i) => ({ id, name: `T${i}`, symbol: `T${i}`, decimals: 6, usdPrice: 1 + i / 100 }))));
    return;
  }
  if (url.pathname === '/prediction/v1/events/scores') {
    const ids = (url.searchParams.get('eventIds') ?? '').split(',');
    calls.push({ path: url.pathname, ids: ids.length });
    res.end(JSON.stringify({ data: ids.map((eventId) => ({ eventId, live: false, ended: false })) }));
    return;
  }
  res.statusCode = 404;
  res.end('{"error":"not found"}');
}

const server = createServer(handle);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const client = createJupiterClient({
  baseUrl: `http://127.0.0.1:${port}`,
  apiKey: 'bench-api-key-0000000000',
  requestsPerSecond: 10,
  clock: systemClock,
  random: createRandom('batching'),
});

const mints = Array.from({ length: N }, (_, i) => bs58.encode(Uint8Array.from({ length: 32 }, (_v, j) => (j < 2 ? (i >> (8 * j)) & 0xff : 42))));
const t0 = performance.now();
const priceMap = await tokens.prices(client, mints);
const t1 = performance.now();
const searchCalls = calls.filter((c) => c.path === '/tokens/v2/search');

const eventIds = Array.from({ length: N }, (_, i) => `event-${i}`);
const scores = await prediction.getScores(client, { eventIds });
const scoreCalls = calls.filter((c) => c.path === '/prediction/v1/events/scores');
client.close();
server.close();

const expected = Math.ceil(N / 100);
console.log(
  `prices for ${N} mints: ${searchCalls.length} search calls (expected exactly ${expected}), largest batch ${Math.max(...searchCalls.map((c) => c.ids))} mints, ${priceMap.size} prices back, ${(t1 - t0).toFixed(0)} ms`,
);
console.log(
  `scores for ${N} events: ${scoreCalls.length} score calls (expected exactly ${expected}), largest batch ${Math.max(...scoreCalls.map((c) => c.ids))} ids, ${scores.data.length} scores back`,
);
const pass =
  searchCalls.length === expected && priceMap.size === N && scoreCalls.length === expected && scores.data.length === N && calls.every((c) => c.ids <= 100);
console.log(pass ? 'PASS' : 'FAIL');
process.exitCode = pass ? 0 : 1;
