/**
 * A roster fleet in process: several paper daemons, each with its own data directory,
 * wallet and simulated world, all on one stepping clock and all registered in one roster on a real
 * redis-server (`fleet: { redis, name, heartbeat: 10s }` in their configs). `fleet status` runs
 * against the config of the first, on the same clock, exactly as an operator would run it.
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
import type { RosterPublisher } from '../../../src/fleet/rosterPublisher.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { SOL, USDC } from '../../support/mints.js';
import { recordFill } from '../../../src/store/fills.js';
import { jupbot, type CliRun } from '../../support/cli.js';
import { startInProcessPaperDaemon } from '../../support/inProcessPaperDaemon.js';
import { MemoryStream } from '../../support/memoryStream.js';

export const START = Date.UTC(2026, 10, 2, 8, 0);
export const SEC = 1_000;
export const MIN = 60_000;

export interface RosterMember {
  readonly label: string;
  readonly dir: string;
  readonly configFile: string;
  readonly config: Config;
  readonly out: MemoryStream;
  daemon: Daemon;
  sim: Simulator;
  net: InProcessNetwork;
  /** The daemon's roster publisher (the fleet is configured, so it has one). */
  roster(): RosterPublisher;
  json(path: string): Promise<Record<string, unknown>>;
  /** Stops the daemon (a clean stop) and starts a new one on the same data directory, world and clock. */
  restart(): Promise<void>;
}

export interface RosterWorld {
  readonly clock: SteppingClock;
  readonly members: readonly RosterMember[];
  /** Moves every world and daemon `ms` on, one due sleeper at a time, each idle before the next. */
  drive(ms: number): Promise<void>;
  /** `jupbot fleet status ARGS --config <the first member's config>`, in process, on the fleet's clock. */
  status(args?: readonly string[]): Promise<CliRun>;
}

const dirs: string[] = [];
const running = new Set<Daemon>();
afterEach(async () => {
  for (const d of [...running]) await d.stop('test over');
  running.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export async function rosterWorld(
  label: string,
  redisUrl: string,
  members: readonly { readonly strategies: Readonly<Record<string, string>> }[],
  env: Readonly<Record<string, string>> = {},
): Promise<RosterWorld> {
  const clock = new SteppingClock(START);
  const all: RosterMember[] = [];
  for (const [i, spec] of members.entries()) {
    const name = `${label}-${i}`;
    const dir = mkdtempSync(join(tmpdir(), `jb-${name}-`));
    dirs.push(dir);
    const strategies = join(dir, 'strategies');
    mkdirSync(strategies);
    for (const [file, text] of Object.entries(spec.strategies)) writeFileSync(join(strategies, file), text);
    const text = [
      `data_dir: ${dir}/data`,
      `strategies_dir: ${strategies}`,
      `lock_dir: ${dir}/locks`,
      'http: { listen: "127.0.0.1:0" }',
      `sim: { seed: ${name} }`,
      'log: { format: json, level: debug }',
      'poll: { strategies: 30s }',
      `fleet: { redis: "${redisUrl}", name: ${label}, heartbeat: 10s, size: ${members.length} }`,
      '',
    ].join('\n');
    const configFile = join(dir, 'config.yaml');
    writeFileSync(configFile, text);
    const config = parseConfigText(text, configFile, env, dir);
    const out = new MemoryStream();
    const log = createLogger({ destination: out, clock, level: 'debug' });
    const launch = async (): Promise<{ daemon: Daemon; sim: Simulator; net: InProcessNetwork }> => {
      const launched = await startInProcessPaperDaemon(config, clock, log, name);
      running.add(launched.daemon);
      return launched;
    };
    const member: RosterMember = {
      label: name,
      dir,
      configFile,
      config,
      out,
      ...(await launch()),
      roster() {
        const roster = member.daemon.engine.roster;
        if (roster === null) throw new Error(`${name} has no roster publisher`);
        return roster;
      },
      async json(path) {
        return (await (await fetch(`${member.daemon.opsUrl}${path}`)).json()) as Record<string, unknown>;
      },
      async restart() {
        await member.daemon.stop('restart');
        running.delete(member.daemon);
        Object.assign(member, await launch());
      },
    };
    all.push(member);
  }
  const settle = async (): Promise<void> => {
    await Promise.all(all.map((m) => m.net.settle()));
    await Promise.all(all.map((m) => m.daemon.engine.roster?.idle() ?? Promise.resolve()));
  };
  return {
    clock,
    members: all,
    drive: (ms) => driveTo(clock, { settle }, clock.now() + ms),
    status: (args = []) => jupbot(['fleet', 'status', ...args, '--config', (all[0] as RosterMember).configFile], { clock, env: { ...env } }),
  };
}

/**
 * A round trip of `strategy`'s own: 1 SOL bought for `buyUsd` and sold for `sellUsd` at `at`, as
 * fills in the daemon's database: today's realized P&L moves by exactly `sellUsd - buyUsd`.
 */
export function roundTrip(m: RosterMember, strategy: string, tag: string, buyUsd: bigint, sellUsd: bigint, at: number): void {
  const { db } = m.daemon.store;
  const audit = m.daemon.engine.audit;
  const owner = { intentId: null, strategy };
  db.transaction(() => {
    recordFill(
      db,
      audit,
      {
        signature: `${tag}-buy`,
        idx: 0,
        source: 'swap',
        inMint: USDC,
        inAmount: buyUsd,
        inDecimals: 6,
        outMint: SOL,
        outAmount: 1_000_000_000n,
        outDecimals: 9,
        at,
      },
      owner,
      at,
    );
    recordFill(
      db,
      audit,
      {
        signature: `${tag}-sell`,
        idx: 0,
        source: 'swap',
        inMint: SOL,
        inAmount: 1_000_000_000n,
        inDecimals: 9,
        outMint: USDC,
        outAmount: sellUsd,
        outDecimals: 6,
        at: at + 1,
      },
      owner,
      at + 1,
    );
  })();
}
