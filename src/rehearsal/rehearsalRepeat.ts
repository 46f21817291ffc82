/**
 * What a rehearsal handler's `settle` answers for a row left `sent` (a lost answer, a crash, a refusal
 * about the moment): asking again is harmless, since a rehearsed call changes nothing outside this
 * database. A swap or a prediction exit is not asked again once its decision is older than live
 * mode would act on: live, such an intent has not been signed yet (its build failed for the moment)
 * and reconciliation cancels it as stale, so the rehearsal fails it the same way rather than fill it
 * later at a price nobody decided on.
 */
import type { Clock } from '../clock.js';
import type { SettleResult } from '../engine/executor/handler.js';
import type { IntentRow } from '../store/journal.js';
import { STALE_PRICE_MS } from '../strategies/snapshot.js';

export const REHEARSAL_REPEAT = { kind: 'repeat', reason: 'a rehearsed call changes nothing outside this database: asking again is harmless' } as const;

export function repeatUnlessStale(row: IntentRow, clock: Clock): SettleResult {
  const age = clock.now() - row.createdAt;
  if (age <= STALE_PRICE_MS) return REHEARSAL_REPEAT;
  return {
    kind: 'failed',
    code: 'STALE_INTENT',
    message: `decided ${age} ms ago and not filled; too old to act on, as live mode would cancel it`,
    data: { staleAfterMs: STALE_PRICE_MS, rehearsal: true },
  };
}
