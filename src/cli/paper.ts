/**
 * `jupbot paper reset`: the next paper run starts a new simulated world. The kept world and the
 * paper database that recorded it are moved aside together (renamed with the time, never deleted),
 * so `jupbot audit --db` still reads the old run. Refused while a daemon holds the data directory.
 */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { loadConfig } from '../config/loadConfig.js';
import { archiveDatabase } from '../store/archiveDatabase.js';
import { lockDataDir } from '../store/dataDirLock.js';
import { paperWorldFile } from '../store/paperWorldRecords.js';
import { databaseFile } from '../store/paths.js';
import { storeFailure } from '../store/storeFailure.js';
import type { CliContext } from './context.js';

export function paperCommand(ctx: CliContext): Command {
  const reset = new Command('reset')
    .description('start the next paper run in a new simulated world (the old world and its database are kept aside)')
    .option('--config <file>', 'config file whose data_dir holds the paper world (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .action(async (options: { config?: string }) => {
      const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
      const files = [paperWorldFile(config.data_dir), databaseFile(config.data_dir, 'paper')].filter((f) => existsSync(f));
      if (files.length === 0) {
        ctx.stdout(`no paper world in ${config.data_dir}: the next paper run starts a new one\n`);
        return;
      }
      let lock;
      try {
        lock = lockDataDir(config.data_dir);
      } catch (error) {
        throw storeFailure(error, config.data_dir);
      }
      try {
        const at = ctx.clock.now();
        for (const file of files) ctx.stdout(`kept ${file} as ${archiveDatabase(file, at)}\n`);
        ctx.stdout('the next paper run starts a new simulated world with a new database\n');
      } finally {
        lock.release();
      }
    });
  return new Command('paper').description("paper mode's simulated world").addCommand(reset);
}
