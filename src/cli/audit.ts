import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { iterateActions, type ActionFilter } from '../store/actionQueries.js';
import { canonicalJson } from '../store/canonicalJson.js';
import { firstProblem, walkAuditChain, type ChainAnchor, type VerifyResult } from '../store/chainVerifier.js';
import { actionCsvHeader, actionCsvRow, actionJson, actionsTable, isoTime, storedAction } from './auditOutput.js';
import { CliExit, type CliContext } from './context.js';
import { ExitCode } from '../exitCodes.js';
import { pnlSubcommand, tradesSubcommand } from './auditTrades.js';
import { collectDb, type ResolveDb, withAuditDb } from './auditDatabase.js';
import { ordersSubcommand } from './auditOrders.js';
import { basisSubcommand } from './auditBasis.js';
import { checkActionKind } from './actionKindArg.js';
import { timeOption } from './timeArg.js';

/** Exports write in chunks this size: one write per row would dominate a large export. */
const WRITE_CHUNK = 64 * 1024;

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError('expected a positive integer');
  return value;
}

function anchorArg(text: string): ChainAnchor {
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text.trim());
  if (!match) throw new InvalidArgumentError('expected <id>:<64 hex hash>, as printed by `audit verify`');
  return { id: Number(match[1]), hash: match[2] ?? '' };
}

/** A sink that batches text to stdout or to a file written via a temporary name and renamed at the end. */
function createSink(ctx: CliContext, out: string | undefined): { write(text: string): void; close(): void; abort(): void } {
  let buffer = '';
  const target = out === undefined ? undefined : resolve(ctx.cwd, out);
  const temp = target === undefined ? undefined : `${target}.partial`;
  const fd = temp === undefined ? undefined : openSync(temp, 'w');
  const flush = (): void => {
    if (buffer === '') return;
    if (fd === undefined) ctx.stdout(buffer);
    else writeSync(fd, buffer);
    buffer = '';
  };
  return {
    write(text) {
      buffer += text;
      if (buffer.length >= WRITE_CHUNK) flush();
    },
    close() {
      flush();
      if (fd !== undefined && temp !== undefined && target !== undefined) {
        closeSync(fd);
        // A reader never sees a half-written export under the final name.
        renameSync(temp, target);
      }
    },
    abort() {
      if (fd !== undefined && temp !== undefined) {
        closeSync(fd);
        rmSync(temp, { force: true });
      }
    },
  };
}

/** `fills 12, intents 30, trigger_orders 4`: the rows the verify compared. */
function sealedCounts(result: VerifyResult): string {
  const checked = result.rows?.checked;
  return checked === undefined
    ? 'no tables'
    : Object.entries(checked)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ');
}

function breakLine(result: VerifyResult): string {
  return firstProblem(result) ?? '';
}

function actionsSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  const time = timeOption(ctx.clock);
  return new Command('actions')
    .description('list actions, oldest first (a table; --json or --csv for all columns)')
    .addOption(new Option('--json', 'one JSON array, data parsed').conflicts('csv'))
    .addOption(new Option('--csv', 'RFC 4180 CSV with every stored column').conflicts('json'))
    .option('--since <time>', 'at or after: epoch ms, 2026-01-31, 2026-01-31T09:30Z, or a duration ago (24h, 7d)', time)
    .option('--until <time>', 'before (same forms as --since)', time)
    .option('--kind <kind>', 'only this kind, e.g. intent.signed')
    .option('--strategy <name>', 'only this strategy')
    .option('--limit <n>', 'only the most recent n matching actions', positiveInteger)
    .action(async (options: ActionFilter & { json?: true; csv?: true }, command: Command) => {
      const filter: ActionFilter = {
        since: options.since,
        until: options.until,
        kind: options.kind,
        strategy: options.strategy,
        limit: options.limit,
      };
      await withAuditDb(ctx, resolveDb, command, (db) => {
        checkActionKind(db, options.kind);
        if (options.json) {
          const sink = createSink(ctx, undefined);
          let first = true;
          sink.write('[');
          for (const record of iterateActions(db, filter)) {
            sink.write(`${first ? '\n' : ',\n'}${JSON.stringify(actionJson(record))}`);
            first = false;
          }
          sink.write(first ? ']\n' : '\n]\n');
          sink.close();
        } else if (options.csv) {
          const sink = createSink(ctx, undefined);
          sink.write(actionCsvHeader());
          for (const record of iterateActions(db, filter)) sink.write(actionCsvRow(storedAction(record)));
          sink.close();
        } else {
          const records = [...iterateActions(db, filter)];
          ctx.stdout(records.length === 0 ? 'no actions match\n' : actionsTable(records));
        }
      });
    });
}

function verifySubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('verify')
    .description('check the hash chain of the actions table; exit 3 naming the first broken row')
    .option('--json', 'print the result as JSON')
    .option('--anchor <id:hash>', 'also require row <id> to have this hash (an earlier verify output kept elsewhere)', anchorArg)
    .action(async (options: { json?: true; anchor?: ChainAnchor }, command: Command) => {
      const result = await withAuditDb(ctx, resolveDb, command, (db) => walkAuditChain(db, () => undefined, { anchor: options.anchor }));
      if (options.json) ctx.stdout(`${JSON.stringify(result)}\n`);
      else if (result.ok) ctx.stdout(`ok: ${result.checked} actions, head ${result.headId} ${result.headHash}; tables as sealed: ${sealedCounts(result)}\n`);
      else if (result.firstBreak !== undefined)
        ctx.stdout(`broken: ${result.breaks} break(s) in ${result.checked} actions; first at row ${result.firstBreak.id}: ${result.firstBreak.message}\n`);
      else
        ctx.stdout(
          `broken: the chain holds (${result.checked} actions) but ${result.rows?.differences} row(s) differ from it; first: ${result.rows?.first?.message}\n`,
        );
      if (!result.ok) throw new CliExit(ExitCode.AuditChainBroken, breakLine(result));
    });
}

function exportSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('export')
    .description('write every action with all stored columns, then a manifest (count, head hash, chain check)')
    .addOption(new Option('--json', 'JSON Lines, one action per line, then a {"manifest":…} line (default)').conflicts('csv'))
    .addOption(new Option('--csv', 'RFC 4180 CSV; the manifest goes to FILE.manifest.json with --out, else to stderr').conflicts('json'))
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (options: { json?: true; csv?: true; out?: string }, command: Command) => {
      const csv = options.csv === true;
      const result = await withAuditDb(ctx, resolveDb, command, (db) => {
        const sink = createSink(ctx, options.out);
        try {
          if (csv) sink.write(actionCsvHeader());
          const verified = walkAuditChain(db, (row) => {
            sink.write(csv ? actionCsvRow(row) : `${canonicalJson(row)}\n`);
          });
          const manifest = {
            format: 'jupbot.actions.v1',
            count: verified.checked,
            head_id: verified.headId,
            head_hash: verified.headHash,
            sequence: verified.sequence ?? null,
            verified: verified.ok,
            first_break: verified.firstBreak ?? null,
            rows: verified.rows ?? null,
            exported_at: ctx.clock.now(),
            exported_at_iso: isoTime(ctx.clock.now()),
          };
          const manifestJson = canonicalJson(manifest);
          if (!csv) sink.write(`${canonicalJson({ manifest })}\n`);
          sink.close();
          if (csv && options.out !== undefined) writeFileSync(`${resolve(ctx.cwd, options.out)}.manifest.json`, `${manifestJson}\n`);
          else if (csv) ctx.stderr(`manifest: ${manifestJson}\n`);
          return verified;
        } catch (error) {
          sink.abort();
          throw error;
        }
      });
      if (options.out !== undefined) ctx.stderr(`exported ${result.checked} actions to ${options.out}, head ${result.headId} ${result.headHash}\n`);
      if (!result.ok) throw new CliExit(ExitCode.AuditChainBroken, breakLine(result));
    });
}

/**
 * `jupbot audit`: read the SQLite log without changing it. Subcommands: `actions`, `verify`,
 * `export`, `trades`, `pnl`, `orders`, `basis` (whose `set` is the one that writes: an operator's
 * record, through the audit log). The database comes from `--db`, or from the config's data_dir and mode.
 * Exit codes: 3 chain broken, 4 database newer than this jupbot, 5 no database.
 */
export function auditCommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('audit')
    .description('read and verify the audit log (read-only but for `basis set`; never migrates)')
    .option(
      '--db <file>',
      'database file (default: <data_dir>/jupbot-<mode>.sqlite from the config); pnl and trades take it more than once, one per wallet',
      collectDb,
    )
    .option('--config <file>', 'config file whose data_dir and mode locate the database')
    .addCommand(actionsSubcommand(ctx, resolveDb))
    .addCommand(verifySubcommand(ctx, resolveDb))
    .addCommand(exportSubcommand(ctx, resolveDb))
    .addCommand(tradesSubcommand(ctx, resolveDb))
    .addCommand(pnlSubcommand(ctx, resolveDb))
    .addCommand(ordersSubcommand(ctx, resolveDb))
    .addCommand(basisSubcommand(ctx, resolveDb));
}
