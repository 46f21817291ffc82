/**
 * `jupbot audit trades` and `audit pnl` on a database holding docs/audit.md's worked example: the
 * figures the commands print are the hand-computed ones (test/unit/audit/pnl.test.ts works them out).
 */
import { describe, expect, it } from 'vitest';
import { basisExampleDatabase, exampleDatabase } from '../audit/exampleDatabase.js';
import { audit, START } from './auditHarness.js';

describe('jupbot audit trades', () => {
  it('lists every fill as a trade, exact in --json, by symbol and human amount in the table', async () => {
    const file = exampleDatabase();
    const json = await audit(['--db', file, 'trades', '--json']);
    expect(json.code).toBe(0);
    const trades = JSON.parse(json.stdout) as { side: string; token: { symbol: string; amount: string }; priceUsd: string | null }[];
    expect(trades.map((t) => `${t.side} ${t.token.amount} ${t.token.symbol} @ ${t.priceUsd ?? '-'}`)).toEqual([
      'buy 2 SOL @ 150',
      'buy 1 SOL @ 160',
      'sell 2.5 SOL @ 170',
      'swap 0.25 SOL @ -',
      'sell 400 JUP @ 0.05',
      'sell 2 m1 YES @ 0.9',
    ]);
    const table = await audit(['--db', file, 'trades', '--strategy', 'sol-tp', '--token', 'JUP']);
    expect(table.stdout.trim().split('\n')).toHaveLength(3);
    expect(table.stdout).toContain('0.25 SOL');
    expect(table.stdout).toContain('1000 JUP');
    expect(table.stdout).toMatch(/400 JUP\s+20 USDC\s+\$0\.05/);
  });

  it('writes RFC 4180 CSV with a header', async () => {
    const csv = (await audit(['--db', exampleDatabase(), 'trades', '--csv', '--until', String(START + 90_000)])).stdout;
    expect(csv.split('\r\n')[0]).toBe(
      'at,strategy,strategy_version,source,side,token,token_mint,token_amount,counter,counter_mint,counter_amount,price_usd,fee_token,fee_amount,fee_usd,intent_id,order_id,signature,idx',
    );
    expect(csv.split('\r\n')[1]).toContain(',sol-tp,,swap,buy,SOL,So11111111111111111111111111111111111111112,2,USDC,');
    expect(csv.split('\r\n').filter((l) => l !== '')).toHaveLength(2);
  });
});

describe('jupbot audit pnl', () => {
  it('prints the hand-computed figures, per strategy and in total', async () => {
    const file = exampleDatabase();
    const run = await audit(['--db', file, 'pnl', '--json']);
    const report = JSON.parse(run.stdout) as {
      total: Record<string, unknown>;
      strategies: { strategy: string; realizedUsd: string; holdings: { symbol: string }[] }[];
    };
    expect(report.total).toEqual({
      trades: 6,
      realizedUsd: '49',
      unrealizedUsd: '8.5',
      feesUsd: '0.761',
      unpricedFees: 0,
      unmatchedProceedsUsd: '1.8',
      basisCostUsd: '0',
    });
    expect(report.strategies.map((s) => [s.strategy, s.realizedUsd, s.holdings.map((h) => h.symbol)])).toEqual([
      ['nba-exit', '0', []],
      ['sol-tp', '49', ['JUP', 'SOL']],
    ]);
    const table = (await audit(['--db', file, 'pnl'])).stdout;
    expect(table).toMatch(/total\s+6\s+\$49\.00\s+\$8\.50\s+\$0\.76\s+\$1\.80/);
    expect(table).toMatch(/sol-tp\s+SOL\s+0\.25\s+\$40\.00\s+\$42\.50\s+\$2\.50/);
  });
});

describe('jupbot audit pnl with units held before jupbot', () => {
  it('realizes a sale beyond the lots at the basis, marks what a basis gave, and shows what the wallet still holds', async () => {
    const file = basisExampleDatabase();
    const report = JSON.parse((await audit(['--db', file, 'pnl', '--json'])).stdout) as {
      strategies: { strategy: string; realizedUsd: string; basisCostUsd: string; unrealizedUsd: string }[];
      preHeld: { label: string; unrealizedUsd: string; holdings: { symbol: string; costUsd: string; basis: unknown }[] };
      total: Record<string, unknown>;
    };
    expect(report.strategies.map((s) => [s.strategy, s.realizedUsd, s.basisCostUsd, s.unrealizedUsd])).toEqual([
      ['jup-exit', '3', '12', '0'],
      ['nba-exit', '0', '0', '0'],
      ['sol-tp', '49', '0', '11'],
    ]);
    expect(report.preHeld).toMatchObject({ label: 'held before jupbot', unrealizedUsd: '62' });
    expect(report.preHeld.holdings.map((h) => [h.symbol, h.costUsd, h.basis])).toEqual([
      ['JUP', '8', { source: 'first-price', priceUsd: '0.04', at: '2026-01-01T00:00:00.000Z' }],
      ['SOL', '120', { source: 'operator', priceUsd: '120', at: '2026-01-01T00:00:30.000Z' }],
    ]);
    expect(report.total).toEqual({
      trades: 7,
      realizedUsd: '52',
      unrealizedUsd: '73',
      feesUsd: '0.761',
      unpricedFees: 0,
      unmatchedProceedsUsd: '1.8',
      basisCostUsd: '12',
    });
    const table = (await audit(['--db', file, 'pnl'])).stdout;
    expect(table).toMatch(/jup-exit\s+1\s+\$3\.00\*\s+\$0\.00/);
    expect(table).toMatch(/held before jupbot\s+—\s+—\s+\$62\.00\*/);
    expect(table).toMatch(/total\s+7\s+\$52\.00\*\s+\$73\.00\s+\$0\.76\s+\$1\.80/);
    expect(table).toMatch(/held before jupbot\s+SOL\s+1\s+\$120\.00\*\s+\$180\.00\s+\$60\.00/);
    expect(table).toContain(
      '* from units the wallet held before jupbot traded them, at their basis (jupbot audit basis): $12.00 of cost taken by sales and swaps; ' +
        'still held: JUP at $0.04 (first price seen 2026-01-01T00:00:00Z), SOL at $120 (set by operator 2026-01-01T00:00:30Z)\n',
    );
  });

  it("gives a strategy the same figures narrowed to it as in the whole report; the wallet's holdings belong to none", async () => {
    const file = basisExampleDatabase();
    const narrowed = JSON.parse((await audit(['--db', file, 'pnl', '--json', '--strategy', 'jup-exit'])).stdout) as {
      strategies: unknown[];
      preHeld: { holdings: unknown[] };
      total: { realizedUsd: string; basisCostUsd: string; unrealizedUsd: string };
    };
    expect(narrowed.strategies).toHaveLength(1);
    expect(narrowed.preHeld.holdings).toEqual([]);
    expect([narrowed.total.realizedUsd, narrowed.total.basisCostUsd, narrowed.total.unrealizedUsd]).toEqual(['3', '12', '0']);
    // Narrowed to JUP: the JUP trades, and the wallet's JUP; until the sale, nothing was realized and SOL stood at its fill price.
    const jup = JSON.parse((await audit(['--db', file, 'pnl', '--json', '--token', 'jup'])).stdout) as { preHeld: { holdings: { symbol: string }[] } };
    expect(jup.preHeld.holdings.map((h) => h.symbol)).toEqual(['JUP']);
    const before = JSON.parse((await audit(['--db', file, 'pnl', '--json', '--until', String(START + 6.5 * 60_000)])).stdout) as {
      preHeld: { unrealizedUsd: string; holdings: { symbol: string; priceUsd: string }[] };
      total: { realizedUsd: string };
    };
    expect(before.total.realizedUsd).toBe('49');
    // SOL's kept price came after --until: the closing price is the last fill's before it ($170).
    expect(before.preHeld.holdings.map((h) => [h.symbol, h.priceUsd])).toEqual([
      ['JUP', '0.05'],
      ['SOL', '170'],
    ]);
    expect(before.preHeld.unrealizedUsd).toBe('55');
  });
});

describe('jupbot audit orders', () => {
  it('says so when the database holds no order, and lists none in --json', async () => {
    const file = exampleDatabase();
    expect((await audit(['--db', file, 'orders'])).stdout).toBe('no orders\n');
    expect(JSON.parse((await audit(['--db', file, 'orders', '--json'])).stdout)).toEqual([]);
  });
});
