import { Command } from 'commander';
import { ConfigError, ConfigFileError } from '../config/configError.js';
import { formatDiagnostic } from '../config/diagnostics.js';
import { loadConfig, resolveConfigPath } from '../config/loadConfig.js';
import type { CliContext } from './context.js';
import { CliExit } from './context.js';
import { ExitCode } from './exitCodes.js';

interface ValidateOptions {
  config?: string;
}

/**
 * `jupbot validate [--config FILE]`: checks the config file and prints every problem as
 * `file:line:col: message` on stderr (exit 1), or `ok: FILE (mode M)` on stdout.
 *
 * Strategy files will be checked here too (`[PATH...]`, DESIGN.md) once their loader exists;
 * the argument is not declared before then, so `validate some/path` fails loudly instead of
 * pretending to have checked it.
 */
export function validateCommand(ctx: CliContext): Command {
  return new Command('validate')
    .description('check the config file and report every problem as file:line:col: message')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .action(async (options: ValidateOptions) => {
      const where = { file: options.config, env: ctx.env, cwd: ctx.cwd };
      try {
        const config = await loadConfig(where);
        ctx.stdout(`ok: ${resolveConfigPath(where).shown} (mode ${config.mode})\n`);
      } catch (error) {
        if (error instanceof ConfigError) {
          ctx.stderr(error.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join(''));
          throw new CliExit(ExitCode.InvalidInput);
        }
        // Missing and unreadable alike: exitCodes.ts documents NotFound for both.
        if (error instanceof ConfigFileError) throw new CliExit(ExitCode.NotFound, error.message);
        throw error;
      }
    });
}

