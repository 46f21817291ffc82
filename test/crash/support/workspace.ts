/**
 * The daemon's files for the crash test, in a fresh temporary directory: a live-mode config aimed
 * at the test's simulator on loopback (plain http is allowed there), a wallet key file (0600), the
 * data directory and a copy of every strategy in test/crash/strategies — adding a flow to the
 * crash test is dropping a YAML file there. A file of the same name in strategies/alternates is
 * another version of that strategy, swapped in and out between restarts (edits while down).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import type { Random } from '../../../src/random.js';
import { databaseFile } from '../../../src/store/paths.js';

export const STRATEGY_FIXTURES = resolve(import.meta.dirname, '../strategies');
const ALTERNATES = join(STRATEGY_FIXTURES, 'alternates');
/** The API key's environment variable; its value reaches the daemon through the environment only. */
export const API_KEY_ENV = 'JUPBOT_CRASH_API_KEY';

export interface Workspace {
  readonly dir: string;
  readonly configFile: string;
  readonly database: string;
  readonly wallet: string;
  readonly strategies: readonly string[];
  readonly strategiesDir: string;
  /** Strategy files that have an alternate version, and whether the alternate is in place. */
  readonly alternates: Map<string, boolean>;
  readonly env: Record<string, string>;
}

export interface WorkspaceOptions {
  readonly simUrl: string;
  /** 32 bytes of seed for the wallet, so a run can be replayed. */
  readonly walletSeed: Uint8Array;
  /** Feed and tick interval (poll.prices), e.g. '250ms'. */
  readonly pollPrices: string;
  /** Orders feed and reconciliation interval (poll.orders). */
  readonly pollOrders: string;
}

export function createWorkspace(options: WorkspaceOptions): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-crash-'));
  const dataDir = join(dir, 'data');
  const strategiesDir = join(dir, 'strategies');
  mkdirSync(dataDir);
  mkdirSync(strategiesDir);
  const strategies = readdirSync(STRATEGY_FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const file of strategies) copyFileSync(join(STRATEGY_FIXTURES, file), join(strategiesDir, file));

  const keypair = Keypair.fromSeed(options.walletSeed);
  const keyFile = join(dir, 'wallet.json');
  writeFileSync(keyFile, JSON.stringify([...keypair.secretKey]), { mode: 0o600 });
  chmodSync(keyFile, 0o600);

  const configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    [
      'mode: live',
      'api:',
      `  base_url: ${options.simUrl}`,
      `  key_env: ${API_KEY_ENV}`,
      // The daemon's limiter paces every call; the simulator's gateway is unlimited in this test.
      '  requests_per_second: 500',
      '  timeout: 5s',
      'rpc:',
      `  url: ${options.simUrl}/rpc`,
      'wallet:',
      `  keypair_file: ${keyFile}`,
      `data_dir: ${dataDir}`,
      `strategies_dir: ${strategiesDir}`,
      'poll:',
      `  prices: ${options.pollPrices}`,
      '  scores: 5s',
      '  positions: 5s',
      `  orders: ${options.pollOrders}`,
      '  strategies: 5s',
      'http:',
      '  listen: 127.0.0.1:0',
      'log:',
      '  level: info',
      '  format: json',
      // Live mode: the guard refuses every prediction transaction whose program is not listed; the
      // simulator's stand-in program is what its prediction builds call.
      'prediction:',
      `  program_ids: [${ProgramId.jupiterPrediction.toBase58()}]`,
      '',
    ].join('\n'),
  );
  return {
    dir,
    configFile,
    database: databaseFile(dataDir, 'live'),
    wallet: keypair.publicKey.toBase58(),
    strategies,
    strategiesDir,
    alternates: new Map(strategies.filter((f) => existsSync(join(ALTERNATES, f))).map((f) => [f, false])),
    env: { [API_KEY_ENV]: 'crash-test-key-not-a-secret', JUPBOT_KEYPAIR: '' },
  };
}

/**
 * Swaps each strategy that has an alternate version, with probability `chance`, between its two
 * versions (the daemon must be down: it reads the files when it starts). Returns the files swapped.
 */
export function swapAlternates(ws: Workspace, random: Random, chance: number): string[] {
  const swapped: string[] = [];
  for (const [file, alternate] of ws.alternates) {
    if (random.next() >= chance) continue;
    copyFileSync(join(alternate ? STRATEGY_FIXTURES : ALTERNATES, file), join(ws.strategiesDir, file));
    ws.alternates.set(file, !alternate);
    swapped.push(file);
  }
  return swapped;
}
