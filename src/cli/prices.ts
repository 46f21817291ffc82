/**
 * `jupbot prices export`: the price history the daemon kept (`price_samples`), as CSV with the time,
 * the token (symbol where a strategy pinned one) and its mint, and the dollar price. Read-only.
 */
import { Command } from 'commander';
import { tokenNamer } from '../audit/tokenNames.js';
import { pinnedSymbols } from '../store/fillRecords.js';
import { listPriceSamples } from '../store/priceSamples.js';
import { type ResolveDb, withAuditDb } from './auditDatabase.js';
import type { CliContext } from './context.js';
import { csvRecord } from './csv.js';
import { timeOption } from './timeArg.js';

export function pricesCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  const time = timeOption(ctx.clock);
  const exportCommand = new Command('export')
    .description('the kept price history as CSV (time, token, mint, usd), oldest first')
    .option('--from <time>', 'at or after: epoch ms, 2026-01-31, 2026-01-31T09:30Z, or a duration ago (24h, 7d)', time)
    .option('--to <time>', 'before (same forms as --from)', time)
    .option('--token <symbol|mint>', 'only this token (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .action(async (options: { from?: number; to?: number; token?: string[] }, command: Command) => {
      await withAuditDb(ctx, resolveDb, command, (db) => {
        const pinned = pinnedSymbols(db);
        const name = tokenNamer(pinned);
        const bySymbol = new Map([...pinned].map(([mint, pin]) => [pin.symbol.toLowerCase(), mint]));
        const mints = options.token?.map((t) => bySymbol.get(t.toLowerCase()) ?? t);
        let out = csvRecord(['time', 'token', 'mint', 'usd']);
        for (const sample of listPriceSamples(db, { since: options.from, until: options.to, mints })) {
          out += csvRecord([new Date(sample.at).toISOString(), name(sample.mint), sample.mint, sample.usd]);
        }
        ctx.stdout(out);
      });
    });
  return new Command('prices')
    .description('the price history kept in the database')
    .option('--db <file>', 'database file (default: <data_dir>/jupbot-<mode>.sqlite from the config)')
    .option('--config <file>', 'config file whose data_dir and mode name the database')
    .addCommand(exportCommand);
}
