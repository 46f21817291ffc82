/**
 * `jupbot report --out report.html`: the audit database as one self-contained page (equity, P&L,
 * prices, open orders, holdings, trades and their reasons, the latest actions), the hash chain
 * verified in the same run. Read-only. Exit 3 when the chain is broken or a fill, intent or order differs from
 * it (the report is still written, and says so first). This process's clock is not a paper database's (`wall`): such a page
 * stands at the newest instant the database records. With `--db` more than once: one page over several
 * wallets, each as its own report would show it, and their total; a database that does not verify is
 * named and nothing is written (exit 3), as `audit pnl` over several does.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { reportData } from '../audit/reportData.js';
import { renderReport } from '../audit/reportHtml.js';
import { renderWalletsReport, walletsTotal } from '../audit/walletsReportHtml.js';
import { ExitCode } from '../exitCodes.js';
import { type AuditOptions, collectDb, dbFiles, type ResolveDb, withAuditDb } from './auditDatabase.js';
import { CliExit, type CliContext } from './context.js';
import { withVerifiedWalletDbs } from './walletDatabases.js';

export function reportCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('report')
    .description('write the audit database as one self-contained HTML report (no network needed to open it)')
    .option('--db <file>', 'database file (default: <data_dir>/jupbot-<mode>.sqlite from the config); more than once: one page over several wallets', collectDb)
    .option('--config <file>', 'config file whose data_dir and mode name the database')
    .option('--out <file>', 'the HTML file to write', 'report.html')
    .action(async (options: { out: string }, command: Command) => {
      if (dbFiles(command.optsWithGlobals<AuditOptions>()).length > 1) return walletsReport(ctx, resolveDb, command, options.out);
      const data = await withAuditDb(ctx, resolveDb, command, (db) => reportData(db, ctx.clock.now(), 'wall'));
      const target = resolve(ctx.cwd, options.out);
      // Written under a temporary name and renamed: a reader never opens half a report.
      writeFileSync(`${target}.partial`, renderReport(data));
      renameSync(`${target}.partial`, target);
      const trades = (data.pnl as { total: { trades: number } }).total.trades;
      if (!data.chain.ok) throw new CliExit(ExitCode.AuditChainBroken, `report written to ${target}, but NOT VERIFIED: ${data.chain.firstBreak ?? '?'}`);
      ctx.stdout(
        `report written to ${target}: ${trades} trades, audit chain and sealed tables verified (${data.chain.actions} actions, head ${data.chain.headId})\n`,
      );
    });
}

/** The page over several wallets: written only when every database verified (withVerifiedWalletDbs refuses otherwise). */
async function walletsReport(ctx: CliContext, resolveDb: ResolveDb, command: Command, out: string): Promise<void> {
  const reports = await withVerifiedWalletDbs(ctx, resolveDb, command, (wallets) =>
    wallets.map((w) => ({ wallet: w.wallet, file: w.file, data: reportData(w.db, ctx.clock.now(), 'wall') })),
  );
  const target = resolve(ctx.cwd, out);
  writeFileSync(`${target}.partial`, renderWalletsReport(reports));
  renameSync(`${target}.partial`, target);
  ctx.stdout(
    `report written to ${target}: ${reports.length} wallets, ${walletsTotal(reports).trades} trades, every audit chain and its sealed tables verified\n`,
  );
}
