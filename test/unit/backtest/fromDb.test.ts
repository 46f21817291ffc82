/**
 * `jupbot backtest --from-db`: a daemon's kept prices (`price_samples`) replayed. Two hours of SOL at
 * one-minute samples rising through a local take-profit's $160: it sells once, at the first sample
 * at or above it, and the summary names what the simulated market does not have.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openStore } from '../../../src/store/migrate.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { jupbot } from '../../support/cli.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const START = Date.UTC(2026, 5, 1, 12);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('backtest --from-db', () => {
  it('replays the samples a daemon kept, within --from and --to', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-backtest-db-'));
    dirs.push(dir);
    const file = join(dir, 'live.sqlite');
    const { db } = openStore(file, { clock: new ManualClock(START) });
    // SOL from $150 up by $0.25 a minute (crossing $160 at minute 40), a token the simulator lacks.
    for (let m = 0; m <= 120; m++) {
      recordPriceSamples(
        db,
        [
          { mint: SOL, usd: (150 + m * 0.25).toFixed(2) },
          { mint: USDC, usd: '1' },
          { mint: 'NotInTheSimulatedMarket1111111111111111111', usd: '3' },
        ],
        START + m * 60_000,
        60_000,
      );
    }
    db.close();
    mkdirSync(join(dir, 'strategies'));
    writeFileSync(
      join(dir, 'strategies', 'sol-at-160.yaml'),
      'name: sol-at-160\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "1"\nexecution: local\ntake_profit:\n  - at: "160"\n    sell: "100%"\n',
    );
    const out = join(dir, 'out');
    const run = await jupbot([
      'backtest',
      join(dir, 'strategies', 'sol-at-160.yaml'),
      '--from-db',
      file,
      '--from',
      new Date(START).toISOString(),
      '--to',
      new Date(START + 90 * 60_000).toISOString(),
      '--out',
      out,
      '--json',
    ]);
    expect(run.stderr).toContain('database: ');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      from: string;
      to: string;
      priceSteps: number;
      strategies: { strategy: string; trades: number }[];
      notes: string[];
    };
    expect([summary.from, summary.to, summary.priceSteps]).toEqual(['2026-06-01T12:00:00.000Z', '2026-06-01T13:30:00.000Z', 91]);
    expect(summary.strategies).toMatchObject([{ strategy: 'sol-at-160', trades: 1 }]);
    expect(summary.notes).toEqual(['NotInTheSimulatedMarket1111111111111111111: kept in the database but not in the simulated market; left out']);
    const fills = new Database(join(out, 'jupbot-paper.sqlite'), { readonly: true });
    const rows = fills.prepare('SELECT at, in_mint, in_amount, out_mint FROM fills').all() as {
      at: number;
      in_mint: string;
      in_amount: string;
      out_mint: string;
    }[];
    fills.close();
    // The first sample at or above $160 is minute 40; the daemon swaps on that instant's tick.
    expect(rows.map((r) => [new Date(r.at).toISOString().slice(0, 16), r.in_mint, r.in_amount, r.out_mint])).toEqual([
      ['2026-06-01T12:40', SOL, '1000000000', USDC],
    ]);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toEqual(summary);
  }, 120_000);
});
