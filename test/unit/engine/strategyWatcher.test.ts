import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { StrategyWatcher } from '../../../src/engine/strategyWatcher.js';
import type { TokenSearch } from '../../../src/strategies/tokenResolution.js';
import { AuditLog } from '../../../src/store/audit.js';
import type { Db } from '../../../src/store/db.js';
import { openStore } from '../../../src/store/migrate.js';
import { StrategyVersions } from '../../../src/store/strategyVersions.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { decide } from '../../../src/strategies/decide.js';
import { parseFixed } from '../../../src/money/decimal.js';
import type { Snapshot } from '../../../src/strategies/snapshot.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const POLL = 5_000;
const stop = (at: string): string => `name: guard\nkind: price-order\nsell: SOL\namount: "1"\nreference_price_usd: "150"\nstop_loss: { at: "${at}" }\n`;

let dir: string;
let db: Db;
let clock: ManualClock;
let stopWatcher: AbortController;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jupbot-strategies-'));
  clock = new ManualClock(Date.UTC(2026, 5, 1));
  db = openStore(':memory:', { clock }).db;
  stopWatcher = new AbortController();
});

afterEach(() => {
  stopWatcher.abort();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(): { watcher: StrategyWatcher; audit: AuditLog } {
  const audit = new AuditLog(db, clock);
  const watcher = new StrategyWatcher({
    dir,
    cwd: dir,
    clock,
    intervalMs: POLL,
    search: paperTokenSearch,
    limits: DEFAULT_STRATEGY_LIMITS,
    pins: new TokenPins(db),
    versions: new StrategyVersions(db),
    audit,
  });
  void watcher.run(stopWatcher.signal);
  return { watcher, audit };
}

function snapshotAt(now: number): Snapshot {
  return {
    prices: new Map([[SOL, { usd: parseFixed('150') ?? 0n, at: now }]]),
    balances: new Map([[SOL, 5_000_000_000n]]),
    vaultOrders: new Map(),
    positions: [],
    markets: new Map(),
    scores: new Map(),
    tradingActive: true,
    priceImpactBps: new Map(),
  };
}

function stopPrice(watcher: StrategyWatcher): string | undefined {
  const strategy = watcher.active.get('guard');
  if (!strategy) return undefined;
  const [intent] = decide(strategy, {}, snapshotAt(clock.now()), clock.now()).intents;
  return intent?.kind === 'place-vault-order' ? intent.order.triggerPriceUsd : undefined;
}

describe('StrategyWatcher (hot reload)', () => {
  it('applies a valid edit within one poll, storing every version with its hash', async () => {
    writeFileSync(join(dir, 'guard.yaml'), stop('-10%'));
    const { watcher, audit } = start();
    const first = await watcher.events.next('applied');
    expect(first).toMatchObject({ file: 'guard.yaml', name: 'guard', version: 1, previousHash: null });
    expect(stopPrice(watcher)).toBe('135');

    writeFileSync(join(dir, 'guard.yaml'), stop('-20%'));
    const applied = watcher.events.next('applied');
    await clock.advance(POLL);
    expect(await applied).toMatchObject({ version: 2, previousHash: first.hash, changes: ['stop_loss'] });
    expect(stopPrice(watcher)).toBe('120');

    const rows = db.prepare('SELECT version, yaml_sha256, source_file FROM strategy_versions ORDER BY version').all();
    expect(rows).toEqual([
      { version: 1, yaml_sha256: first.hash, source_file: 'guard.yaml' },
      { version: 2, yaml_sha256: watcher.active.get('guard')?.hash, source_file: 'guard.yaml' },
    ]);
    expect(
      audit
        .list({ kind: 'strategy.version' })
        .map((a) => JSON.parse(a.data) as { version: number })
        .map((d) => d.version),
    ).toEqual([1, 2]);
    expect(db.prepare('SELECT symbol, mint FROM token_pins ORDER BY symbol').all()).toEqual([
      { symbol: 'SOL', mint: SOL },
      { symbol: 'USDC', mint: USDC },
    ]);
  });

  it('tells a restart with an unchanged file from one whose file changed while stopped', async () => {
    writeFileSync(join(dir, 'guard.yaml'), stop('-10%'));
    const first = start();
    expect(await first.watcher.events.next('applied')).toMatchObject({ version: 1, changes: ['(new)'] });
    stopWatcher.abort();

    // A new process on the same database: same file.
    stopWatcher = new AbortController();
    const second = start();
    expect(await second.watcher.events.next('applied')).toMatchObject({ version: 1, changes: ['(unchanged since the last run)'] });
    stopWatcher.abort();

    // And again after an edit made while it was stopped.
    writeFileSync(join(dir, 'guard.yaml'), stop('-20%'));
    stopWatcher = new AbortController();
    const third = start();
    expect(await third.watcher.events.next('applied')).toMatchObject({
      version: 2,
      changes: ['(changed while stopped; the last run had version 1)'],
    });
  });

  it('rejects an invalid edit with its errors while the old version keeps producing intents', async () => {
    writeFileSync(join(dir, 'guard.yaml'), stop('-10%'));
    const { watcher, audit } = start();
    const first = await watcher.events.next('applied');

    writeFileSync(join(dir, 'guard.yaml'), stop('+10%').replace('amount: "1"', 'amount: 1'));
    const rejected = watcher.events.next('rejected');
    await clock.advance(POLL);
    const event = await rejected;
    expect(event.diagnostics.map(formatDiagnostic)).toEqual([
      'guard.yaml:4:9: amount: 1 must be quoted ("1" tokens, or a share such as "50%"), so every digit is kept',
    ]);
    expect(event.kept).toEqual({ name: 'guard', hash: first.hash });
    expect(watcher.active.get('guard')?.hash).toBe(first.hash);
    expect(stopPrice(watcher)).toBe('135');
    const [row] = audit.list({ kind: 'strategy.rejected' });
    expect(JSON.parse(row?.data ?? '{}')).toMatchObject({
      file: 'guard.yaml',
      diagnostics: [formatDiagnostic(event.diagnostics[0] ?? { file: '', line: 0, col: 0, message: '', path: [] })],
    });

    // Nothing changes on the next polls: the rejection is not repeated.
    let again = 0;
    watcher.events.on('rejected', () => again++);
    await clock.advance(3 * POLL);
    expect(again).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM strategy_versions').get()).toEqual({ n: 1 });
  });

  it('rejects a second file with a name already running, and removes a deleted file', async () => {
    writeFileSync(join(dir, 'a.yaml'), stop('-10%'));
    const { watcher } = start();
    await watcher.events.next('applied');
    writeFileSync(join(dir, 'b.yaml'), stop('-15%'));
    const rejected = watcher.events.next('rejected');
    await clock.advance(POLL);
    expect((await rejected).diagnostics.map(formatDiagnostic)).toEqual([
      'b.yaml:1:7: strategy name "guard" is also used by a.yaml:1:7; names must be unique across files',
    ]);

    // Once a.yaml is gone, b.yaml may run.
    unlinkSync(join(dir, 'a.yaml'));
    const removed = watcher.events.next('removed');
    const applied = watcher.events.next('applied');
    await clock.advance(POLL);
    expect(await removed).toMatchObject({ file: 'a.yaml', name: 'guard' });
    expect(await applied).toMatchObject({ file: 'b.yaml', name: 'guard' });
    expect(stopPrice(watcher)).toBe('127.5');
    expect(readFileSync(join(dir, 'b.yaml'), 'utf8')).toContain('-15%');
  });

  it('retries a file whose token search failed, without an edit, and reports the failure once', async () => {
    writeFileSync(join(dir, 'guard.yaml'), stop('-10%'));
    let down = true;
    const search: TokenSearch = (q) => (down ? Promise.reject(new Error('HTTP 503')) : paperTokenSearch(q));
    const watcher = new StrategyWatcher({ dir, cwd: dir, clock, intervalMs: POLL, search, limits: DEFAULT_STRATEGY_LIMITS });
    let rejections = 0;
    watcher.events.on('rejected', () => rejections++);
    const rejected = watcher.events.next('rejected');
    void watcher.run(stopWatcher.signal);
    expect((await rejected).diagnostics.map(formatDiagnostic)).toEqual([
      'guard.yaml:1:1: receive (default USDC): token search for "USDC" failed: HTTP 503',
      'guard.yaml:3:7: sell: token search for "SOL" failed: HTTP 503',
    ]);
    await clock.advance(2 * POLL);
    expect(rejections).toBe(1);
    down = false;
    const applied = watcher.events.next('applied');
    await clock.advance(POLL);
    expect(await applied).toMatchObject({ name: 'guard' });
    expect(stopPrice(watcher)).toBe('135');
  });
});
