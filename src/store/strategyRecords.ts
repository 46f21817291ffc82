/**
 * What the journal and the order mirror hold for one strategy, as the decide loop reads them on
 * every tick. Read through {@link strategyRecords}, the three are reused until this connection
 * writes to `intents` or `trigger_orders` again (tableVersions.ts): a strategy with a long history
 * would otherwise be read and parsed in full on every tick.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { type IntentRow, parseIntentRow } from './intentRow.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';
import { readSinceJournalChange } from './tableVersions.js';

const IntentIdRow = z.object({ intent_id: z.string() });

/** Every intent of `strategy`, oldest first. */
export function strategyRows(db: Db, strategy: string): IntentRow[] {
  return statement(db, 'SELECT * FROM intents WHERE strategy = ? ORDER BY created_at, id').all(strategy).map(parseIntentRow);
}

/** The placing intents of `strategy` whose vault order (either leg of an OCO) has filled. */
export function filledVaultIntents(db: Db, strategy: string): Set<string> {
  const rows = statement(
    db,
    "SELECT DISTINCT intent_id FROM trigger_orders WHERE strategy = ? AND state IN ('filled', 'completed') AND intent_id IS NOT NULL",
  ).all(strategy);
  return new Set(parseRows(IntentIdRow, rows, 'filled vault intents').map((r) => r.intent_id));
}

/**
 * The price-order placements of `strategy` whose every order ended unfilled (expired, cancelled,
 * failed, or gone: the Trigger API no longer knows it): they no longer protect anything. DCA orders are not included: one that ended was
 * completed or deliberately cancelled.
 */
export function endedVaultIntents(db: Db, strategy: string): Set<string> {
  const rows = statement(
    db,
    `SELECT intent_id FROM trigger_orders WHERE strategy = ? AND family = 'price' AND intent_id IS NOT NULL AND adopted = 0
     GROUP BY intent_id HAVING sum(state IN ('cancelled', 'expired', 'failed', 'gone')) = count(*)`,
  ).all(strategy);
  return new Set(parseRows(IntentIdRow, rows, 'ended vault intents').map((r) => r.intent_id));
}

export interface StrategyRecords {
  readonly rows: readonly IntentRow[];
  readonly filled: ReadonlySet<string>;
  readonly ended: ReadonlySet<string>;
}

/** {@link strategyRows}, {@link filledVaultIntents} and {@link endedVaultIntents} of `strategy`, read again only after a write. */
export function strategyRecords(db: Db, strategy: string): StrategyRecords {
  return readSinceJournalChange(db, `strategy:${strategy}`, () => ({
    rows: strategyRows(db, strategy),
    filled: filledVaultIntents(db, strategy),
    ended: endedVaultIntents(db, strategy),
  }));
}
