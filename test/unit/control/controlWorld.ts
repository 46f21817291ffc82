/**
 * A paper daemon in process for the control tests: its simulated world reached through the
 * simulator's request pipeline on a stepping clock, its config written to disk so `jupbot halt`,
 * `pause` and `resume` run against it exactly as an operator would, over its control socket. A
 * restart starts a new process on the same data directory, world and clock.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import type { InProcessNetwork } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import type { Config } from '../../../src/config/config.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import type { Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { jupbot, type CliRun } from '../../support/cli.js';
import { startInProcessPaperDaemon } from '../../support/inProcessPaperDaemon.js';
import { MemoryStream } from '../../support/memoryStream.js';

export const START = Date.UTC(2026, 10, 2, 8, 0);
export const MIN = 60_000;

export interface ControlWorld {
  readonly dir: string;
  readonly strategies: string;
  readonly configFile: string;
  readonly config: Config;
  readonly clock: SteppingClock;
  readonly out: MemoryStream;
  daemon: Daemon;
  sim: Simulator;
  net: InProcessNetwork;
  /** `jupbot ARGS --config <this config>`, in process. */
  cli(args: readonly string[]): Promise<CliRun>;
  /** Moves the world and the daemon `ms` on. */
  drive(ms: number): Promise<void>;
  json(path: string): Promise<Record<string, unknown>>;
  /** Stops the daemon and starts a new one on the same data directory, world and clock. */
  restart(): Promise<void>;
  count(sql: string, ...params: unknown[]): number;
}

const dirs: string[] = [];
const running: Daemon[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop('test over');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export async function controlWorld(label: string, files: Readonly<Record<string, string>>): Promise<ControlWorld> {
  const dir = mkdtempSync(join(tmpdir(), `jb-${label}-`));
  dirs.push(dir);
  const strategies = join(dir, 'strategies');
  mkdirSync(strategies);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(strategies, file), text);
  const text = [
    `data_dir: ${dir}/data`,
    `strategies_dir: ${strategies}`,
    `lock_dir: ${dir}/locks`,
    'http: { listen: "127.0.0.1:0" }',
    `sim: { seed: ${label} }`,
    'log: { format: json }',
    'poll: { strategies: 30s }',
    '',
  ].join('\n');
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, text);
  const config = parseConfigText(text, configFile, {}, dir);
  const clock = new SteppingClock(START);
  const out = new MemoryStream();
  const log = createLogger({ destination: out, clock });

  const launch = async (): Promise<{ daemon: Daemon; sim: Simulator; net: InProcessNetwork }> => {
    const launched = await startInProcessPaperDaemon(config, clock, log, label);
    running.push(launched.daemon);
    return launched;
  };

  const first = await launch();
  const world: ControlWorld = {
    dir,
    strategies,
    configFile,
    config,
    clock,
    out,
    ...first,
    cli: (args) => jupbot([...args, '--config', configFile], { clock }),
    drive: (ms) => driveTo(clock, world.net, clock.now() + ms),
    async json(path) {
      return (await (await fetch(`${world.daemon.opsUrl}${path}`)).json()) as Record<string, unknown>;
    },
    async restart() {
      await world.daemon.stop('restart');
      running.splice(running.indexOf(world.daemon), 1);
      Object.assign(world, await launch());
    },
    count: (sql, ...params) => (world.daemon.store.db.prepare(sql).get(...params) as { n: number }).n,
  };
  return world;
}
