/**
 * `audit actions --kind K`: a kind jupbot never writes and the database does not hold is a typo
 * (`fil` for `fill`), refused with the kinds there are, instead of an empty answer that reads as
 * "nothing happened". A known kind the database lacks yet is a real question: its answer is empty.
 */
import { KNOWN_ACTION_KINDS, recordedActionKinds } from '../store/actionKinds.js';
import type { Db } from '../store/db.js';
import { ExitCode } from '../exitCodes.js';
import { CliExit } from './context.js';

export function checkActionKind(db: Db, kind: string | undefined): void {
  if (kind === undefined) return;
  const recorded = recordedActionKinds(db);
  if (recorded.includes(kind) || KNOWN_ACTION_KINDS.includes(kind)) return;
  const near = [...new Set([...recorded, ...KNOWN_ACTION_KINDS])].filter((k) => k.startsWith(kind) || kind.startsWith(k.split('.')[0] ?? k)).sort();
  throw new CliExit(
    ExitCode.InvalidInput,
    `--kind ${kind}: no such action kind` +
      (near.length > 0 ? `; did you mean ${near.join(', ')}?` : '') +
      `\nkinds in this database: ${recorded.join(', ') || '(none)'}` +
      `\nkinds jupbot writes: ${KNOWN_ACTION_KINDS.join(', ')}`,
  );
}
