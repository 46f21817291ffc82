/**
 * A paper daemon in process: its own simulated world reached through the simulator's request
 * pipeline (an InProcessNetwork, no socket) on the test's stepping clock, started by the daemon's own
 * `start()`. The control and roster tests run their daemons this way.
 */
import { InProcessNetwork, SIM_ORIGIN } from '../../src/backtest/inProcessNetwork.js';
import type { SteppingClock } from '../../src/backtest/steppingClock.js';
import type { Config } from '../../src/config/config.js';
import { start, type Daemon } from '../../src/daemon.js';
import type { Logger } from '../../src/ops/log.js';
import { openPaperWorld } from '../../src/paper/openPaperWorld.js';
import { createRandom } from '../../src/random.js';
import type { Simulator } from '../../src/sim/simulator.js';

export interface InProcessPaperDaemon {
  readonly daemon: Daemon;
  readonly sim: Simulator;
  readonly net: InProcessNetwork;
}

/** Opens the config's paper world on `clock` and starts the daemon over it; `seed` seeds its randomness. */
export async function startInProcessPaperDaemon(config: Config, clock: SteppingClock, log: Logger, seed: string): Promise<InProcessPaperDaemon> {
  const net = new InProcessNetwork(clock);
  let sim: Simulator | undefined;
  const paperWorld = await openPaperWorld(config, net.simClock(), log, (s) => {
    sim = s;
    net.connect(s);
    return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
  });
  if (sim === undefined) throw new Error('the world did not start');
  const daemon = await start(config, { clock, log, random: createRandom(seed), network: net.fetch, paperWorld });
  return { daemon, sim, net };
}
