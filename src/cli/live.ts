import { Command } from 'commander';
import { loadConfig, resolveConfigPath } from '../config/loadConfig.js';
import { ExitCode } from '../exitCodes.js';
import { formatCheckLine } from '../preflight/checkLine.js';
import { liveCheck } from '../preflight/liveCheck.js';
import { CliExit, type CliContext } from './context.js';

/**
 * `jupbot live check [--config FILE]`: the preflight of a live config (preflight/liveCheck.ts), one
 * line per check on stdout, the verdict recorded in the live database. Exit 0 when every check
 * passed, 79 when one failed (the lines say what to do), 73 when a daemon holds the data directory.
 */
export function liveCommand(ctx: CliContext): Command {
  const live = new Command('live').description('going live: the preflight a first live start needs');
  live.addCommand(
    new Command('check')
      .description('check a live config before it trades: key areas, RPC, funds, strategies against the live API, ops port, file modes; records the verdict')
      .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
      .action(async (options: { config?: string }) => {
        const where = { file: options.config, env: ctx.env, cwd: ctx.cwd };
        // Read as a reader would: a missing API key is one of the checks' failures, not a config error.
        const config = await loadConfig({ ...where, purpose: 'read' });
        const shown = resolveConfigPath(where).shown;
        if (config.mode !== 'live') throw new CliExit(ExitCode.InvalidInput, `jupbot: live check checks a live config, and ${shown} says mode: ${config.mode}`);
        const result = await liveCheck(config, ctx);
        ctx.stdout(result.lines.map((line) => `${formatCheckLine(line)}\n`).join(''));
        if (result.details.length > 0) ctx.stdout(`\n${result.details.map((d) => `${d}\n`).join('')}`);
        if (result.passed) {
          ctx.stdout(`preflight passed, recorded in ${result.database}: \`jupbot run --config ${shown}\` may trade\n`);
          return;
        }
        const failures = result.lines.filter((line) => !line.ok).length;
        throw new CliExit(
          ExitCode.PreflightRequired,
          `jupbot: preflight failed (${failures} check${failures === 1 ? '' : 's'}), recorded in ${result.database}: fix what the FAILED lines name and run it again`,
        );
      }),
  );
  return live;
}
