/**
 * `jupbot audit trades --db A --db B …`: the trades of several wallets as one list, oldest first,
 * each with the wallet it was made by (a tie in time keeps the order the databases were given in),
 * then each wallet's landed trades whose fill is not known yet. `--json`: `wallets` (address, file,
 * how many trades and pending), `trades`, `pending` and `total`; `--csv`: a `wallet` column first.
 */
import type { Command } from 'commander';
import { pendingFillWords, type PendingFillJson, type Trade, tradeJson } from '../audit/trades.js';
import type { ResolveDb } from './auditDatabase.js';
import type { CliContext } from './context.js';
import { csvRecord } from './csv.js';
import { renderTable } from './table.js';
import { CSV_HEADER, csvRow, pendingCsvRow, pendingOf, tradeCells, type TradeOptions, tradesOf } from './tradeRows.js';
import { walletLabel, withVerifiedWalletDbs } from './walletDatabases.js';

/** `ABCD…WXYZ`: a wallet address short enough for a table column (the full one is in the lines above it). */
function shortWallet(wallet: string): string {
  return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(wallet) ? `${wallet.slice(0, 4)}…${wallet.slice(-4)}` : wallet;
}

export async function walletsTrades(ctx: CliContext, resolveDb: ResolveDb, command: Command, options: TradeOptions): Promise<void> {
  const wallets = await withVerifiedWalletDbs(ctx, resolveDb, command, (dbs) =>
    dbs.map((w) => ({ wallet: w.wallet, file: w.file, trades: tradesOf(w.db, options), pending: pendingOf(w.db, options) })),
  );
  // Array.prototype.sort is stable: trades at one instant keep the order of the databases, then their own.
  const trades: { wallet: string; trade: Trade }[] = wallets
    .flatMap((w) => w.trades.map((trade) => ({ wallet: w.wallet, trade })))
    .sort((a, b) => a.trade.at - b.trade.at);
  const pending: { wallet: string; fill: PendingFillJson }[] = wallets.flatMap((w) => w.pending.map((fill) => ({ wallet: w.wallet, fill })));
  if (options.json) {
    const json = {
      wallets: wallets.map((w) => ({ wallet: w.wallet, file: w.file, trades: w.trades.length, pending: w.pending.length })),
      trades: trades.map((t) => ({ wallet: t.wallet, ...tradeJson(t.trade) })),
      pending: pending.map((p) => ({ wallet: p.wallet, ...p.fill })),
      total: { trades: trades.length, pending: pending.length },
    };
    ctx.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } else if (options.csv) {
    ctx.stdout(
      csvRecord(['wallet', ...CSV_HEADER]) +
        trades.map((t) => csvRecord([t.wallet, ...csvRow(t.trade)])).join('') +
        pending.map((p) => csvRecord([p.wallet, ...pendingCsvRow(p.fill)])).join(''),
    );
  } else {
    const legend = wallets
      .map((w) => `wallet ${walletLabel(w)}: ${w.trades.length} trade(s)${w.pending.length > 0 ? `, ${w.pending.length} pending` : ''}\n`)
      .join('');
    const table =
      trades.length === 0
        ? 'no trades match\n'
        : renderTable(
            ['time (UTC)', 'wallet', 'strategy', 'side', 'token', 'for', 'price', 'fee', 'signature'],
            trades.map((t) => {
              const [time = '', ...rest] = tradeCells(t.trade);
              return [time, shortWallet(t.wallet), ...rest];
            }),
            ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'right'],
          );
    ctx.stdout(
      `${legend}\n${table}${pending.map((p) => `${shortWallet(p.wallet)}: ${pendingFillWords(p.fill)}\n`).join('')}total: ${trades.length} trade(s) over ${wallets.length} wallets\n`,
    );
  }
}
