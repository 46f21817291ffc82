/**
 * `jupbot backtest [strategy files] --prices FILE | --from-db`: the strategies run by the real
 * engine against the simulated market, driven through a price history (see src/backtest/). Prints
 * a summary per strategy and writes it, the database, the log and the strategies tested into --out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { usdText } from '../money/humanFigures.js';
import { PRE_HELD_LABEL } from '../audit/pnlJson.js';
import { DAY_MS } from '../strategies/snapshot.js';
import { historyFromSamples, parsePriceFile, type PriceHistory } from '../backtest/priceFile.js';
import { resolveSimToken } from '../backtest/simTokens.js';
import { summarize, summaryJson, type BacktestSummary, type StrategySummary } from '../backtest/summary.js';
import { loadConfig } from '../config/loadConfig.js';
import { openDatabase } from '../store/db.js';
import { listPriceSamples } from '../store/priceSamples.js';
import { databaseFile } from '../store/paths.js';
import type { CliContext } from './context.js';
import { renderTable } from './table.js';
import { timeOption } from './timeArg.js';

interface BacktestCliOptions {
  prices?: string;
  fromDb?: string | true;
  from?: number;
  to?: number;
  out: string;
  force?: true;
  seed?: string;
  feeBps?: number;
  liquidityScale?: number;
  json?: true;
  config?: string;
}

/** The summary as people read it: dollars to the cent (the JSON has every figure exact). */
export function summaryText(summary: BacktestSummary): string {
  const row = (name: string, s: Omit<StrategySummary, 'strategy'>): string[] => [
    name,
    String(s.trades),
    `${usdText(s.realizedUsd)}${s.basisCostUsd > 0n ? '*' : ''}`,
    usdText(s.unrealizedUsd),
    usdText(s.maxDrawdownUsd),
    usdText(s.feesUsd),
    usdText(s.unmatchedProceedsUsd),
  ];
  const preHeld = summary.preHeld === null ? [] : [[PRE_HELD_LABEL, '—', '—', `${usdText(summary.preHeld.unrealizedUsd)}*`, '—', '—', '—']];
  const days = (summary.to - summary.from) / DAY_MS;
  const head = `backtest ${new Date(summary.from).toISOString()} → ${new Date(summary.to).toISOString()} (${Number(days.toFixed(2))} days, ${summary.priceSteps} price steps, seed ${summary.seed})\n\n`;
  const table = renderTable(
    ['strategy', 'trades', 'realized', 'unrealized', 'max drawdown', 'fees', 'unmatched'],
    [...summary.strategies.map((s) => row(s.strategy, s)), ...preHeld, row('total', summary.total)],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  const legend =
    '\nrealized and unrealized P&L are first in, first out over what each strategy bought, then over what the paper\n' +
    'wallet held before (its opening balance, shared by all strategies, at the first price seen for it: marked *);\n' +
    'unmatched is what a strategy sold beyond both: proceeds, not profit. Holdings are valued at the last price the\n' +
    'daemon kept. Every figure exact: --json, or audit pnl --db on the database (the same figures).\n';
  const notes = summary.notes.length === 0 ? '' : `\nnotes:\n${summary.notes.map((n) => `- ${n}`).join('\n')}\n`;
  return head + table + legend + notes;
}

function numberOption(name: string, check: (n: number) => boolean): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (text.trim() === '' || !check(n)) throw new InvalidArgumentError(`${name}: got "${text}"`);
    return n;
  };
}

function loadHistory(ctx: CliContext, options: BacktestCliOptions, dataDb: () => Promise<string>): Promise<{ history: PriceHistory; notes: string[] }> {
  if (options.prices !== undefined && options.fromDb !== undefined) throw new InvalidArgumentError('give --prices FILE or --from-db, not both');
  if (options.prices !== undefined) {
    const file = resolve(ctx.cwd, options.prices);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new InvalidArgumentError(`--prices ${options.prices}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return Promise.resolve({ history: parsePriceFile(text, options.prices, resolveSimToken), notes: [] });
  }
  if (options.fromDb === undefined) throw new InvalidArgumentError('name the price history: --prices FILE (CSV: time, token, usd) or --from-db');
  return (async () => {
    const file = options.fromDb === true ? await dataDb() : resolve(ctx.cwd, options.fromDb as string);
    const db = openDatabase(file, { readonly: true });
    try {
      const { history, skipped } = historyFromSamples(
        file,
        listPriceSamples(db, { since: options.from, until: options.to === undefined ? undefined : options.to + 1 }),
        resolveSimToken,
      );
      return { history, notes: skipped.map((mint) => `${mint}: kept in the database but not in the simulated market; left out`) };
    } finally {
      db.close();
    }
  })();
}

export function backtestCommand(ctx: CliContext): Command {
  const time = timeOption(ctx.clock);
  return new Command('backtest')
    .description('run strategies through a price history against the simulated market; prints a summary per strategy')
    .argument('[strategies...]', "strategy files (default: every file in the config's strategies_dir)")
    .option('--prices <file>', 'price history as CSV: time, token (symbol, mint or prediction:<market>:yes|no), usd')
    .option('--from-db [file]', "the price history a daemon kept (default: the config's database)")
    .option('--from <time>', "first instant traded (default: the history's first)", time)
    .option('--to <time>', "last instant (default: the history's last)", time)
    .option('--out <dir>', 'where the database, log and summary go', 'backtest-out')
    .option('--force', 'replace what --out holds from an earlier backtest')
    .option('--seed <seed>', 'the simulated world\'s seed (default: sim.seed, else "backtest")')
    .option(
      '--fee-bps <n>',
      "one platform fee for every pair, in basis points (default: the simulator's schedule, 0–50 bps by pair)",
      numberOption('--fee-bps must be an integer from 0 to 10000', (n) => Number.isInteger(n) && n >= 0 && n <= 10_000),
    )
    .option(
      '--liquidity-scale <x>',
      "multiply every token's depth: price impact shrinks as it grows (default 1)",
      numberOption('--liquidity-scale must be a positive number', (n) => n > 0 && Number.isFinite(n)),
    )
    .option('--json', 'the summary as JSON, every figure exact')
    .option('--config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .action(async (strategies: string[], options: BacktestCliOptions) => {
      const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
      const { history, notes } = await loadHistory(ctx, options, () => Promise.resolve(databaseFile(config.data_dir, config.mode)));
      const outDir = resolve(ctx.cwd, options.out);
      // Loaded here, not at the top: the daemon's `run` never loads the backtest's simulator.
      const { clearBacktest, runBacktest } = await import('../backtest/runBacktest.js');
      if (options.force) clearBacktest(outDir);
      const run = await runBacktest({
        config,
        strategyFiles: strategies.map((f) => resolve(ctx.cwd, f)),
        prices: history,
        from: options.from,
        to: options.to,
        outDir,
        seed: options.seed,
        feeBps: options.feeBps,
        liquidityScale: options.liquidityScale,
      });
      const db = openDatabase(run.database, { readonly: true });
      let summary: BacktestSummary;
      try {
        summary = summarize(db, history, run);
      } finally {
        db.close();
      }
      const all = {
        ...summary,
        notes: [...summary.notes, ...notes, ...run.unknownMarkets.map((k) => `${k}: no such market in the simulated world; its marks were skipped`)],
      };
      const text = summaryText(all);
      const json = `${JSON.stringify(summaryJson(all), null, 2)}\n`;
      writeFileSync(join(outDir, 'summary.txt'), text);
      writeFileSync(join(outDir, 'summary.json'), json);
      ctx.stdout(options.json ? json : text);
      ctx.stderr(`database: ${run.database} (jupbot audit pnl --db …, jupbot report --db … --out report.html)\n`);
    });
}
