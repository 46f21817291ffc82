/**
 * Paper mode's world as a CLI command reads it (`markets search`, `events`, `validate`, `plan`):
 * the embedded simulator, in process, reached through an in-process network (no socket). When the
 * data directory keeps a paper world, it is rebuilt from the kept inputs up to the instant it last
 * reached — the markets a paper run trades, successors of settled events included — and the file is
 * only read. Before any paper run, it is a new world as a first run starts it: the same events and
 * market ids, at the simulator's starting prices.
 *
 * Loaded by a dynamic import only: the daemon's live path never carries the simulator.
 */
import { existsSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { InProcessNetwork, SIM_ORIGIN } from '../backtest/inProcessNetwork.js';
import { createSimulator, type Simulator } from '../sim/simulator.js';
import { PaperWorldRecords, paperWorldFile } from '../store/paperWorldRecords.js';
import { replayKeptWorld } from './replayKeptWorld.js';
import { WorldClock } from './worldClock.js';

export interface PaperWorldView {
  /** The API root the client is given (nothing listens there: {@link fetch} answers it). */
  readonly baseUrl: string;
  readonly fetch: typeof globalThis.fetch;
  /** Where the answers come from, for messages: the kept world and the instant it reached, or a new one. */
  readonly description: string;
}

export function openPaperWorldView(config: Config, clock: Clock): PaperWorldView {
  const file = paperWorldFile(config.data_dir);
  const kept = existsSync(file) ? keptWorld(file) : undefined;
  const sim = kept?.sim ?? createSimulator({ clock, ...(config.sim.seed === null ? {} : { seed: config.sim.seed }) });
  // Nothing here waits on the clock (no faults are injected): the network only needs to read it.
  const net = new InProcessNetwork({
    now: () => clock.now(),
    monotonic: () => clock.monotonic(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    pendingSleeps: 0,
  });
  net.connect(sim);
  return {
    baseUrl: SIM_ORIGIN,
    fetch: net.fetch,
    description: kept
      ? `the paper world kept in ${file} (as of ${new Date(kept.reachedAt).toISOString()})`
      : 'a new paper world (no paper run has kept one yet)',
  };
}

/** The kept world at the instant it last reached, or undefined when the file holds no world yet. */
function keptWorld(file: string): { sim: Simulator; reachedAt: number } | undefined {
  const records = PaperWorldRecords.open(file, { readonly: true });
  try {
    const header = records.header();
    const reachedAt = records.reachedAt();
    if (header === undefined || reachedAt === undefined) return undefined;
    const worldClock = new WorldClock({ at: header.genesis });
    const sim = createSimulator({ clock: worldClock, seed: header.seed });
    replayKeptWorld(records, file, sim, worldClock);
    // Held there: what the world did after it was last seen is the next paper run's to decide.
    worldClock.replayAt(reachedAt);
    return { sim, reachedAt };
  } finally {
    records.close();
  }
}
