/**
 * What resolving the strategies' tokens costs at a start: the mints written in the files are asked
 * about 100 to a search call (the API's limit), not one call each. Token search is Jupiter's (the
 * client's `searchTokens`) against the simulator served over HTTP, every request counted.
 */
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { cachedSearch } from '../../../src/engine/cachedSearch.js';
import { StrategyWatcher } from '../../../src/engine/strategyWatcher.js';
import { searchTokens } from '../../../src/jupiter/tokens.js';
import { createJupiterClient } from '../../../src/jupiter/transport.js';
import { Redactor } from '../../../src/ops/redact.js';
import { createRandom } from '../../../src/random.js';
import { createSimulator } from '../../../src/sim/simulator.js';
import { syntheticTokens } from '../../../src/sim/tokenCatalog.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** A well-formed mint no token has. */
const UNKNOWN = 'Unknown1111111111111111111111111111111111111';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

const exit = (name: string, sell: string, receive: string): string =>
  `name: ${name}\nkind: price-order\nsell: ${sell}\nreceive: ${receive}\namount: "1%"\nexecution: local\ntake_profit:\n  - at: "+300%"\n    sell: "100%"\n`;

/** The simulator with `extra` synthetic tokens, over HTTP; a strategies directory; a watcher resolving through `cachedSearch`. */
async function stack(extra: number, files: ReadonlyMap<string, string>): Promise<{ watcher: StrategyWatcher; searches: string[]; dir: string }> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed: 'startup-search', extraTokens: extra });
  const server = await sim.listen();
  cleanups.push(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-startup-search-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of files) writeFileSync(join(dir, `${name}.yaml`), text);
  const searches: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname === '/tokens/v2/search') searches.push(url.searchParams.get('query') ?? '');
    return globalThis.fetch(input, init);
  };
  const client = createJupiterClient({
    baseUrl: server.url,
    apiKey: 'startup-search-key',
    requestsPerSecond: 10,
    clock,
    random: createRandom('startup-search'),
    redactor: new Redactor(),
    timeoutMs: 0,
    fetch,
  });
  const watcher = new StrategyWatcher({
    dir,
    cwd: dir,
    clock,
    intervalMs: 5_000,
    search: cachedSearch((query) => searchTokens(client, { query }), clock),
    limits: DEFAULT_STRATEGY_LIMITS,
  });
  return { watcher, searches, dir };
}

describe('startup token resolution', () => {
  it('250 strategies over 251 mints, one of them unknown: 3 search calls of at most 100 mints, each file resolved as alone', async () => {
    const mints = syntheticTokens('startup-search', 250).map((t) => t.mint);
    const files = new Map(mints.map((mint, i) => [`s${String(i).padStart(3, '0')}`, exit(`s${i}`, mint, USDC)]));
    files.set('unknown', exit('unknown', UNKNOWN, USDC));
    const { watcher, searches } = await stack(250, files);
    await watcher.poll();
    expect(searches.map((q) => q.split(',').length)).toEqual([100, 100, 52]);
    expect(searches.length).toBe(Math.ceil(252 / 100));
    expect(new Set(searches.flatMap((q) => q.split(',')))).toEqual(new Set([...mints, USDC, UNKNOWN]));
    expect(watcher.active.size).toBe(250);
    const spec = syntheticTokens('startup-search', 250)[7];
    expect(watcher.active.get('s7')?.tokens.sell).toMatchObject({ mint: spec?.mint, symbol: spec?.symbol, decimals: spec?.decimals, pinned: false });
    expect(watcher.rejected()).toEqual([{ file: 'unknown.yaml', problems: [`unknown.yaml:3:7: sell: no token has the mint ${UNKNOWN}`], kept: null }]);
  });

  it('a symbol is searched on its own (the API batches only mints), once for every file naming it', async () => {
    const mints = syntheticTokens('startup-search', 3).map((t) => t.mint);
    const { watcher, searches } = await stack(3, new Map(mints.map((mint, i) => [`s${i}`, exit(`s${i}`, mint, 'USDC')])));
    await watcher.poll();
    expect(searches).toEqual([mints.join(','), 'USDC']);
    expect(watcher.active.size).toBe(3);
  });
});
