/**
 * The example strategies backtested over the shipped 30-day price history
 * (test/fixtures/prices/30d.csv, written by scripts/backtestPrices.ts from the simulator's model):
 * the summary equals the one committed beside the prices, byte for byte, and three trades are
 * checked against what the prices and the simulator's documented costs say by hand:
 *
 * - take-profit (sol-take-profit): SOL first trades at or above $180 (reference $150, +20%) at
 *   2026-01-10T20:00Z ($180.3134179; USDC $0.9999887…); the vault order for half of the armed
 *   amount (2.49999875 SOL) fills there: 2 bps fee taken from the SOL, the rest at SOL/USDC, less
 *   price impact (trade ÷ (trade + $400M depth));
 * - DCA (sol-dca-daily): 25 USDC at 09:00 Berlin = 08:00 UTC in January, every day, 30 runs, each
 *   at that instant's prices, 2 bps fee taken from the SOL received;
 * - prediction exit (btc-no-take-profit): NO opens at $0.57 ≥ $0.55, so half of the 30 NO
 *   contracts are sold at once: 15 × $0.57 = $8.55, less the venue fee 0.07 × p × (1 − p) per
 *   contract rounded up to the cent ($0.26): $8.29.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jupbot, repoRoot, type CliRun } from '../../support/cli.js';

const PRICES = join(repoRoot, 'test/fixtures/prices/30d.csv');
const SUMMARY = join(repoRoot, 'test/fixtures/prices/30d.summary.txt');
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

interface Fill {
  strategy: string;
  at: number;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
}

/** The CSV's price of `token` at `time` (ISO). */
function priceAt(time: string, token: string): number {
  const line = readFileSync(PRICES, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${time},${token},`));
  if (line === undefined) throw new Error(`no ${token} price at ${time}`);
  return Number(line.split(',')[2]);
}

const impact = (usd: number): number => usd / (usd + 400_000_000);

let dir: string;
let run: CliRun;
let fills: Fill[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jupbot-backtest-'));
  run = await jupbot(['backtest', '--prices', PRICES, '--out', join(dir, 'out')]);
  const db = new Database(join(dir, 'out', 'jupbot-paper.sqlite'), { readonly: true });
  fills = db.prepare('SELECT strategy, at, in_mint, in_amount, out_mint, out_amount FROM fills ORDER BY at, id').all() as Fill[];
  db.close();
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('backtest of the example strategies over 30 days', () => {
  it('prints the summary committed beside the prices, byte for byte', () => {
    expect(run.stderr).toContain('database: ');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(readFileSync(SUMMARY, 'utf8'));
    expect(readFileSync(join(dir, 'out', 'summary.txt'), 'utf8')).toBe(run.stdout);
  });

  it('the take-profit fills where SOL first reaches +20%, at that price less the fee and impact', () => {
    const tp = fills.filter((f) => f.strategy === 'sol-take-profit');
    const first = tp[0] as Fill;
    expect(new Date(first.at).toISOString().slice(0, 16)).toBe('2026-01-10T20:00');
    expect([first.in_mint, first.in_amount, first.out_mint]).toEqual([SOL, '2499998750', USDC]);
    const routeIn = 2_499_998_750 - Math.floor((2_499_998_750 * 2) / 10_000);
    const rate = priceAt('2026-01-10T20:00:00.000Z', 'SOL') / priceAt('2026-01-10T20:00:00.000Z', 'USDC');
    const expected = (routeIn / 1e9) * rate * (1 - impact(2.5 * 180.3)) * 1e6;
    expect(Math.abs(Number(first.out_amount) - expected)).toBeLessThan(2);
  });

  it('the daily DCA buys 25 USDC of SOL at 08:00 UTC on each of the 30 days, at that instant’s price', () => {
    const dca = fills.filter((f) => f.strategy === 'sol-dca-daily');
    expect(dca.map((f) => new Date(f.at).toISOString().slice(0, 16))).toEqual(
      Array.from({ length: 30 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}T08:00`),
    );
    for (const fill of dca) {
      const time = `${new Date(fill.at).toISOString().slice(0, 10)}T08:00:00.000Z`;
      expect([fill.in_mint, fill.in_amount, fill.out_mint]).toEqual([USDC, '25000000', SOL]);
      const routeOut = 25 * (priceAt(time, 'USDC') / priceAt(time, 'SOL')) * (1 - impact(25)) * 1e9;
      const expected = routeOut - Math.floor((routeOut * 2) / 10_000);
      expect(Math.abs(Number(fill.out_amount) - expected)).toBeLessThan(2);
    }
  });

  it('the prediction exit sells half of the 30 NO contracts at $0.57 for exactly $8.29', () => {
    const sold = fills.filter((f) => f.strategy === 'btc-no-take-profit');
    expect(sold).toHaveLength(1);
    expect(new Date((sold[0] as Fill).at).toISOString().slice(0, 16)).toBe('2026-01-01T00:00');
    expect(sold.map((f) => [f.in_mint, f.in_amount, f.out_mint, f.out_amount])).toEqual([['prediction:BTC-1006-M1:no', '15000000', USDC, '8290000']]);
  });

  it('the audit reads a backtest as it reads a run: the same P&L, figure for figure', async () => {
    const pnl = await jupbot(['audit', 'pnl', '--db', join(dir, 'out', 'jupbot-paper.sqlite'), '--json']);
    expect(pnl.code).toBe(0);
    interface Figures {
      trades: number;
      realizedUsd: string;
      unrealizedUsd: string | null;
      feesUsd: string;
      unmatchedProceedsUsd: string;
      basisCostUsd: string;
    }
    const pick = (f: Figures): unknown[] => [f.trades, f.realizedUsd, f.unrealizedUsd, f.feesUsd, f.unmatchedProceedsUsd, f.basisCostUsd];
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')) as {
      total: Figures;
      preHeld: { unrealizedUsd: string };
      strategies: (Figures & { strategy: string })[];
    };
    const audit = JSON.parse(pnl.stdout) as { total: Figures; preHeld: { unrealizedUsd: string }; strategies: (Figures & { strategy: string })[] };
    expect(pick(audit.total)).toEqual(pick(summary.total));
    expect(audit.preHeld.unrealizedUsd).toBe(summary.preHeld.unrealizedUsd);
    for (const s of audit.strategies)
      expect([s.strategy, ...pick(s)]).toEqual([s.strategy, ...pick(summary.strategies.find((x) => x.strategy === s.strategy) as Figures)]);
    // The take-profit sold 4.9999975 of the paper wallet's opening 10 SOL, at the first price seen ($150): $749.999625 of basis.
    expect(pick(audit.total)).toEqual([44, '229.956543', '558.7830258005938526', '0.496788043321785092', '94.964589', '749.999625']);
  });

  it('refuses to write over an earlier backtest unless told to', async () => {
    const again = await jupbot(['backtest', '--prices', PRICES, '--out', join(dir, 'out'), '--to', '2026-01-01T01:00:00Z']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds a backtest: name another --out, or pass --force to replace it');
  });
});
