import { resolve } from 'node:path';
import { loadConfig } from '../config/loadConfig.js';
import { databaseFile } from '../store/paths.js';
import type { CliContext } from './context.js';

/**
 * The database a command reads: `--db FILE` when given (relative to the working directory),
 * else the one the config names (its data_dir and mode; --config, then JUPBOT_CONFIG, then the default).
 */
export async function resolveDatabaseFile(ctx: CliContext, options: { db?: string; config?: string }): Promise<string> {
  if (options.db !== undefined) return resolve(ctx.cwd, options.db);
  const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
  return databaseFile(config.data_dir, config.mode);
}
