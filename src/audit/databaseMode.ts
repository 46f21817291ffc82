/**
 * Which kind of run a database holds, from what it records rather than its file name (a copy can be
 * renamed): every start of the daemon records its `mode` (`daemon.started`), and a rehearsal's
 * database has its ledger opened. A database older than the mode's recording, or one no daemon
 * started on, says nothing: the report says "mode unknown" rather than guess.
 */
import type { Db } from '../store/db.js';
import { isRehearsalDatabase } from '../store/rehearsalMark.js';
import { recordedModes } from '../store/reportRecords.js';

export type RunMode = 'paper' | 'rehearsal' | 'live';

export interface DatabaseMode {
  /** Null when the database does not say, or says several (each mode has its own file, so that is a copied-together one). */
  readonly mode: RunMode | null;
  /** What told it, in words. */
  readonly evidence: string;
}

const MODES: ReadonlySet<string> = new Set<RunMode>(['paper', 'rehearsal', 'live']);

export function databaseMode(db: Db): DatabaseMode {
  const recorded = recordedModes(db);
  const known = recorded.filter((m): m is RunMode => m !== null && MODES.has(m));
  if (isRehearsalDatabase(db) && known.every((m) => m === 'rehearsal'))
    return { mode: 'rehearsal', evidence: 'its rehearsal ledger is opened: nothing in it was signed or sent' };
  const only = known[0];
  if (known.length === 1 && only !== undefined)
    return { mode: only, evidence: `the daemon recorded ${only} mode${recorded.length > 1 ? ' (its earlier starts recorded none)' : ' at each start'}` };
  if (recorded.length === 0) return { mode: null, evidence: 'no daemon start is recorded in it' };
  if (known.length === 0) return { mode: null, evidence: 'the daemon starts it records do not say which mode they ran in' };
  return { mode: null, evidence: `the daemon starts it records say different modes: ${known.join(', ')}` };
}
