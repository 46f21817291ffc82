/**
 * `jupbot audit trades` and `jupbot audit pnl`: the fills as trades (token by symbol, human amounts,
 * dollar price, fee) and the P&L they add up to, per strategy and in total (docs/audit.md defines it).
 * Read-only, like every audit command.
 */
import { Command, Option } from 'commander';
import { databasePnl } from '../audit/databasePnl.js';
import { pnlJson } from '../audit/pnlJson.js';
import { pendingFillWords, tradeJson } from '../audit/trades.js';
import { type AuditOptions, dbFiles, type ResolveDb } from './auditDatabase.js';
import { unverifiedBanner, withVerifiedAuditDb } from './verifiedFigures.js';
import type { CliContext } from './context.js';
import { csvRecord } from './csv.js';
import { renderTable } from './table.js';
import { timeOption } from './timeArg.js';
import { pnlText } from './pnlText.js';
import { CSV_HEADER, csvRow, pendingCsvRow, pendingOf, tradeCells, type TradeOptions, tradesOf } from './tradeRows.js';
import { walletsPnl } from './walletsPnl.js';
import { walletsTrades } from './walletsTrades.js';

/** Whether `--db` names several databases: figures per wallet and their total. */
const several = (command: Command): boolean => dbFiles(command.optsWithGlobals<AuditOptions>()).length > 1;

function filterOptions(command: Command, ctx: CliContext): Command {
  const time = timeOption(ctx.clock);
  return command
    .option('--since <time>', 'at or after: epoch ms, 2026-01-31, 2026-01-31T09:30Z, or a duration ago (24h, 7d)', time)
    .option('--until <time>', 'before (same forms as --since)', time)
    .option('--strategy <name>', 'only this strategy')
    .option('--token <symbol|mint>', 'only fills with this token on either side');
}

export function tradesSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return filterOptions(
    new Command('trades')
      .description('every fill as a trade: side, tokens and amounts, dollar price, fee; oldest first')
      .addOption(new Option('--json', 'one JSON array, amounts as exact decimal text').conflicts('csv'))
      .addOption(new Option('--csv', 'RFC 4180 CSV').conflicts('json')),
    ctx,
  ).action(async (options: TradeOptions, command: Command) => {
    if (several(command)) return walletsTrades(ctx, resolveDb, command, options);
    await withVerifiedAuditDb(ctx, resolveDb, command, (db, verification) => {
      const trades = tradesOf(db, options);
      const pending = pendingOf(db, options);
      if (options.json) ctx.stdout(`${JSON.stringify([...trades.map(tradeJson), ...pending], null, 2)}\n`);
      else if (options.csv) {
        ctx.stdout(csvRecord(CSV_HEADER) + trades.map((t) => csvRecord(csvRow(t))).join('') + pending.map((p) => csvRecord(pendingCsvRow(p))).join(''));
      } else if (trades.length === 0 && pending.length === 0) ctx.stdout(`${unverifiedBanner(verification)}no trades match\n`);
      else if (trades.length === 0) ctx.stdout(`${unverifiedBanner(verification)}${pending.map(pendingFillWords).join('\n')}\n`);
      else {
        const rows = trades.map(tradeCells);
        ctx.stdout(
          unverifiedBanner(verification) +
            renderTable(['time (UTC)', 'strategy', 'side', 'token', 'for', 'price', 'fee', 'signature'], rows, [
              'left',
              'left',
              'left',
              'right',
              'right',
              'right',
              'right',
            ]) +
            pending.map((p) => `${pendingFillWords(p)}\n`).join(''),
        );
      }
    });
  });
}

export function pnlSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return filterOptions(
    new Command('pnl').description('realized and unrealized P&L per strategy and in total (FIFO; docs/audit.md)').option('--json', 'exact figures as JSON'),
    ctx,
  ).action(async (options: TradeOptions, command: Command) => {
    if (several(command)) return walletsPnl(ctx, resolveDb, command, options);
    await withVerifiedAuditDb(ctx, resolveDb, command, (db, verification) => {
      const report = databasePnl(db, { since: options.since, until: options.until, strategy: options.strategy, token: options.token });
      if (options.json) {
        ctx.stdout(`${JSON.stringify({ ...pnlJson(report), verified: verification }, null, 2)}\n`);
        return;
      }
      ctx.stdout(unverifiedBanner(verification) + pnlText(report));
    });
  });
}
