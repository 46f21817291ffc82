import { Command } from 'commander';
import { loadConfig } from '../config/loadConfig.js';
import type { LogFormat } from '../config/schema.js';
import { start } from '../daemon.js';
import { errorMessage } from '../errors.js';
import { createLogger } from '../ops/log.js';
import { configRedactor } from '../ops/configRedactor.js';
import { paperClock } from '../paper/paperClock.js';
import { CliExit, type CliContext } from './context.js';
import { ExitCode } from '../exitCodes.js';
import { StoreError } from '../store/errors.js';
import { liveCheckCommand } from '../preflight/requirePreflight.js';

/**
 * Where the daemon's log lines go: JSON lines to stdout for machines, or readable lines for a person
 * (`auto`: when stdout is a terminal). Both go through the context's stdout, so a test (or an
 * embedding) sees what the operator sees. The pretty printer is imported only when used.
 */
async function logDestination(format: LogFormat, ctx: CliContext): Promise<{ write: (line: string) => void }> {
  const write = (line: string): void => ctx.stdout(line);
  const terminal = ctx.stdoutIsTerminal === true;
  if (format === 'json' || (format === 'auto' && !terminal)) return { write };
  const { prettyDestination } = await import('../ops/prettyLog.js');
  // The usual conventions: NO_COLOR turns colours off, FORCE_COLOR (other than 0) turns them on anywhere.
  const force = ctx.env.FORCE_COLOR;
  const colour = force !== undefined && force !== '' ? force !== '0' : terminal && !ctx.env.NO_COLOR;
  return prettyDestination(write, { colour });
}

/** `jupbot run`: the daemon, until SIGINT or SIGTERM. */
export function runCommand(ctx: CliContext): Command {
  return new Command('run')
    .description('run the daemon (paper mode with config/default.yaml unless the config says live)')
    .option('--config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .option('--skip-preflight', 'live mode: start even though no `jupbot live check` passed for this config (recorded in the audit log)')
    .action(async (options: { config?: string; skipPreflight?: boolean }) => {
      const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd });
      // Every secret the daemon holds is registered before the first log line can be written.
      const redactor = configRedactor(config);
      // Paper mode may run time faster, and resumes a kept world where it stopped; the daemon and its
      // simulator share that clock.
      const clock = config.mode === 'paper' ? paperClock(ctx.clock, config) : ctx.clock;
      const log = createLogger({
        level: config.log.level,
        redactor,
        clock,
        destination: await logDestination(config.log.format, ctx),
        mark: config.mode === 'rehearsal' ? 'REHEARSAL' : undefined,
      });
      // A live start trades only after a recorded preflight (preflight/startGate.ts), unless told to skip it.
      const preflight = { skip: options.skipPreflight === true, command: liveCheckCommand(options.config ?? config.source.file) };
      const daemon = await start(config, { clock, log, redactor, preflight, ...(ctx.network ? { network: ctx.network } : {}) });
      const onShutdown = (): void => {
        daemon.stop(errorMessage(ctx.shutdown?.reason ?? 'shutdown')).catch((error: unknown) => log.error({ err: error }, 'stop failed'));
      };
      if (ctx.shutdown?.aborted) onShutdown();
      else ctx.shutdown?.addEventListener('abort', onShutdown, { once: true });
      // Last resort: an error nothing caught is logged, recorded (the stop's audit row carries it),
      // and ends the daemon cleanly with an exit code the service manager restarts on.
      let fatal: unknown = null;
      const unsubscribe = ctx.onFatal?.((error) => {
        if (fatal !== null) return;
        fatal = error;
        log.fatal({ err: error }, 'uncaught error: stopping cleanly; the service manager restarts jupbot');
        daemon.stop(`uncaught error: ${errorMessage(error)}`).catch((e: unknown) => log.error({ err: e }, 'stop failed'));
      });
      try {
        await daemon.done;
      } finally {
        unsubscribe?.();
      }
      // A stop the disk would not let be recorded (full, read-only) ends with that fault's code (74, 76), not 0.
      const fault = daemon.store.writes.fault();
      if (fault !== null) {
        throw new StoreError(fault.error.code, `stopped, but the stop could not be recorded: ${fault.error.message}`, {
          cause: fault.error,
          details: fault.error.details,
        });
      }
      // Someone else trades the wallet: the daemon stopped itself, and ends with that error's code (77).
      const halted = daemon.halted();
      if (halted !== null) throw halted;
      if (fatal !== null) throw new CliExit(ExitCode.Crashed, `stopped after an uncaught error: ${errorMessage(fatal)}`);
    });
}
