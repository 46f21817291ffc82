/**
 * The vault and DCA orders of ours a control action may cancel: orders we placed (an OCO's two legs
 * share one deposit and one placing intent, so only the leg the intent recorded is listed, as the
 * decide loop lists them), that may still fill, and that no withdrawal of ours (a cancel or a
 * renewal) is already working on or has done. An order being withdrawn (`pending_withdraw`) is left
 * out: its funds are on their way back, or, when every withdrawal of it failed, the engine's
 * stranded withdrawals bring them back (executor/strandedWithdrawals.ts). So no order is ever asked
 * to cancel twice.
 *
 * Also what is left, for a command that waits until nothing of ours is live: live orders (the same
 * states, `pending_withdraw` included) and placements journaled but not finished.
 */
import { z } from 'zod';
import type { Db } from '../store/db.js';
import { parseRow, parseRows } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';
import { readSinceJournalChange } from '../store/tableVersions.js';

const CANCELLABLE_STATES = "'pending', 'open', 'active', 'executing', 'unknown'";
const LIVE_STATES = `${CANCELLABLE_STATES}, 'pending_withdraw'`;

const CancellableRow = z.object({
  id: z.string(),
  strategy: z.string(),
  family: z.enum(['price', 'dca']),
  state: z.string(),
  intent_id: z.string(),
  input_mint: z.string(),
  remaining: z.string(),
});
export type CancellableOrder = z.output<typeof CancellableRow>;

/** Our orders that may still fill with no withdrawal of ours on the way, oldest first. */
export function cancellableOrders(db: Db): CancellableOrder[] {
  const sql = `
  SELECT o.id, o.strategy, o.family, o.state, o.intent_id, o.input_mint, coalesce(o.remaining_input_amount, o.input_amount) AS remaining
  FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
  WHERE o.adopted = 0 AND o.strategy IS NOT NULL AND o.state IN (${CANCELLABLE_STATES})
    AND NOT EXISTS (
      SELECT 1 FROM intents c
      WHERE c.kind IN ('cancel-vault-order', 'renew-vault-order') AND json_extract(c.params, '$.orderId') = o.id
        AND c.state NOT IN ('failed', 'cancelled'))
  ORDER BY o.created_at, o.id`;
  // Asked at every tick; the answer changes only with the journal or the mirror.
  return readSinceJournalChange(db, 'cancellable vault orders', () => parseRows(CancellableRow, statement(db, sql).all(), 'cancellable vault orders'));
}

/** What of ours is still live: vault and DCA orders that may fill or are being withdrawn, and placements on their way. */
export interface LiveLeft {
  readonly orders: number;
  readonly placements: number;
  /** Cancels journaled and not finished. */
  readonly cancels: number;
}

const Count = z.object({ n: z.number().int() });

export function liveLeft(db: Db): LiveLeft {
  const count = (sql: string): number => parseRow(Count, db.prepare(sql).get(), 'live orders left').n;
  return {
    orders: count(`
      SELECT count(*) AS n FROM trigger_orders o JOIN intents i ON i.id = o.intent_id AND i.order_id = o.id
      WHERE o.adopted = 0 AND o.strategy IS NOT NULL AND o.state IN (${LIVE_STATES})`),
    placements: count(`
      SELECT count(*) AS n FROM intents
      WHERE state IN ('planned', 'signed', 'sent') AND kind IN ('place-vault-order', 'place-dca-vault-order', 'renew-vault-order')`),
    cancels: count(`SELECT count(*) AS n FROM intents WHERE state IN ('planned', 'signed', 'sent') AND kind = 'cancel-vault-order'`),
  };
}

/**
 * The positions a strategy is selling now: a `sell-position` or `partial-sell` journaled and not
 * final. The operator's own sales (`operator`) are left out: asking for one again under its id is
 * the journal's no-op, while a second sale beside a strategy's could sell what is already sold.
 */
export function positionsSelling(db: Db, operator: string): ReadonlySet<string> {
  const sql = `
  SELECT DISTINCT json_extract(params, '$.positionPubkey') AS pubkey FROM intents
  WHERE kind IN ('sell-position', 'partial-sell') AND state NOT IN ('confirmed', 'failed', 'cancelled')
    AND coalesce(strategy, '') <> ? AND json_extract(params, '$.positionPubkey') IS NOT NULL`;
  return readSinceJournalChange(db, `positions being sold (not by ${operator})`, () => {
    const rows = parseRows(z.object({ pubkey: z.string() }), statement(db, sql).all(operator), 'positions being sold');
    return new Set(rows.map((r) => r.pubkey));
  });
}
