/**
 * A fleet in process: several real paper daemons (`start()` from src/daemon.ts), each with its own
 * data directory, wallet and log, trading in ONE simulated world behind ONE gateway, on one API key
 * (paper mode's) and one stepping clock. The gateway's main bucket is set to a small quota so that
 * the daemons together want more than it allows.
 *
 * The world is the simulator itself handed to each daemon as its paper world (as a backtest hands
 * its own), not paper mode's kept world: that one builds its simulator with the default gateway and
 * one per daemon. Nothing in src/ changes for this.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import type { PaperWorld } from '../../../src/paper/paperWorld.js';
import { createRandom } from '../../../src/random.js';
import { createSimulator, type Simulator } from '../../../src/sim/simulator.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { GatewayCount } from './gatewayCount.js';
import { LimiterTrace } from './limiterTrace.js';

export const START = Date.UTC(2026, 10, 2, 8, 0);
export const MIN = 60_000;

export interface FleetWorldOptions {
  readonly label: string;
  /** How many daemons share the key. */
  readonly size: number;
  /** The gateway's main-bucket quota for the key, per 60 s. */
  readonly quotaPerMinute: number;
  /** Strategy files every daemon runs (each in its own strategies directory). */
  readonly strategies: Readonly<Record<string, string>>;
  /** More config lines for every daemon (YAML, e.g. the `fleet:` section). */
  readonly config?: readonly string[];
  /**
   * Awaited between the driver's steps, after the daemons went idle on the network: a fleet test
   * waits here for the daemons' Redis round trips, which the in-process network cannot see.
   */
  readonly quiesce?: () => Promise<void>;
}

export interface FleetMember {
  readonly index: number;
  readonly daemon: Daemon;
  /** The daemon's log, JSON lines. */
  readonly out: MemoryStream;
  /** The log lines whose `msg` contains `text`. */
  said(text: string): Record<string, unknown>[];
}

export interface FleetWorld {
  readonly clock: SteppingClock;
  readonly sim: Simulator;
  readonly members: readonly FleetMember[];
  readonly gateway: GatewayCount;
  readonly trace: LimiterTrace;
  /** Moves the world and every daemon `ms` on, one due sleeper at a time, each step run to idle. */
  drive(ms: number): Promise<void>;
  /** Drives in `stepMs` steps until `done()` (at most `maxMs`); true when it came true. */
  driveUntil(done: () => boolean, stepMs: number, maxMs: number): Promise<boolean>;
  /** Stops every daemon (their logs stay readable) and removes the directories. Idempotent. */
  stop(): Promise<void>;
}

export async function fleetWorld(options: FleetWorldOptions): Promise<FleetWorld> {
  const root = mkdtempSync(join(tmpdir(), `jb-fleet-${options.label}-`));
  const clock = new SteppingClock(START);
  const net = new InProcessNetwork(clock);
  const sim = createSimulator({ clock: net.simClock(), seed: options.label, gateway: { keyedRequestsPerMinute: options.quotaPerMinute } });
  net.connect(sim);
  const gateway = new GatewayCount(clock);
  const trace = new LimiterTrace(clock);
  const funded = new Set<string>();
  const world: PaperWorld = {
    url: SIM_ORIGIN,
    seed: options.label,
    restored: false,
    fund(wallet) {
      if (funded.has(wallet)) return;
      sim.control.paperWallet(wallet);
      funded.add(wallet);
    },
    close: () => Promise.resolve(),
  };

  const members: FleetMember[] = [];
  let stopped = false;
  const stopAll = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    // The members stay listed: their logs can be read after the stop.
    for (const m of members) await m.daemon.stop('test over');
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < options.size; index++) {
      const dir = join(root, `d${index}`);
      const strategies = join(dir, 'strategies');
      mkdirSync(strategies, { recursive: true });
      for (const [file, text] of Object.entries(options.strategies)) writeFileSync(join(strategies, file), text);
      const text = [
        `data_dir: ${dir}/data`,
        `strategies_dir: ${strategies}`,
        `lock_dir: ${dir}/locks`,
        'http: { listen: "127.0.0.1:0" }',
        'log: { format: json }',
        ...(options.config ?? []),
        '',
      ].join('\n');
      const configFile = join(dir, 'config.yaml');
      writeFileSync(configFile, text);
      const config = parseConfigText(text, configFile, {}, dir);
      const out = new MemoryStream();
      const log = createLogger({ destination: out, clock });
      const daemon = await start(config, {
        clock,
        log,
        random: createRandom(`${options.label}:${index}`),
        network: gateway.fetchFor(index, net.fetch),
        paperWorld: world,
        // Nobody halts these daemons: no control socket.
        controlChannel: false,
      });
      trace.watch(index, daemon.engine.client.events);
      members.push({
        index,
        daemon,
        out,
        said: (t) => out.lines().filter((line) => typeof line.msg === 'string' && line.msg.includes(t)),
      });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  /** Idle: nothing on the network, and nothing new after the extra wait (a Redis round trip). */
  const settle = async (): Promise<void> => {
    for (;;) {
      await net.settle();
      if (options.quiesce === undefined) return;
      const before = `${gateway.answers.length}/${trace.steps.length}/${clock.pendingSleeps}`;
      await options.quiesce();
      await net.settle();
      if (`${gateway.answers.length}/${trace.steps.length}/${clock.pendingSleeps}` === before) return;
    }
  };

  const drive = (ms: number): Promise<void> => driveTo(clock, { settle }, clock.now() + ms);

  return {
    clock,
    sim,
    members,
    gateway,
    trace,
    drive,
    async driveUntil(done, stepMs, maxMs) {
      for (let spent = 0; !done(); spent += stepMs) {
        if (spent >= maxMs) return false;
        await drive(stepMs);
      }
      return true;
    },
    stop: stopAll,
  };
}
