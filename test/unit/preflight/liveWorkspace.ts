/**
 * A copy of config/live.example.yaml in a directory of its own, as an operator would make it: its
 * empty strategies.live/, a HOME with the key where the example expects it, an API key in the
 * environment. Jupiter and the Solana node are the simulator, reached through a fetch that counts
 * every request (what `jupbot run` and `jupbot live check` take as their network).
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterEach } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createSimulator, type Simulator } from '../../../src/sim/simulator.js';
import { jupbot, repoRoot, type CliRun } from '../../support/cli.js';
import { simFetch } from '../../support/simFetch.js';

export const START = Date.UTC(2026, 10, 2, 8, 0);
export const API_KEY = 'preflight-test-key';

export interface LiveWorkspace {
  readonly dir: string;
  readonly config: string;
  readonly strategies: string;
  readonly dataDir: string;
  readonly wallet: string;
  readonly env: Record<string, string>;
  readonly clock: ManualClock;
  readonly sim: Simulator;
  /** Every URL the network was asked, in order. */
  readonly requests: string[];
  readonly network: typeof globalThis.fetch;
  /** `jupbot ARGS` in this workspace, over its network. */
  run(args: readonly string[], options?: { shutdown?: AbortSignal; onStdout?: (text: string) => void; env?: Record<string, string> }): Promise<CliRun>;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function liveWorkspace(options: { listen?: string; solLamports?: bigint; seed?: string } = {}): LiveWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-live-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'config'));
  mkdirSync(join(dir, 'strategies.live'));
  copyFileSync(join(repoRoot, 'strategies.live', 'README.md'), join(dir, 'strategies.live', 'README.md'));
  // The example as shipped; only the ops address moves off 9464, which other tests and daemons may hold.
  const example = readFileSync(join(repoRoot, 'config', 'live.example.yaml'), 'utf8');
  const listen = options.listen ?? '127.0.0.1:0';
  if (!example.includes('listen: 127.0.0.1:9464')) throw new Error('live.example.yaml no longer listens on 127.0.0.1:9464');
  const config = join(dir, 'config', 'live.yaml');
  writeFileSync(config, example.replace('listen: 127.0.0.1:9464', `listen: "${listen}"`));

  const home = join(dir, 'home');
  mkdirSync(join(home, '.config', 'solana'), { recursive: true });
  const key = Keypair.fromSeed(new Uint8Array(32).fill(options.seed === undefined ? 77 : options.seed.length + 80));
  const keyFile = join(home, '.config', 'solana', 'id.json');
  writeFileSync(keyFile, JSON.stringify([...key.secretKey]), { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  const wallet = key.publicKey.toBase58();

  const clock = new ManualClock(START);
  const sim = createSimulator({ clock, seed: options.seed ?? 'preflight' });
  sim.control.fund(wallet, options.solLamports ?? 2_000_000_000n);
  const inner = simFetch(sim);
  const requests: string[] = [];
  const network: typeof globalThis.fetch = (input, init) => {
    requests.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return inner(input, init);
  };
  const env = { HOME: home, JUPITER_API_KEY: API_KEY, RUNTIME_DIRECTORY: join(dir, 'run') };
  return {
    dir,
    config,
    strategies: join(dir, 'strategies.live'),
    dataDir: join(dir, 'data'),
    wallet,
    env,
    clock,
    sim,
    requests,
    network,
    run: (args, { env: extra, ...more } = {}) => jupbot(args, { clock, env: { ...env, ...extra }, cwd: dir, network, ...more }),
  };
}
