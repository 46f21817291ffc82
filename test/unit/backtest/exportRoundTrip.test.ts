import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parsePriceFile } from '../../../src/backtest/priceFile.js';
import { resolveSimToken } from '../../../src/backtest/simTokens.js';
import { ManualClock } from '../../../src/clock.js';
import type { CliContext } from '../../../src/cli/context.js';
import { pricesCommand } from '../../../src/cli/prices.js';
import { TOKEN_CATALOG } from '../../../src/sim/tokenCatalog.js';
import { openStore } from '../../../src/store/migrate.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { decimalTextOf, parseFixedRounded } from '../../../src/money/decimal.js';
import { tempDir } from '../store/helpers.js';

const T0 = Date.UTC(2026, 10, 1);
const MINUTE = 60_000;
const BONK = TOKEN_CATALOG.find((t) => t.symbol === 'BONK')?.mint as string;

/** The decimal text, exactly, as a numerator over 10^places. */
function exact(text: string): { units: bigint; places: number } {
  const [whole, frac = ''] = text.split('.');
  return { units: BigInt(`${whole}${frac}`), places: frac.length };
}

async function exportCsv(file: string): Promise<string> {
  let stdout = '';
  const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: () => undefined, env: {}, cwd: '/', clock: new ManualClock(T0 + 86_400_000) };
  const program = new Command('jupbot').exitOverride().addCommand(pricesCommand(ctx, ({ db }) => Promise.resolve(db ?? '')));
  await program.parseAsync(['prices', '--db', file, 'export', '--from', '7d'], { from: 'user' });
  return stdout;
}

describe('prices export → backtest --prices', () => {
  it('reads back every token of the simulated market, 21-place prices included, each to the nearest 1e-18', async () => {
    const file = join(tempDir(), 'jupbot-paper.sqlite');
    const { db } = openStore(file, { clock: new ManualClock(T0) });
    // Each token at its catalogue price and at walked prices whose shortest float text runs long.
    const kept: { at: number; mint: string; usd: string }[] = [];
    TOKEN_CATALOG.forEach((token, i) => {
      for (const [n, factor] of [1, 1.000_000_123_456_789, 0.987_654_321_012_345_6].entries()) {
        kept.push({ at: T0 + n * MINUTE, mint: token.mint, usd: decimalTextOf(token.priceUsd * factor + i * 1e-12) as string });
      }
    });
    kept.push({ at: T0 + 3 * MINUTE, mint: BONK, usd: decimalTextOf(1.9905791449550526e-5) as string });
    for (const sample of kept) recordPriceSamples(db, [sample], sample.at, MINUTE);
    db.close();
    expect(kept.at(-1)?.usd).toBe('0.000019905791449550526');
    expect(kept.some((s) => exact(s.usd).places > 18)).toBe(true);

    const history = parsePriceFile(await exportCsv(file), 'prices.csv', resolveSimToken);

    const read = history.steps.flatMap((step) => step.points.map((p) => ({ at: step.at, mint: p.key, usd: p.usd })));
    expect(read).toHaveLength(kept.length);
    for (const sample of kept) {
      const point = read.find((p) => p.at === sample.at && p.mint === sample.mint);
      expect(typeof point?.usd, `${sample.mint} at ${sample.at}`).toBe('bigint');
      const usd = point?.usd as bigint;
      // Within half of 1e-18 of the exact kept text: the reader's precision, and nothing lost beyond it.
      const { units, places } = exact(sample.usd);
      const scale = 10n ** BigInt(Math.max(places, 18));
      const keptScaled = units * (scale / 10n ** BigInt(places));
      const readScaled = usd * (scale / 10n ** 18n);
      const diff = keptScaled > readScaled ? keptScaled - readScaled : readScaled - keptScaled;
      expect(diff * 2n <= scale / 10n ** 18n, `${sample.usd} read as ${usd}`).toBe(true);
    }
    expect(read.find((p) => p.mint === BONK && p.at === T0 + 3 * MINUTE)?.usd).toBe(19_905_791_449_551n);
  });

  it('rounds on the digits, a half up', () => {
    expect(parseFixedRounded('0.0000000000000000015')).toBe(2n);
    expect(parseFixedRounded('0.0000000000000000014999')).toBe(1n);
    expect(parseFixedRounded('1.25')).toBe(1_250_000_000_000_000_000n);
    expect(parseFixedRounded('1e-9')).toBeUndefined();
    expect(parseFixedRounded('-1')).toBeUndefined();
  });
});
