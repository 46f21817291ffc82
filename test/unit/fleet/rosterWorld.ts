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
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import type { Config } from '../../../src/config/config.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { createRandom } from '../../../src/random.js';
import type { RosterPublisher } from '../../../src/fleet/rosterPublisher.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { SOL, USDC } from '../../support/mints.js';
import { recordFill } from '../../../src/store/fills.js';
import { jupbot, type CliRun } from '../../support/cli.js';
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
      const net = new InProcessNetwork(clock);
      let sim: Simulator | undefined;
      const paperWorld = await openPaperWorld(config, net.simClock(), log, (s) => {
        sim = s;
        net.connect(s);
        return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
      });
      if (sim === undefined) throw new Error('the world did not start');
      const daemon = await start(config, { clock, log, random: createRandom(name), network: net.fetch, paperWorld });
      running.add(daemon);
      return { daemon, sim, net };
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
    async drive(ms) {
      const target = clock.monotonic() + ms;
      for (;;) {
        await settle();
        const next = clock.nextWake();
        if (next === undefined || next > target) break;
        await clock.advance(next - clock.monotonic());
      }
      await clock.advance(Math.max(0, target - clock.monotonic()));
      await settle();
    },
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
