import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/configError.js';
import { PriceFileError } from '../backtest/priceFile.js';
import { formatDiagnostics } from '../config/diagnostics.js';
import { JupbotError, errorMessage } from '../errors.js';
import { auditCommand } from './audit.js';
import { backtestCommand } from './backtest.js';
import { haltCommand, pauseCommand, resumeCommand } from './control.js';
import { pricesCommand } from './prices.js';
import { reportCommand } from './report.js';
import { rehearsalCommand } from './rehearsal.js';
import { CliExit, type CliContext } from './context.js';
import { resolveDatabaseFile } from './databaseFile.js';
import { exitCodeOf } from '../errorCatalogue.js';
import { fleetCommand } from './fleet.js';
import { liveCommand } from './live.js';
import { eventsCommand, marketsCommand } from './markets.js';
import { ExitCode } from '../exitCodes.js';
import { paperCommand } from './paper.js';
import { planCommand } from './plan.js';
import { runCommand } from './run.js';
import { simCommand } from './sim.js';
import { statusCommand } from './status.js';
import { validateCommand } from './validate.js';
import { version } from '../version.js';
import { txCommand } from './txExplain.js';
import { walletCommand } from './wallet.js';

/** The `jupbot` program, strict: unknown commands, options and extra arguments are errors. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('jupbot')
    .description('Unattended Solana trading through Jupiter: YAML strategies, a write-ahead journal, a verifiable audit log.')
    .version(version, '-V, --version')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .showHelpAfterError('(run jupbot --help for usage)')
    .allowExcessArguments(false)
    .exitOverride();
  program.addCommand(runCommand(ctx), { isDefault: false });
  program.addCommand(validateCommand(ctx));
  program.addCommand(planCommand(ctx));
  program.addCommand(liveCommand(ctx));
  program.addCommand(auditCommand(ctx, (options) => resolveDatabaseFile(ctx, options)));
  program.addCommand(reportCommand(ctx, (options) => resolveDatabaseFile(ctx, options)));
  program.addCommand(pricesCommand(ctx, (options) => resolveDatabaseFile(ctx, options)));
  program.addCommand(rehearsalCommand(ctx, (options) => resolveDatabaseFile(ctx, options)));
  program.addCommand(backtestCommand(ctx));
  program.addCommand(statusCommand(ctx));
  program.addCommand(fleetCommand(ctx));
  program.addCommand(haltCommand(ctx));
  program.addCommand(resumeCommand(ctx));
  program.addCommand(pauseCommand(ctx));
  program.addCommand(marketsCommand(ctx));
  program.addCommand(eventsCommand(ctx));
  program.addCommand(paperCommand(ctx));
  program.addCommand(simCommand(ctx, ctx.shutdown));
  program.addCommand(walletCommand(ctx));
  program.addCommand(txCommand(ctx));
  // Subcommands inherit strictness and output routing so every error reads the same.
  for (const command of program.commands) {
    command.configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr }).exitOverride();
    for (const sub of command.commands) sub.configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr }).exitOverride();
  }
  return program;
}

/**
 * Runs the CLI with `argv` (without the node and script entries) and returns the exit code.
 * Every failure ends as one line on stderr; a stack trace only with JUPBOT_DEBUG=1.
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<ExitCode> {
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.Ok;
  } catch (error) {
    return exitCodeFor(error, ctx);
  }
}

function exitCodeFor(error: unknown, ctx: CliContext): ExitCode {
  if (error instanceof CliExit) {
    if (error.message) ctx.stderr(`${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help/version text).
    const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return benign.includes(error.code) ? ExitCode.Ok : ExitCode.Usage;
  }
  if (error instanceof ConfigError || error instanceof PriceFileError) {
    // Already `file:line:col: message` lines, one per problem: printed as they are so editors can jump to them.
    ctx.stderr(`${formatDiagnostics(error.diagnostics)}\n`);
    return ExitCode.InvalidInput;
  }
  if (error instanceof JupbotError) {
    ctx.stderr(`jupbot: ${error.message}\n`);
    if (ctx.env['JUPBOT_DEBUG'] === '1' && error.stack) ctx.stderr(`${error.stack}\n`);
    return exitCodeOf(error.code);
  }
  ctx.stderr(`jupbot: internal error: ${errorMessage(error)}\n`);
  if (ctx.env['JUPBOT_DEBUG'] === '1' && error instanceof Error && error.stack) ctx.stderr(`${error.stack}\n`);
  else ctx.stderr('jupbot: set JUPBOT_DEBUG=1 for the stack trace\n');
  return ExitCode.Internal;
}
