/**
 * `jupbot rehearsal summary`: what a rehearsal found, read from its database (read-only, like every
 * audit command): the real transactions Jupiter built for the watched wallet and the guard's
 * verdicts, each refusal by reason with the intents `jupbot tx explain --intent` explains, the
 * intents' outcomes, the ledger from its opening to now and the simulated vault orders. The step
 * docs/operations.md asks for before the first live start.
 */
import { Command } from 'commander';
import { tokenNamer } from '../audit/tokenNames.js';
import { formatUnits } from '../money/formatUnits.js';
import { rehearsalSummary, type RehearsalSummary } from '../rehearsal/rehearsalSummary.js';
import { pinnedSymbols } from '../store/fillRecords.js';
import { ExitCode } from '../exitCodes.js';
import { type ResolveDb, withAuditDb } from './auditDatabase.js';
import { CliExit, type CliContext } from './context.js';
import { renderTable } from './table.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const entries = (record: Readonly<Record<string, number>>): string =>
  Object.keys(record).length === 0
    ? 'none'
    : Object.entries(record)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');

export function summaryText(summary: RehearsalSummary, name: (mint: string) => string): string {
  const t = summary.transactions;
  const out = [
    `REHEARSAL: nothing here was signed or sent; fills are at the prices Jupiter quoted`,
    summary.opening === null
      ? 'ledger: not opened'
      : `ledger: opened ${iso(summary.opening.openedAt)} from ${summary.opening.source === 'wallet' ? "the wallet's real balances" : "the config's rehearsal.balances"}`,
    `transactions Jupiter built for the wallet: ${t.built}; the guard accepted ${t.accepted}, refused ${t.refused}` +
      (t.deferred > 0 ? `, deferred ${t.deferred} (the node could not simulate then: built again)` : ''),
    `  by kind: ${entries(t.byKind)}`,
  ];
  if (t.refusals.length > 0) {
    out.push('refusals by reason (each transaction is kept: jupbot tx explain --intent <id>):');
    for (const r of t.refusals) {
      const shown = r.intents.slice(0, 5).join(', ') + (r.intents.length > 5 ? `, … (${r.intents.length - 5} more)` : '');
      out.push(`  ${r.reason}: ${r.count} intent(s): ${shown}`, `    e.g. ${r.example}`);
    }
  }
  out.push(
    `intents: ${entries(summary.intents.byState)}`,
    ...(Object.keys(summary.intents.failedByCode).length > 0 ? [`  failed by code: ${entries(summary.intents.failedByCode)}`] : []),
    `fills: ${summary.fills}; network fees the answers declared: ${formatUnits(summary.networkFeeLamports, 9)} SOL`,
    `simulated vault orders: ${entries(summary.vaultOrders)}`,
    '',
    renderTable(
      ['token', 'opening', 'now'],
      summary.balances.map((b) => [
        name(b.mint),
        b.decimals === null ? b.opening.toString() : formatUnits(b.opening, b.decimals),
        b.decimals === null ? b.now.toString() : formatUnits(b.now, b.decimals),
      ]),
    ),
  );
  return `${out.join('\n')}\n`;
}

export function summaryJson(summary: RehearsalSummary): Record<string, unknown> {
  return {
    ...summary,
    networkFeeLamports: summary.networkFeeLamports.toString(),
    balances: summary.balances.map((b) => ({ ...b, opening: b.opening.toString(), now: b.now.toString() })),
  };
}

export function rehearsalCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  const summary = new Command('summary')
    .description("what the rehearsal found: Jupiter's transactions and the guard's verdicts, refusals by reason, the ledger")
    .option('--json', 'one JSON document')
    .action(async (options: { json?: true }, command: Command) => {
      await withAuditDb(ctx, resolveDb, command, (db) => {
        const found = rehearsalSummary(db);
        if (!found.rehearsal) throw new CliExit(ExitCode.NotFound, 'this database holds no rehearsal: run with mode: rehearsal first (docs/operations.md)');
        ctx.stdout(options.json ? `${JSON.stringify(summaryJson(found))}\n` : summaryText(found, tokenNamer(pinnedSymbols(db))));
      });
    });
  return new Command('rehearsal')
    .description('what a rehearsal (mode: rehearsal) found, before going live (read-only)')
    .option('--db <file>', 'database file (default: <data_dir>/jupbot-rehearsal.sqlite from the config)')
    .option('--config <file>', 'config file whose data_dir and mode locate the database')
    .addCommand(summary);
}
