/**
 * Paper mode's world, kept in the data directory: the embedded simulator, rebuilt at start from the
 * inputs an earlier run kept (store/paperWorldRecords.ts), then served on loopback while every new
 * input is kept before its answer leaves. A new data directory (or `jupbot paper reset`) starts a
 * new world, seeded by `sim.seed` or at random.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../ops/log.js';
import { createRandom } from '../random.js';
import { createSimulator, type Simulator } from '../sim/simulator.js';
import { PaperWorldRecords, paperWorldFile } from '../store/paperWorldRecords.js';
import type { PaperWorld } from './paperWorld.js';
import { replayKeptWorld } from './replayKeptWorld.js';
import { WorldClock } from './worldClock.js';

/** How often (real time) the world's reached instant is written down, for a restart after a crash. */
const SEEN_EVERY_MS = 5_000;

/** How the world is reached: by default an HTTP server on loopback (`sim.port`, else any free port). */
export type ServeWorld = (sim: Simulator) => Promise<{ readonly url: string; close(): Promise<void> }>;

export async function openPaperWorld(config: Config, clock: Clock, log: Logger, serve?: ServeWorld): Promise<PaperWorld> {
  const file = paperWorldFile(config.data_dir);
  const records = PaperWorldRecords.open(file);
  try {
    const header = records.header();
    const worldClock = new WorldClock(header === undefined ? clock : { at: header.genesis });
    const seed = header?.seed ?? String(config.sim.seed ?? createRandom().seed);
    if (header !== undefined && config.sim.seed !== null && String(config.sim.seed) !== header.seed)
      log.warn(
        { saved: header.seed, configured: String(config.sim.seed) },
        'sim.seed differs from the saved paper world: the saved world continues; `jupbot paper reset` starts one with the configured seed',
      );
    const sim = createSimulator({ clock: worldClock, seed, onInput: (input) => records.append(input) });
    const funded = new Set<string>();
    if (header === undefined) records.begin(seed, sim.genesis);
    else {
      const began = clock.monotonic();
      const replayed = replayKeptWorld(records, file, sim, worldClock);
      for (const wallet of replayed.funded) funded.add(wallet);
      log.info({ inputs: replayed.inputs, seed, ms: Math.round(clock.monotonic() - began) }, 'paper world restored from the data directory');
    }
    if (clock.now() < worldClock.now())
      log.warn(
        { reachedAt: new Date(worldClock.now()).toISOString(), clock: new Date(clock.now()).toISOString() },
        'the clock reads earlier than the paper world has reached: the world holds still until the clock passes it',
      );
    worldClock.follow(clock);
    const server = await (serve ?? ((s) => s.listen(config.sim.port ?? 0, '127.0.0.1', { catchUpEveryMs: 1000 })))(sim);
    const timer = setInterval(() => records.seen(clock.now()), SEEN_EVERY_MS);
    timer.unref();
    return {
      url: server.url,
      seed,
      restored: header !== undefined,
      fund(wallet) {
        if (funded.has(wallet)) return;
        sim.control.paperWallet(wallet);
        funded.add(wallet);
      },
      async close() {
        clearInterval(timer);
        await server.close();
        records.seen(clock.now());
        records.close();
      },
    };
  } catch (error) {
    records.close();
    throw error;
  }
}
