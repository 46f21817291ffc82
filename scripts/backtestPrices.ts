/**
 * Writes the price history the backtest tests replay: 30 days from 2026-01-01T00:00Z, one row per
 * token every 15 minutes, from the simulator's own price model (each token's random walk, seeded),
 * plus the marks of the two prediction markets the example strategies trade while they are open.
 * Deterministic: the same seed writes the same bytes. `npm run fixtures:prices` rewrites
 * test/fixtures/prices/30d.csv; pass a seed to try another path.
 */
import { writeFileSync } from 'node:fs';
import { ManualClock } from '../src/clock.js';
import { decimalTextOf } from '../src/money/decimal.js';
import { createSimulator } from '../src/sim/simulator.js';
import { TOKEN_CATALOG } from '../src/sim/tokenCatalog.js';

const START = Date.UTC(2026, 0, 1);
const DAYS = 30;
const EVERY_MS = 15 * 60_000;
const SYMBOLS = ['SOL', 'USDC', 'JUP', 'BONK'];
const MARKS: readonly [string, 'yes' | 'no'][] = [
  ['BTC-1006-M1', 'no'],
  ['NBA-1001-M1', 'yes'],
  ['NBA-1001-M1', 'no'],
];

export async function backtestPrices(seed: string): Promise<string> {
  const clock = new ManualClock(START);
  const sim = createSimulator({ clock, seed });
  const mints = SYMBOLS.map((symbol) => {
    const spec = TOKEN_CATALOG.find((t) => t.symbol === symbol && t.isVerified);
    if (!spec) throw new Error(`no verified ${symbol} in the catalog`);
    return [symbol, spec.mint] as const;
  });
  const lines = ['time,token,usd'];
  for (let at = START; at <= START + DAYS * 86_400_000; at += EVERY_MS) {
    if (at > START) await sim.control.advance(EVERY_MS);
    const time = new Date(at).toISOString();
    for (const [symbol, mint] of mints) lines.push(`${time},${symbol},${decimalTextOf(Number(sim.control.price(mint).toPrecision(10)))}`);
    for (const [market, side] of MARKS) {
      const mark = sim.control.mark(market, side);
      if (mark !== null) lines.push(`${time},prediction:${market}:${side},${mark}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seed = process.argv[2] ?? 'backtest';
  const out = process.argv[3] ?? 'test/fixtures/prices/30d.csv';
  writeFileSync(out, await backtestPrices(seed));
  process.stdout.write(`wrote ${out} (seed ${seed})\n`);
}
