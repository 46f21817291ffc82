/**
 * `jupbot audit pnl` and `jupbot report` over 100,000 fills: `npx tsx bench/report.ts` (or the built
 * code). Not part of `npm test`. Target: each under 5 s on this machine. The database holds the
 * fills and their `fill` actions (the report verifies the whole chain), across 20 strategies buying
 * and selling SOL for USDC with a fee, and a few swaps into JUP; the wallet's balances recorded
 * every 50 fills; and 90 days of prices kept every minute for four tokens (518,400 rows), which the
 * report marks the wallet to.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computePnl } from '../src/audit/pnl.js';
import { reportData } from '../src/audit/reportData.js';
import { renderReport } from '../src/audit/reportHtml.js';
import { tokenNamer } from '../src/audit/tokenNames.js';
import { toTrade } from '../src/audit/trades.js';
import { ManualClock } from '../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../src/solana/programIds.js';
import { AuditLog } from '../src/store/audit.js';
import { listFills, pinnedSymbols } from '../src/store/fillRecords.js';
import { recordFill } from '../src/store/fills.js';
import { openStore } from '../src/store/migrate.js';
import { recordPriceSamples } from '../src/store/priceSamples.js';

const FILLS = 100_000;
const PRICE_DAYS = 90;
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const TARGET_MS = 5_000;
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-report-'));
const file = join(dir, 'bench.sqlite');
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
const audit = new AuditLog(db, clock);

let built = performance.now();
db.transaction(() => {
  for (let i = 0; i < FILLS; i++) {
    const strategy = `s${i % 20}`;
    const price = 150 + (i % 40);
    const kind = i % 50 === 49 ? 'swap' : Math.floor(i / 20) % 2 === 0 ? 'buy' : 'sell';
    const sol = BigInt(100_000_000 + (i % 7) * 1_000_000);
    const usdc = (sol * BigInt(price)) / 1000n;
    const [inMint, inAmount, inDecimals, outMint, outAmount, outDecimals] =
      kind === 'buy'
        ? [USDC_MINT, usdc, 6, SOL_MINT, sol, 9]
        : kind === 'sell'
          ? [SOL_MINT, sol, 9, USDC_MINT, usdc, 6]
          : [SOL_MINT, sol / 10n, 9, JUP, 1_000_000_000n, 6];
    const fill = {
      signature: `sig${i}`,
      idx: 0,
      source: 'swap' as const,
      inMint,
      inAmount,
      inDecimals,
      outMint,
      outAmount,
      outDecimals,
      fee: kind === 'swap' ? null : { mint: USDC_MINT, amount: usdc / 1000n, decimals: 6 },
      at: clock.now() + i * 1000,
    };
    recordFill(db, audit, fill, { intentId: null, strategy }, clock.now());
    if (i % 50 === 0) {
      const balances = [
        { mint: BONK, decimals: 5, amount: String(500_000_000_000 + i) },
        { mint: USDC_MINT, decimals: 6, amount: String(1_000_000_000 + i * 1000) },
        { mint: JUP, decimals: 6, amount: String(i * 10) },
        { mint: SOL_MINT, decimals: 9, amount: String(10_000_000_000 + i * 100) },
      ];
      audit.append({ kind: 'wallet.balances', data: { balances, readAt: fill.at } });
    }
  }
  for (let minute = 0; minute < PRICE_DAYS * 1440; minute++) {
    const wave = Math.sin(minute / 700);
    const prices = [
      { mint: SOL_MINT, usd: (150 + 30 * wave).toFixed(6) },
      { mint: JUP, usd: (0.8 + 0.1 * wave).toFixed(8) },
      { mint: USDC_MINT, usd: '1' },
      { mint: BONK, usd: (0.00002 + 0.000002 * wave).toFixed(12) },
    ];
    recordPriceSamples(db, prices, clock.now() + minute * 60_000, 60_000);
  }
})();
built = performance.now() - built;

function time<T>(work: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = work();
  return { ms: performance.now() - start, value };
}

const pnl = time(() => {
  const name = tokenNamer(pinnedSymbols(db));
  return computePnl(listFills(db).map((f) => toTrade(f, name)));
});
const report = time(() => renderReport(reportData(db, clock.now())));
db.close();

const verdict = (ms: number): string => (ms <= TARGET_MS ? 'ok' : `OVER the ${TARGET_MS} ms target`);
process.stdout.write(
  [
    `database: ${FILLS.toLocaleString('en')} fills and their actions, built in ${built.toFixed(0)} ms, ${(statSync(file).size / 1e6).toFixed(1)} MB`,
    `audit pnl: ${pnl.ms.toFixed(0)} ms (${pnl.value.strategies.length} strategies, ${pnl.value.total.trades} trades) ${verdict(pnl.ms)}`,
    `report:    ${report.ms.toFixed(0)} ms (${(report.value.length / 1e6).toFixed(2)} MB of HTML, chain verified in the same run) ${verdict(report.ms)}`,
  ].join('\n') + '\n',
);
rmSync(dir, { recursive: true, force: true });
