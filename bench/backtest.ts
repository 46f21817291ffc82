/**
 * A backtest's speed: 30 days of one-minute prices for five tokens (SOL, JUP, BONK, WIF, PYTH,
 * walked by the simulator's own price model) through ten strategies — vault and local exits,
 * trailing stops, swap and vault DCA — with the daemon polling prices every minute as the history
 * has them. `npm run build && node bench/backtest.mjs`-style runs are not needed: `npx tsx
 * bench/backtest.ts [days]` or, for figures without tsx's loader, `node --import tsx`. Prints the
 * wall time, simulated days per second and the trades. Target: under 60 s. Not part of `npm test`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parsePriceFile } from '../src/backtest/priceFile.js';
import { runBacktest } from '../src/backtest/runBacktest.js';
import { resolveSimToken } from '../src/backtest/simTokens.js';
import { summarize } from '../src/backtest/summary.js';
import { ManualClock } from '../src/clock.js';
import { parseConfigText } from '../src/config/loadConfig.js';
import { createSimulator } from '../src/sim/simulator.js';
import { TOKEN_CATALOG } from '../src/sim/tokenCatalog.js';
import { openDatabase } from '../src/store/db.js';
import { decimalTextOf } from '../src/money/decimal.js';

const DAYS = Number(process.argv[2] ?? 30);
const TARGET_MS = 60_000;
const START = Date.UTC(2026, 2, 1);
const SYMBOLS = ['SOL', 'JUP', 'BONK', 'WIF', 'PYTH'];

const STRATEGIES: Record<string, string> = {
  'sol-vault-exits.yaml': `name: sol-vault-exits\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "2"\nexecution: vault\nreference_price_usd: "150"\ntake_profit:\n  - at: "+5%"\n    sell: "50%"\n  - at: "+10%"\n    sell: "50%"\nstop_loss:\n  at: "-8%"\nexpires_after: 7d\nrenew_before: 1h\n`,
  'sol-local-trail.yaml': `name: sol-local-trail\nkind: price-order\nsell: SOL\nreceive: USDC\namount: "1"\nexecution: local\ntrailing_stop:\n  distance: "4%"\nrearm: true\n`,
  'jup-local-exits.yaml': `name: jup-local-exits\nkind: price-order\nsell: JUP\nreceive: USDC\namount: "100"\nexecution: local\ntake_profit:\n  - at: "0.88"\n    sell: "100%"\ntrailing_stop:\n  distance: "10%"\nslippage_bps: 100\n`,
  'bonk-trailing.yaml': `name: bonk-trailing\nkind: price-order\nsell: BONK\nreceive: USDC\namount: "1000000"\ntrailing_stop:\n  distance: "8%"\n  mode: ratchet\n  ratchet_step: "1%"\nexpires_after: 3d\nrenew_before: 2h\n`,
  'wif-local-exits.yaml': `name: wif-local-exits\nkind: price-order\nsell: WIF\nreceive: USDC\namount: "10"\nexecution: local\ntake_profit:\n  - at: "+6%"\n    sell: "100%"\nreference_price_usd: "2"\n`,
  'pyth-local-exits.yaml': `name: pyth-local-exits\nkind: price-order\nsell: PYTH\nreceive: USDC\namount: "50"\nexecution: local\nstop_loss:\n  at: "-5%"\nreference_price_usd: "0.4"\n`,
  'sol-dca-hourly.yaml': `name: sol-dca-hourly\nkind: dca\nbuy: SOL\npay_with: USDC\namount: "1"\nexecution: swap\nschedule:\n  cron: "0 * * * *"\n  timezone: UTC\n`,
  'jup-dca-daily.yaml': `name: jup-dca-daily\nkind: dca\nbuy: JUP\npay_with: USDC\namount: "5"\nexecution: swap\nschedule:\n  cron: "30 9 * * *"\n  timezone: Europe/Berlin\n`,
  'wif-dca-daily.yaml': `name: wif-dca-daily\nkind: dca\nbuy: WIF\npay_with: USDC\namount: "5"\nexecution: swap\nschedule:\n  cron: "0 12 * * *"\n  timezone: America/New_York\n`,
  'pyth-dca-vault.yaml': `name: pyth-dca-vault\nkind: dca\nbuy: PYTH\npay_with: USDC\namount: "20"\nexecution: vault\nvault:\n  orders: 10\n  interval: 1d\n  type: time_based\n`,
};

/** One-minute prices from the simulator's model (one-minute steps: the same walk, coarser). */
async function prices(): Promise<string> {
  const clock = new ManualClock(START);
  const sim = createSimulator({ clock, seed: 'bench-backtest', stepMs: 60_000 });
  const mints = SYMBOLS.map((s) => [s, (TOKEN_CATALOG.find((t) => t.symbol === s && t.isVerified) as { mint: string }).mint] as const);
  const lines = ['time,token,usd'];
  for (let at = START; at <= START + DAYS * 86_400_000; at += 60_000) {
    if (at > START) await sim.control.advance(60_000);
    const time = new Date(at).toISOString();
    for (const [symbol, mint] of mints) lines.push(`${time},${symbol},${decimalTextOf(Number(sim.control.price(mint).toPrecision(10)))}`);
  }
  return `${lines.join('\n')}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-backtest-'));
try {
  mkdirSync(join(dir, 'strategies'));
  for (const [name, text] of Object.entries(STRATEGIES)) writeFileSync(join(dir, 'strategies', name), text);
  const csv = await prices();
  const history = parsePriceFile(csv, 'bench.csv', resolveSimToken);
  const config = parseConfigText(`data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nlog: { level: warn }\n`, join(dir, 'config.yaml'), {}, dir);
  process.stdout.write(`${DAYS} days, ${history.steps.length} one-minute steps, ${SYMBOLS.length} tokens, ${Object.keys(STRATEGIES).length} strategies\n`);
  const began = performance.now();
  const run = await runBacktest({ config, prices: history, outDir: join(dir, 'out') });
  const ms = performance.now() - began;
  const db = openDatabase(run.database, { readonly: true });
  const summary = summarize(db, history, run);
  db.close();
  const rss = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(
    `backtest: ${(ms / 1000).toFixed(1)} s (${(DAYS / (ms / 1000)).toFixed(2)} simulated days/s), ${summary.total.trades} trades, ` +
      `${summary.strategies.filter((s) => s.trades > 0).length} strategies traded, RSS ${rss.toFixed(0)} MB — target < ${TARGET_MS / 1000} s: ${ms < TARGET_MS ? 'met' : 'MISSED'}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
