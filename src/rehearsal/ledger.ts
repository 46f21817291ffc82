/**
 * The rehearsal ledger: a rehearsal signs nothing, so its balances are computed, never read from the
 * chain. Balance of a mint = its opening balance (`rehearsal_opening`, written once) + what fills
 * brought in − what fills took out − what its simulated vault orders hold still − (SOL only) the
 * network fees its confirmed intents' answers declared (`rehearsal_costs`). A simulated vault order
 * is one `trigger_orders` row per deposit (an OCO's two legs share the row), holding what it has not
 * used yet, live or expired: Trigger V2 keeps an expired order's funds in the vault until a cancel
 * withdraws them, so they come back only when the row is cancelled. Every term is a row
 * another part of the journal writes in its own transaction, so the ledger cannot drift from the
 * fills the audit shows: there is no running total to get wrong.
 */
import { z } from 'zod';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { parseRows } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';
import { LIVE_ORDER_SQL } from '../store/triggerOrders.js';
import { SOL_MINT } from '../solana/programIds.js';

/** How a prediction fill names its contract leg (predictionFills.ts `contractMint`). */
const CONTRACT_LEG_PREFIX = 'prediction:';

export interface OpeningBalance {
  readonly mint: string;
  readonly amount: bigint;
  readonly decimals: number;
}

export type OpeningSource = 'wallet' | 'config';

const Digits = z.string().regex(/^\d+$/).transform(BigInt);
const OpeningRow = z.object({
  mint: z.string(),
  amount: Digits,
  decimals: z.number().int(),
  source: z.enum(['wallet', 'config']),
  opened_at: z.number().int(),
});
const FlowRow = z.object({ mint: z.string(), amount: Digits, decimals: z.number().int(), sign: z.number().int() });

/** The opening balances, or null when the ledger has not been opened yet. */
export function readOpening(db: Db): { readonly source: OpeningSource; readonly openedAt: number; readonly balances: readonly OpeningBalance[] } | null {
  const rows = parseRows(
    OpeningRow,
    statement(db, 'SELECT mint, amount, decimals, source, opened_at FROM rehearsal_opening ORDER BY mint').all(),
    'rehearsal_opening',
  );
  const first = rows[0];
  if (first === undefined) return null;
  return { source: first.source, openedAt: first.opened_at, balances: rows.map((r) => ({ mint: r.mint, amount: r.amount, decimals: r.decimals })) };
}

/**
 * Writes the opening balances, once: a ledger already opened keeps its own (a restart continues the
 * rehearsal). Audited as `rehearsal.opened`. True when this call opened it.
 */
export function recordOpening(db: Db, audit: AuditLog, source: OpeningSource, balances: readonly OpeningBalance[], now: number): boolean {
  return db.transaction(() => {
    if (readOpening(db) !== null) return false;
    // An empty wallet still opens the ledger: SOL at zero says "opened, with nothing".
    const rows = balances.length === 0 ? [{ mint: SOL_MINT, amount: 0n, decimals: 9 }] : balances;
    const insert = statement(db, 'INSERT INTO rehearsal_opening (mint, amount, decimals, source, opened_at) VALUES (?, ?, ?, ?, ?)');
    for (const b of rows) insert.run(b.mint, b.amount.toString(), b.decimals, source, now);
    audit.append({
      kind: 'rehearsal.opened',
      data: { source, balances: rows.map((b) => ({ mint: b.mint, amount: b.amount.toString(), decimals: b.decimals })) },
    });
    return true;
  })();
}

/**
 * The network fees (lamports) a rehearsed intent's answer declared. Replaces an earlier row of the
 * same intent (its retried call); counted only once the intent is confirmed.
 */
export function recordCost(db: Db, intentId: string, lamports: bigint, now: number): void {
  statement(db, 'INSERT OR REPLACE INTO rehearsal_costs (intent_id, lamports, recorded_at) VALUES (?, ?, ?)').run(intentId, lamports.toString(), now);
}

/** Every term of the ledger as (mint, amount, sign) rows: one read, one consistent snapshot. */
const FLOWS = `
  SELECT mint, amount, decimals, 1 AS sign FROM rehearsal_opening
  UNION ALL SELECT out_mint, out_amount, out_decimals, 1 FROM fills
  UNION ALL SELECT in_mint, in_amount, in_decimals, -1 FROM fills
  UNION ALL SELECT ?, c.lamports, 9, -1 FROM rehearsal_costs c JOIN intents i ON i.id = c.intent_id WHERE i.state = 'confirmed'
  UNION ALL SELECT input_mint, COALESCE(remaining_input_amount, input_amount), input_decimals, -1 FROM trigger_orders
    WHERE intent_id IS NOT NULL AND state IN (${LIVE_ORDER_SQL}, 'expired')`;

/** The ledger's balances by mint (base units), as the strategies see them in a rehearsal. */
export function ledgerBalances(db: Db): Map<string, bigint> {
  return ledgerReading(db).byMint;
}

/**
 * The ledger's balances and each mint's decimals, in one read: every term's row names its mint's
 * decimals, so the reading can be recorded in whole tokens like a read of the chain.
 */
export function ledgerReading(db: Db): { byMint: Map<string, bigint>; decimals: Map<string, number> } {
  const byMint = new Map<string, bigint>();
  const decimals = new Map<string, number>();
  for (const row of parseRows(FlowRow, statement(db, FLOWS).all(SOL_MINT), 'rehearsal ledger')) {
    // A prediction fill's contract leg is no token of the wallet (live balances never show one): the
    // positions overlay (positionsOverlay.ts) counts contracts, the ledger only the USDC they brought.
    if (row.mint.startsWith(CONTRACT_LEG_PREFIX)) continue;
    byMint.set(row.mint, (byMint.get(row.mint) ?? 0n) + (row.sign > 0 ? row.amount : -row.amount));
    decimals.set(row.mint, row.decimals);
  }
  return { byMint, decimals };
}

/** The network fees the confirmed rehearsed intents would have paid, in lamports. */
export function totalCosts(db: Db): bigint {
  const rows = statement(db, "SELECT c.lamports FROM rehearsal_costs c JOIN intents i ON i.id = c.intent_id WHERE i.state = 'confirmed'").all() as {
    lamports: string;
  }[];
  return rows.reduce((sum, r) => sum + BigInt(r.lamports), 0n);
}
