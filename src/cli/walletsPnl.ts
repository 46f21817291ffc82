/**
 * `jupbot audit pnl --db A --db B …`: the P&L of each wallet, computed from its own database exactly
 * as one `--db` computes it, then a table of every wallet's total and their sum (the exact sum of
 * the figures above it). `--json`: `wallets` (each one's `audit pnl --json`, with its wallet and
 * file) and `total`.
 */
import type { Command } from 'commander';
import { databasePnl } from '../audit/databasePnl.js';
import type { PnlReport } from '../audit/pnl.js';
import { pnlJson, strategyJson } from '../audit/pnlJson.js';
import { addPnlTotals, type PnlTotal } from '../audit/pnlTotals.js';
import { usdText } from '../money/humanFigures.js';
import type { ResolveDb } from './auditDatabase.js';
import { BASIS_MARK, pnlText } from './pnlText.js';
import type { CliContext } from './context.js';
import { renderTable } from './table.js';
import type { TradeOptions } from './tradeRows.js';
import { walletLabel, withVerifiedWalletDbs } from './walletDatabases.js';

export async function walletsPnl(ctx: CliContext, resolveDb: ResolveDb, command: Command, options: TradeOptions): Promise<void> {
  const filter = { since: options.since, until: options.until, strategy: options.strategy, token: options.token };
  const reports = await withVerifiedWalletDbs(ctx, resolveDb, command, (wallets) =>
    wallets.map((w) => ({ wallet: w.wallet, file: w.file, report: databasePnl(w.db, filter) })),
  );
  const total = addPnlTotals(reports.map((r) => r.report.total));
  if (options.json) {
    const json = {
      wallets: reports.map((r) => ({ wallet: r.wallet, file: r.file, ...pnlJson(r.report) })),
      total: strategyJson(total),
      verified: { ok: true, problem: null },
    };
    ctx.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  ctx.stdout(reports.map((r) => `wallet ${walletLabel(r)}\n${pnlText(r.report)}\n`).join('') + totalText(reports, total));
}

/** Each wallet's total and the sum, one row each; a figure from a basis of units held before jupbot marked as in each wallet's table. */
function totalText(reports: readonly { wallet: string; report: PnlReport }[], total: PnlTotal): string {
  const row = (name: string, t: PnlTotal): string[] => [
    name,
    String(t.trades),
    t.basisCostUsd > 0n ? `${usdText(t.realizedUsd)}${BASIS_MARK}` : usdText(t.realizedUsd),
    usdText(t.unrealizedUsd),
    usdText(t.feesUsd),
    usdText(t.unmatchedProceedsUsd),
  ];
  const rows = [...reports.map((r) => row(r.wallet, r.report.total)), row(`total of ${reports.length} wallets`, total)];
  return `all wallets\n${renderTable(['wallet', 'trades', 'realized', 'unrealized', 'fees', 'no known cost'], rows, ['left', 'right', 'right', 'right', 'right', 'right'])}`;
}
