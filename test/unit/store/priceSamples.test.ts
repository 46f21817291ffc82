import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { CliContext } from '../../../src/cli/context.js';
import { pricesCommand } from '../../../src/cli/prices.js';
import { SOL_MINT } from '../../../src/solana/programIds.js';
import { openStore } from '../../../src/store/migrate.js';
import { listPriceSamples, prunePriceSamples, recordPriceSamples } from '../../../src/store/priceSamples.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { decimalTextOf } from '../../../src/money/decimal.js';
import { tempDir, track } from './helpers.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 1);
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

function store(): { file: string; db: ReturnType<typeof openStore>['db'] } {
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock: new ManualClock(T0) });
  return { file, db: track(db) };
}

describe('price history', () => {
  it('keeps the first price polled in each interval, one per token', () => {
    const { db } = store();
    expect(
      recordPriceSamples(
        db,
        [
          { mint: SOL_MINT, usd: '150.5' },
          { mint: JUP, usd: '0.8' },
        ],
        T0 + 5_000,
        MINUTE,
      ),
    ).toBe(2);
    expect(recordPriceSamples(db, [{ mint: SOL_MINT, usd: '151' }], T0 + 40_000, MINUTE)).toBe(0);
    expect(recordPriceSamples(db, [{ mint: SOL_MINT, usd: '152' }], T0 + MINUTE + 1, MINUTE)).toBe(1);
    expect(listPriceSamples(db)).toEqual([
      { mint: JUP, at: T0, usd: '0.8' },
      { mint: SOL_MINT, at: T0, usd: '150.5' },
      { mint: SOL_MINT, at: T0 + MINUTE, usd: '152' },
    ]);
    expect(listPriceSamples(db, { since: T0 + 1, mints: [SOL_MINT] })).toEqual([{ mint: SOL_MINT, at: T0 + MINUTE, usd: '152' }]);
    expect(prunePriceSamples(db, T0 + MINUTE)).toBe(2);
    expect(listPriceSamples(db)).toHaveLength(1);
  });

  it('stores a float price as plain decimal text, never with an exponent', () => {
    expect(decimalTextOf(1.5e-7)).toBe('0.00000015');
    expect(decimalTextOf(151.25)).toBe('151.25');
    expect(decimalTextOf(-1)).toBeNull();
    expect(decimalTextOf(Number.NaN)).toBeNull();
  });

  it('`jupbot prices export` writes the samples as CSV, by symbol where one is pinned', async () => {
    const { file, db } = store();
    new TokenPins(db).pin({ strategy: 's', symbol: 'JUP', mint: JUP, decimals: 6 }, T0);
    recordPriceSamples(
      db,
      [
        { mint: SOL_MINT, usd: '150' },
        { mint: JUP, usd: '0.8' },
      ],
      T0,
      MINUTE,
    );
    recordPriceSamples(db, [{ mint: JUP, usd: '0.81' }], T0 + MINUTE, MINUTE);
    db.close();
    let stdout = '';
    const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: () => undefined, env: {}, cwd: '/', clock: new ManualClock(T0 + 3_600_000) };
    const program = new Command('jupbot').exitOverride().addCommand(pricesCommand(ctx, ({ db: f }) => Promise.resolve(f ?? '')));
    await program.parseAsync(['prices', '--db', file, 'export', '--token', 'jup'], { from: 'user' });
    expect(stdout).toBe(`time,token,mint,usd\r\n2026-11-01T00:00:00.000Z,JUP,${JUP},0.8\r\n2026-11-01T00:01:00.000Z,JUP,${JUP},0.81\r\n`);
  });
});
