import { Command } from 'commander';
import type { Config } from '../config/config.js';
import { ConfigError, ConfigFileError } from '../config/configError.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { formatDiagnostic, sortDiagnostics } from '../config/diagnostics.js';
import { loadConfig, resolveConfigPath } from '../config/loadConfig.js';
import type { CliContext } from './context.js';
import { CliExit } from './context.js';
import { ExitCode } from '../exitCodes.js';
import { ignoredKey, loadWallet } from '../solana/loadWallet.js';
import { WalletError } from '../solana/walletError.js';
import { checkPredictionIds } from './predictionIdCheck.js';
import { checkStrategies } from './strategyInputs.js';
import { overlapWarnings } from './overlapWarnings.js';

interface ValidateOptions {
  config?: string;
}

/**
 * `jupbot validate [--config FILE] [PATH...]`: checks the config file and every strategy file
 * (PATHs: files or directories; default: the config's strategies_dir). Every problem is printed
 * on stderr as `file:line:col: message` (exit 1); each good file gets an `ok:` line on stdout.
 * In paper mode token symbols are resolved against the simulator's tokens; in live mode the
 * daemon resolves and pins them, and validate checks schema and rules only. The prediction markets
 * and events strategies name are asked of the configured API (live: Jupiter with the key; paper:
 * the simulator in process): an unknown one is a problem; without the API a note says they were
 * not checked. Two enabled strategies managing the same token or positions are warned about on
 * stderr (a warning: the exit code does not change).
 */
/**
 * The checks `run` applies to the wallet and the API key, without printing either: a key file
 * `run` would refuse (mode, JSON, length) is a problem here too. A missing API key is only a note:
 * the structure is valid, and the key is the environment's business until `run`.
 */
async function checkKey(config: Config, file: string, ctx: CliContext): Promise<Diagnostic[]> {
  const ignored = ignoredKey(config);
  if (ignored) ctx.stdout(`note: ${ignored}\n`);
  if (config.mode === 'rehearsal') {
    if (config.api.key === null && !config.api.keyless) ctx.stdout(`note: ${config.api.key_env} is not set: jupbot run will need it (or api.keyless: true)\n`);
    try {
      await loadWallet(config);
      return [];
    } catch (error) {
      if (error instanceof WalletError) return [{ file, line: 0, col: 0, message: `wallet: ${error.message}`, path: ['wallet', 'address'] }];
      throw error;
    }
  }
  if (config.mode !== 'live') return [];
  if (config.api.key === null && !config.api.keyless) ctx.stdout(`note: ${config.api.key_env} is not set: jupbot run will need it (or api.keyless: true)\n`);
  try {
    await loadWallet(config);
    return [];
  } catch (error) {
    if (error instanceof WalletError) return [{ file, line: 0, col: 0, message: `wallet: ${error.message}`, path: ['wallet'] }];
    throw error;
  }
}

export function validateCommand(ctx: CliContext): Command {
  return new Command('validate')
    .description('check the config and strategy files and report every problem as file:line:col: message')
    .argument('[paths...]', 'strategy files or directories (default: strategies_dir from the config)')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .action(async (paths: string[], options: ValidateOptions) => {
      const where = { file: options.config, env: ctx.env, cwd: ctx.cwd };
      const problems: Diagnostic[] = [];
      let config: Config | undefined;
      try {
        // The structure needs no secret; the key is then checked as start-up checks it.
        config = await loadConfig({ ...where, purpose: 'read' });
        ctx.stdout(`ok: ${resolveConfigPath(where).shown} (mode ${config.mode})\n`);
        problems.push(...(await checkKey(config, resolveConfigPath(where).shown, ctx)));
      } catch (error) {
        if (error instanceof ConfigError) problems.push(...error.diagnostics);
        // Missing and unreadable alike: exitCodes.ts documents NotFound for both.
        else if (error instanceof ConfigFileError && paths.length === 0) throw new CliExit(ExitCode.NotFound, error.message);
        else if (error instanceof ConfigFileError) problems.push({ file: resolveConfigPath(where).shown, line: 0, col: 0, message: error.message, path: [] });
        else throw error;
      }
      const targets = paths.length > 0 ? paths : config ? [config.strategies_dir] : [];
      if (targets.length > 0) {
        const check = await checkStrategies(targets, ctx.cwd, config);
        problems.push(...check.missing);
        // Markets and events the strategies name, asked of the API the config points at.
        const ids = await checkPredictionIds(config, ctx, check.outcomes, check.files);
        if (ids.unchecked !== null) ctx.stdout(`note: prediction market and event ids not checked: ${ids.unchecked}\n`);
        for (const outcome of check.outcomes) {
          const found = [...outcome.diagnostics, ...ids.diagnostics.filter((d) => d.file === outcome.file)];
          problems.push(...found);
          if (found.length === 0 && outcome.spec) {
            const note = check.resolved ? '' : ', tokens not resolved offline in live mode';
            ctx.stdout(`ok: ${outcome.file} (${outcome.spec.name}, ${outcome.spec.kind}${outcome.spec.enabled ? '' : ', disabled'}${note})\n`);
          }
        }
        if (check.outcomes.length === 0 && check.missing.length === 0) ctx.stdout(`ok: no strategy files in ${targets.join(', ')}\n`);
        // Two enabled strategies managing the same token or positions: worth a look, not a failure.
        const overlaps = overlapWarnings(check.outcomes, new Set(ids.diagnostics.map((d) => d.file)));
        if (overlaps !== '') ctx.stderr(overlaps);
      }
      if (problems.length > 0) {
        ctx.stderr(
          sortDiagnostics(problems)
            .map((d) => `${formatDiagnostic(d)}\n`)
            .join(''),
        );
        throw new CliExit(ExitCode.InvalidInput);
      }
    });
}
