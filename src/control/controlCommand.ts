/**
 * What `jupbot halt`, `resume` and `pause` do, whether or not a daemon runs:
 *
 * - a daemon answers on its control socket: the request goes there, and it records the change;
 * - nobody answers: the command takes the data directory's lock as a daemon would (so no daemon can
 *   start meanwhile), records the change in the database itself and lets go. If the lock is held
 *   while the socket does not answer, a daemon runs that cannot be reached: said so, nothing changed;
 * - a halt that cancels orders or sells positions with no daemon running starts the daemon's own
 *   composition in its one-shot mode (src/daemon.ts `controlsOnly`): no strategy decides, the
 *   operator's intents go through the executor like any others, and it stops once nothing is left.
 *
 * With a wait (`--wait`), a halt that cancels or sells waits until nothing of ours is live and says
 * so, or says what is left when the wait ends.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { start } from '../daemon.js';
import { errorMessage, JupbotError } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { Redactor } from '../ops/redact.js';
import { AuditLog } from '../store/audit.js';
import { lockDataDir } from '../store/dataDirLock.js';
import { openStore } from '../store/migrate.js';
import { paperWorldFile } from '../store/paperWorldRecords.js';
import { databaseFile } from '../store/paths.js';
import { clearEveryTrip } from '../protections/protectionRecords.js';
import { applyControl } from './applyControl.js';
import { askDaemon } from './controlClient.js';
import type { ControlLeft, ControlRequest } from './controlProtocol.js';
import { controlSocketPath } from './controlProtocol.js';
import { type ControlChange, ControlState, type ControlStatus } from './controlState.js';

/** How often a waiting command asks again. */
const ASK_EVERY_MS = 1_000;

export interface ControlCommandDeps {
  /**
   * The config as read for its paths and mode, without its secrets: asking a running daemon, or
   * recording a change in the database, needs neither the API key nor the wallet's key (an operator's
   * shell under systemd has neither), so a halt never fails for their absence.
   */
  readonly config: Config;
  /** The daemon's clock (paper mode: the scaled one), for the times recorded and the wait. */
  readonly clock: Clock;
  /** The config with its secrets, and a log that scrubs them: only for the one-shot run's daemon. */
  readonly forRun: () => Promise<{ readonly config: Config; readonly log: Logger; readonly redactor: Redactor }>;
  /** How long a halt that cancels or sells waits for nothing to be left; 0: not at all. */
  readonly waitMs: number;
  readonly say: (line: string) => void;
}

export type ControlOutcome =
  | {
      readonly via: 'daemon' | 'database';
      readonly changed: boolean;
      readonly status: ControlStatus;
      readonly strategies: readonly string[] | null;
      readonly left: ControlLeft | null;
      readonly done: boolean;
      /** The protections a `resume --protections` cleared. */
      readonly cleared?: readonly string[];
    }
  /** A daemon holds the data directory and its socket does not answer. */
  | { readonly via: 'unreachable'; readonly message: string }
  /** The daemon answered that the request is not one it takes. */
  | { readonly via: 'refused'; readonly message: string };

export async function runControlCommand(request: Exclude<ControlRequest, { command: 'status' }>, deps: ControlCommandDeps): Promise<ControlOutcome> {
  const { config } = deps;
  const path = controlSocketPath(config.data_dir);
  const asked = await askDaemon(path, request);
  if (asked.reached) {
    if (!asked.answer.ok) return { via: 'refused', message: `the daemon refused the request: ${asked.answer.error}` };
    const { changed, status, strategies } = asked.answer;
    let left = asked.answer.left;
    // Only a halt waits: a pause or resume during a cancelling halt answers at once.
    const waits = request.command === 'halt' && wantsWait(status, deps.waitMs);
    if (waits)
      left = await waitUntil(deps, left, status, async () => {
        const again = await askDaemon(path, { command: 'status' });
        if (!again.reached || !again.answer.ok) throw new Error(`the daemon stopped answering on ${path} while the command waited`);
        return again.answer.left;
      });
    const cleared = asked.answer.cleared;
    return { via: 'daemon', changed, status, strategies, left, done: !waits || nothingLeft(left, status), ...(cleared === undefined ? {} : { cleared }) };
  }
  const change = recordOffline(request, deps, asked.code);
  if ('message' in change) return { via: 'unreachable', message: change.message };
  // Not waiting (`--wait 0`): the next start of the daemon takes the cancels and sales.
  if (!wantsWait(change.status, deps.waitMs) || request.command !== 'halt') {
    const cleared = change.cleared;
    return {
      via: 'database',
      changed: change.changed,
      status: change.status,
      strategies: null,
      left: null,
      done: true,
      ...(cleared === undefined ? {} : { cleared }),
    };
  }
  // Cancels and sales need the daemon's executor: its own composition, strategies silent.
  deps.say('no daemon is running: starting it to cancel and sell only (no strategy decides), until nothing is left');
  let run: Awaited<ReturnType<ControlCommandDeps['forRun']>>;
  try {
    run = await deps.forRun();
  } catch (error) {
    // The config's secrets are missing here (an operator's shell under systemd): the halt stands.
    deps.say('the halt is recorded in the database; the cancels and sales need the daemon, which cannot start from here:');
    throw error;
  }
  const daemon = await start(run.config, { clock: deps.clock, log: run.log, redactor: run.redactor, controlsOnly: true });
  let left: ControlLeft;
  try {
    left = await waitUntil(deps, daemon.engine.control.left(), change.status, () => Promise.resolve(daemon.engine.control.left()));
  } finally {
    await daemon.stop('one-shot control run over');
  }
  return { via: 'database', changed: change.changed, status: change.status, strategies: null, left, done: nothingLeft(left, change.status) };
}

const wantsWait = (status: ControlStatus, waitMs: number): boolean =>
  waitMs > 0 && status.halted !== null && (status.halted.cancelOrders || status.halted.closePositions);

/** Whether nothing the halt cancels or sells is left. */
export function nothingLeft(left: ControlLeft, status: ControlStatus): boolean {
  const orders = !status.halted?.cancelOrders || left.orders + left.placements + left.cancels === 0;
  // Positions that cannot be sold now (claimable, market not open) are not waited for: they never would be.
  const positions = !status.halted?.closePositions || (left.positions === 0 && left.sales === 0 && left.selling === 0);
  return orders && positions;
}

async function waitUntil(deps: ControlCommandDeps, first: ControlLeft, status: ControlStatus, ask: () => Promise<ControlLeft>): Promise<ControlLeft> {
  const until = deps.clock.monotonic() + deps.waitMs;
  let left = first;
  while (!nothingLeft(left, status) && deps.clock.monotonic() < until) {
    await deps.clock.sleep(Math.min(ASK_EVERY_MS, until - deps.clock.monotonic()));
    left = await ask();
  }
  return left;
}

/** The change recorded in the database, under the data directory's lock; or why it could not be. */
function recordOffline(
  request: Exclude<ControlRequest, { command: 'status' }>,
  deps: ControlCommandDeps,
  socketCode: string,
): ControlChange | { message: string } {
  const { config, clock } = deps;
  // A paper database without its world is moved aside by the next start (a new world, a new
  // database): a change recorded now would be lost with it.
  if (config.mode === 'paper' && !existsSync(paperWorldFile(config.data_dir)))
    return {
      message: `paper mode has no world in ${config.data_dir} yet: nothing runs or holds anything to halt, and the first paper run starts with a new database`,
    };
  mkdirSync(config.data_dir, { recursive: true, mode: 0o700 });
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(config.data_dir);
  } catch (error) {
    if (error instanceof JupbotError && error.code === 'STORE_LOCKED') {
      return {
        message: `${errorMessage(error)}; but its control socket ${controlSocketPath(config.data_dir)} does not answer (${socketCode}): nothing was changed. Is it an older jupbot without the control channel, or still starting? Try again, or stop it`,
      };
    }
    throw error;
  }
  try {
    const store = openStore(databaseFile(config.data_dir, config.mode), { clock });
    try {
      const audit = new AuditLog(store.db, clock);
      const state = new ControlState(store.db, audit, clock);
      return applyControl(state, request, (by) =>
        clearEveryTrip(store.db, audit, { at: clock.now(), by, reason: 'cleared by an operator (jupbot resume --protections)' }),
      );
    } finally {
      store.db.close();
    }
  } finally {
    lock.release();
  }
}
