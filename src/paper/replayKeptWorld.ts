/**
 * Rebuilds a kept paper world: every input the file holds, applied again at its instant. Shared by
 * the paper daemon (which then goes on writing the file) and the CLI's read-only view of it.
 */
import { errorMessage } from '../errors.js';
import type { Simulator } from '../sim/simulator.js';
import { StoreError } from '../store/errors.js';
import type { PaperWorldRecords } from '../store/paperWorldRecords.js';
import type { WorldClock } from './worldClock.js';

export interface Replayed {
  readonly inputs: number;
  /** Wallets the world funded as paper wallets. */
  readonly funded: ReadonlySet<string>;
}

export function replayKeptWorld(records: PaperWorldRecords, file: string, sim: Simulator, worldClock: WorldClock): Replayed {
  const funded = new Set<string>();
  let count = 0;
  try {
    for (const input of records.inputs()) {
      worldClock.replayAt(input.at);
      sim.replay(input);
      if (input.kind === 'control' && input.op === 'paperWallet') funded.add(String(input.args[0]));
      count++;
    }
  } catch (error) {
    // A damaged or hand-edited file: say which and how to go on, never start on half a world.
    throw new StoreError(
      'STORE_ROW_INVALID',
      `the paper world in ${file} cannot be rebuilt at input ${count + 1}: ${errorMessage(error)}; \`jupbot paper reset\` keeps it aside and starts a new world`,
      {
        cause: error,
        details: { query: 'paper world input', file },
      },
    );
  }
  return { inputs: count, funded };
}
