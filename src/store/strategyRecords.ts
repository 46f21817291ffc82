/**
 * What the journal and the order mirror hold for one strategy, as the decide loop reads them on
 * every tick (through the per-connection statement cache: these run for every strategy each time).
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { type IntentRow, parseIntentRow } from './intentRow.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

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
 * failed): they no longer protect anything. DCA orders are not included: one that ended was
 * completed or deliberately cancelled.
 */
export function endedVaultIntents(db: Db, strategy: string): Set<string> {
  const rows = statement(
    db,
    `SELECT intent_id FROM trigger_orders WHERE strategy = ? AND family = 'price' AND intent_id IS NOT NULL AND adopted = 0
     GROUP BY intent_id HAVING sum(state IN ('cancelled', 'expired', 'failed')) = count(*)`,
  ).all(strategy);
  return new Set(parseRows(IntentIdRow, rows, 'ended vault intents').map((r) => r.intent_id));
}
