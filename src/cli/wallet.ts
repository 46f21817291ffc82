/**
 * `jupbot wallet new|show`: paper wallets and key file checks. Prints addresses, sources and file
 * modes; never a secret (the wallet module does not hand its secret out, so this command cannot
 * print one by mistake).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError, ConfigFileError } from '../config/configError.js';
import { loadConfig } from '../config/loadConfig.js';
import { generateKeypairFile, PAPER_WALLET_FILE, paperWallet } from '../solana/paperWallet.js';
import { loadConfiguredKey, loadWallet } from '../solana/loadWallet.js';
import type { Wallet } from '../solana/wallet.js';
import { WalletError } from '../solana/walletError.js';
import type { CliContext } from './context.js';
import { CliExit } from './context.js';
import { ExitCode } from '../exitCodes.js';

interface ConfigOption {
  config?: string;
}

/** Maps the wallet module's errors to one clear line and a documented exit code. */
function exitFor(error: unknown): never {
  if (error instanceof WalletError) {
    const code = error.code === 'WALLET_FILE_UNREADABLE' ? ExitCode.NotFound : ExitCode.InvalidInput;
    throw new CliExit(code, error.message);
  }
  if (error instanceof ConfigFileError) throw new CliExit(ExitCode.NotFound, error.message);
  if (error instanceof ConfigError) throw new CliExit(ExitCode.InvalidInput, error.message);
  throw error;
}

async function modeOf(file: string): Promise<string> {
  return ((await stat(file)).mode & 0o777).toString(8).padStart(3, '0');
}

export function walletCommand(ctx: CliContext): Command {
  const command = new Command('wallet').description('paper wallets and key file checks (never prints a secret)');
  command.configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr });

  command
    .command('new')
    .description('generate a paper wallet (mode 0600) in the data dir, or at --file; refuses to overwrite')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .option('-f, --file <path>', 'write the key file here instead of <data_dir>/paper-wallet.json')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .action(async (options: ConfigOption & { file?: string }) => {
      try {
        let wallet: Wallet;
        let file: string;
        if (options.file !== undefined) {
          file = isAbsolute(options.file) ? options.file : resolve(ctx.cwd, options.file);
          wallet = await generateKeypairFile(file);
        } else {
          const config = await loadConfig({ file: options.config, env: ctx.env, cwd: ctx.cwd });
          file = join(config.data_dir, PAPER_WALLET_FILE);
          wallet = await paperWallet(config.data_dir);
        }
        ctx.stdout(`address: ${wallet.address}\nfile: ${file} (mode ${await modeOf(file)})\n`);
      } catch (error) {
        exitFor(error);
      }
    });

  command
    .command('show')
    .description('load the configured wallet with all checks and print its address and source')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .action(async (options: ConfigOption) => {
      try {
        const config = await loadConfig({ file: options.config, env: ctx.env, cwd: ctx.cwd });
        // The key the config names, checked as live start-up checks it (paper mode would not use it).
        const wallet = (await loadConfiguredKey(config)) ?? (await loadWallet(config));
        const isFile = wallet.source !== 'JUPBOT_KEYPAIR';
        const where = isFile ? `${wallet.source} (mode ${await modeOf(wallet.source)})` : 'JUPBOT_KEYPAIR';
        ctx.stdout(`address: ${wallet.address}\nsource: ${where}\nmode: ${config.mode}\n`);
      } catch (error) {
        exitFor(error);
      }
    });
  return command;
}
