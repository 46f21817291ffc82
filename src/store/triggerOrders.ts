/**
 * The `trigger_orders` mirror: what Trigger V2 last said about the vault orders of our wallet, price
 * orders (`family: price`) and DCA orders (`family: dca`). Written from history items; a history item
 * is the truth, so a re-read overwrites the state — except that a final state we learned (a confirmed
 * cancel) is never undone by a read that lags behind it.
 *
 * Orders this daemon placed carry their intent; orders history shows that no intent of ours funded
 * are adopted (`adopted = 1`, no intent, no strategy): recorded and followed, never acted on.
 */
import { statement } from './statementCache.js';
import { z } from 'zod';
import type { AuditLog } from './audit.js';
import type { Db } from './db.js';
import { type FillInput, recordFill } from './fills.js';
import { parseOptionalRow, parseRows } from './parseRows.js';

/** Every state the mirror knows; anything else is stored as `unknown`. */
export const MIRROR_STATES: ReadonlySet<string> = new Set([
  'pending',
  'open',
  'active',
  'executing',
  'filled',
  'completed',
  'pending_withdraw',
  'cancelled',
  'expired',
  'failed',
  'gone',
]);
/**
 * States an order does not leave. `gone`: the Trigger API no longer knows the order (mirror/vanishedOrders.ts);
 * only a final state read from history replaces it.
 */
export const FINAL_ORDER_STATES = ['filled', 'completed', 'cancelled', 'expired', 'failed', 'gone'] as const;
const FINAL_SQL = FINAL_ORDER_STATES.map((s) => `'${s}'`).join(', ');
/** States in which an order may still fill or hold funds (`unknown`: not yet read back). */
export const LIVE_ORDER_STATES = ['pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown'] as const;
/** {@link LIVE_ORDER_STATES} as SQL literals (written into statements so partial indexes apply). */
export const LIVE_ORDER_SQL = LIVE_ORDER_STATES.map((s) => `'${s}'`).join(', ');

export type OrderFamily = 'price' | 'dca';

export interface MirroredOrder {
  readonly id: string;
  readonly intentId: string | null;
  readonly strategy: string | null;
  readonly adopted: boolean;
  readonly family: OrderFamily;
  readonly orderType: string;
  readonly state: string;
  readonly inputMint: string;
  readonly inputDecimals: number;
  readonly outputMint: string;
  readonly outputDecimals: number;
  readonly depositSignature: string | null;
  /** When the order was created: history's `createdAt` (the server's clock), else when it was first mirrored. */
  readonly createdAt: number;
}

export interface MirrorInput {
  /** The intent that placed it; null for an adopted order. */
  readonly intentId: string | null;
  readonly strategy: string | null;
  readonly inputDecimals: number;
  readonly outputDecimals: number;
  /** Known from our own create call even when the item does not carry it (an OCO's stop-loss leg). */
  readonly depositSignature: string | null;
  /** Found in history, funded by no intent of ours. Set on insert only. @default false */
  readonly adopted?: boolean;
}

/** The columns one history item gives, whatever its family. */
export interface OrderColumns {
  readonly id: string;
  readonly family: OrderFamily;
  readonly orderType: string;
  readonly state: string;
  readonly rawState: string | null;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inputAmount: string;
  readonly remaining: string | null;
  readonly inputUsed: string | null;
  readonly outputAmount: string | null;
  readonly triggerMint: string | null;
  readonly condition: string | null;
  readonly triggerPriceUsd: string | null;
  readonly slippageBps: number | null;
  readonly trailingBps: number | null;
  readonly expiresAt: number | null;
  readonly depositSignature: string | null;
  readonly raw: string;
  readonly createdAt: number | null;
  readonly updatedAt: number | null;
}

const SELECT = `SELECT id, intent_id AS intentId, strategy, adopted, family, order_type AS orderType, state, input_mint AS inputMint, input_decimals AS inputDecimals,
                       output_mint AS outputMint, output_decimals AS outputDecimals, deposit_signature AS depositSignature, created_at AS createdAt
                FROM trigger_orders`;

const OrderRow = z.object({
  id: z.string(),
  intentId: z.string().nullable(),
  strategy: z.string().nullable(),
  adopted: z.union([z.literal(0), z.literal(1)]),
  family: z.enum(['price', 'dca']),
  orderType: z.string(),
  state: z.string(),
  inputMint: z.string(),
  inputDecimals: z.number().int(),
  outputMint: z.string(),
  outputDecimals: z.number().int(),
  depositSignature: z.string().nullable(),
  createdAt: z.number().int(),
});
const Holding = z.object({ inputAmount: z.string(), remaining: z.string().nullable(), rawState: z.string().nullable(), lastSyncedAt: z.number().int() });
const StoredRaw = z.object({ state: z.string(), raw: z.string(), deposit_signature: z.string().nullable() });
const IntentRef = z.object({ id: z.string(), strategy: z.string().nullable() });
const toOrder = (row: z.output<typeof OrderRow>): MirroredOrder => ({ ...row, adopted: row.adopted === 1 });

/**
 * The `mirror.order` action that seals an order's row as just written (see rowSeal.ts): call it in
 * the transaction of every write to `trigger_orders`.
 */
export function sealOrderRow(db: Db, audit: AuditLog, id: string): void {
  const row = parseOptionalRow(StoredRaw, statement(db, 'SELECT state, raw, deposit_signature FROM trigger_orders WHERE id = ?').get(id), 'mirrored order');
  audit.append({ kind: 'mirror.order', data: { orderId: id, state: row?.state ?? null }, seal: [{ table: 'trigger_orders', key: id }] });
}

export class TriggerOrders {
  readonly #db: Db;
  /** Ended orders a history pass took in completely, by their API object: the past page of every read is mostly these. */
  readonly #syncedEnded = new Map<string, string>();
  readonly #known = new Set<string>();

  readonly #audit: AuditLog;

  /** Every write of a row is sealed by a `mirror.order` action through `audit`, in the same transaction. */
  constructor(db: Db, audit: AuditLog) {
    this.#db = db;
    this.#audit = audit;
  }

  #seal(id: string): void {
    sealOrderRow(this.#db, this.#audit, id);
  }

  /** Is `id` mirrored? (An order is never removed from the mirror, so a yes is remembered.) */
  has(id: string): boolean {
    if (this.#known.has(id)) return true;
    const found = statement(this.#db, 'SELECT 1 FROM trigger_orders WHERE id = ?').get(id) !== undefined;
    if (found) this.#known.add(id);
    return found;
  }

  get(id: string): MirroredOrder | undefined {
    const row = parseOptionalRow(OrderRow, statement(this.#db, `${SELECT} WHERE id = ?`).get(id), 'mirrored order');
    return row && toOrder(row);
  }

  /** What the mirror last read of an order's funds: the amount deposited, what history said remains, and when it was last read. */
  holding(id: string): z.output<typeof Holding> | undefined {
    return parseOptionalRow(
      Holding,
      statement(
        this.#db,
        'SELECT input_amount AS inputAmount, remaining_input_amount AS remaining, raw_state AS rawState, last_synced_at AS lastSyncedAt FROM trigger_orders WHERE id = ?',
      ).get(id),
      'mirrored order holding',
    );
  }

  /** Orders of ours (not adopted) that may still change (not filled, completed, cancelled, expired or failed). */
  live(): MirroredOrder[] {
    const rows = statement(this.#db, `${SELECT} WHERE state IN (${LIVE_ORDER_SQL}) AND adopted = 0 ORDER BY created_at, id`).all();
    return parseRows(OrderRow, rows, 'live mirrored orders').map(toOrder);
  }

  /**
   * The intent whose journaled signature is `signature` (a deposit we signed), if any. The write-ahead
   * rule journals a deposit's signature before the create call, so an order our deposit funded is
   * always traceable to its intent here, however the create answer was lost.
   */
  intentBySignature(signature: string): { readonly id: string; readonly strategy: string | null } | undefined {
    return parseOptionalRow(IntentRef, statement(this.#db, 'SELECT id, strategy FROM intents WHERE signature = ?').get(signature), 'intent by signature');
  }

  /** Runs `fn` in one SQLite transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }

  /**
   * Did a history pass of this process already take in `id` as it stands now — ended, with exactly
   * this API object — fills included? Then reading it again has nothing new. Only a completed pass
   * counts (see {@link syncedEnded}): a row written elsewhere (a handler mirroring the order it
   * placed) may hold an ended state whose fills no pass has recorded yet.
   */
  alreadySynced(id: string, raw: string): boolean {
    return this.#syncedEnded.get(id) === raw;
  }

  /** Called by a history pass once it committed an ended order and its fills. */
  syncedEnded(id: string, raw: string): void {
    this.#syncedEnded.set(id, raw);
  }

  /** Sets a state we learned ourselves: a confirmed cancel (before history shows it), or `gone` (history stopped listing it). */
  setState(id: string, state: 'cancelled' | 'gone', now: number): void {
    this.transaction(() => {
      if (statement(this.#db, 'UPDATE trigger_orders SET state = ?, updated_at = ?, last_synced_at = ? WHERE id = ?').run(state, now, now, id).changes === 1)
        this.#seal(id);
    });
    this.#syncedEnded.delete(id);
  }

  /** Inserts or refreshes the mirror of one order (its history item's columns); returns whether it was new. */
  upsert(columns: OrderColumns, input: MirrorInput, now: number): boolean {
    return this.transaction(() => this.#write(columns, input, now));
  }

  /**
   * Fills of an adopted order (no intent): each (signature, idx) inserted at most once, and a `fill`
   * action for each new one, in one transaction. Returns how many were new.
   */
  recordOrderFills(order: MirroredOrder, fills: readonly FillInput[], audit: AuditLog, now: number): number {
    return this.transaction(() => {
      let added = 0;
      for (const fill of fills) {
        if (recordFill(this.#db, audit, fill, { intentId: null, strategy: order.strategy }, now, { orderId: order.id, adopted: order.adopted })) added += 1;
      }
      return added;
    });
  }

  #write(c: OrderColumns, input: MirrorInput, now: number): boolean {
    const stored = parseOptionalRow(
      StoredRaw,
      statement(this.#db, 'SELECT state, raw, deposit_signature FROM trigger_orders WHERE id = ?').get(c.id),
      'mirrored order',
    );
    // An order the API reports exactly as last time is not written again: every poll would otherwise
    // rewrite every order in the history (a long run's history only grows).
    const deposit = c.depositSignature ?? input.depositSignature;
    if (stored !== undefined && stored.raw === c.raw && stored.state === c.state && (stored.deposit_signature !== null || deposit === null)) return false;
    const existed = stored !== undefined;
    this.#syncedEnded.delete(c.id);
    statement(
      this.#db,
      `INSERT INTO trigger_orders (id, intent_id, strategy, adopted, family, order_type, state, raw_state, input_mint, input_decimals, output_mint,
                                     output_decimals, input_amount, remaining_input_amount, input_used, output_amount, trigger_mint, trigger_condition,
                                     trigger_price_usd, slippage_bps, trailing_bps, expires_at, deposit_signature, raw, created_at, updated_at,
                                     first_seen_at, last_synced_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           state = CASE WHEN trigger_orders.state IN (${FINAL_SQL}) AND excluded.state NOT IN (${FINAL_SQL}) THEN trigger_orders.state ELSE excluded.state END,
           raw_state = excluded.raw_state, remaining_input_amount = excluded.remaining_input_amount, input_used = excluded.input_used,
           output_amount = excluded.output_amount, trigger_price_usd = excluded.trigger_price_usd,
           deposit_signature = COALESCE(trigger_orders.deposit_signature, excluded.deposit_signature),
           raw = excluded.raw, updated_at = excluded.updated_at, last_synced_at = excluded.last_synced_at`,
    ).run(
      c.id,
      input.intentId,
      input.strategy,
      input.adopted === true ? 1 : 0,
      c.family,
      c.orderType,
      c.state,
      c.rawState,
      c.inputMint,
      input.inputDecimals,
      c.outputMint,
      input.outputDecimals,
      c.inputAmount,
      c.remaining,
      c.inputUsed,
      c.outputAmount,
      c.triggerMint,
      c.condition,
      c.triggerPriceUsd,
      c.slippageBps,
      c.trailingBps,
      c.expiresAt,
      c.depositSignature ?? input.depositSignature,
      c.raw,
      c.createdAt ?? now,
      c.updatedAt ?? now,
      now,
      now,
    );
    this.#seal(c.id);
    return !existed;
  }
}
