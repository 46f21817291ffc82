/**
 * Inserting into `fills`: the natural key (signature, idx) is unique and the insert is
 * `ON CONFLICT DO NOTHING`, so a replayed reconcile or a restart can never count a fill twice
 * so a fill can never be counted twice. Only a new row gets its `fill` action.
 */
import { statement } from './statementCache.js';
import type { AuditLog } from './audit.js';
import type { Db } from './db.js';

export interface FillInput {
  readonly signature: string;
  /** Instruction or event index within the transaction (0 for a single-leg swap). */
  readonly idx: number;
  readonly source: 'swap' | 'trigger' | 'dca' | 'prediction';
  readonly inMint: string;
  readonly inAmount: bigint | string;
  readonly inDecimals: number;
  readonly outMint: string;
  readonly outAmount: bigint | string;
  readonly outDecimals: number;
  readonly fee?: { readonly mint: string; readonly amount: bigint | string; readonly decimals: number } | null | undefined;
  /** The source event (execute answer, history event), canonical JSON. */
  readonly raw?: string | null | undefined;
  /** When the fill happened (block time or event time), epoch ms. */
  readonly at: number;
  /** The Trigger V2 order that filled (`trigger_orders.id`), for vault fills. */
  readonly triggerOrderId?: string | null | undefined;
}

/** Inserts one fill; its row id when it was new, undefined when (signature, idx) was already there. */
export function insertFill(
  db: Db,
  fill: FillInput & { intentId?: string | null; strategy?: string | null; triggerOrderId?: string | null | undefined; positionPubkey?: string | null },
  recordedAt: number,
): number | undefined {
  const result = statement(
    db,
    `INSERT INTO fills (signature, idx, source, strategy, intent_id, trigger_order_id, position_pubkey, in_mint, in_amount, in_decimals,
                          out_mint, out_amount, out_decimals, fee_mint, fee_amount, fee_decimals, raw, at, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (signature, idx) DO NOTHING`,
  ).run(
    fill.signature,
    fill.idx,
    fill.source,
    fill.strategy ?? null,
    fill.intentId ?? null,
    fill.triggerOrderId ?? null,
    fill.positionPubkey ?? null,
    fill.inMint,
    String(fill.inAmount),
    fill.inDecimals,
    fill.outMint,
    String(fill.outAmount),
    fill.outDecimals,
    fill.fee?.mint ?? null,
    fill.fee === null || fill.fee === undefined ? null : String(fill.fee.amount),
    fill.fee?.decimals ?? null,
    fill.raw ?? null,
    fill.at,
    recordedAt,
  );
  return result.changes === 1 ? Number(result.lastInsertRowid) : undefined;
}

/**
 * Inserts one fill and, when it is new, its `fill` action (the output leg as the action's amount,
 * both legs and the fee in its data, plus `extra`). Call inside the caller's transaction so the row
 * and its action commit together. True when it was new.
 */
export function recordFill(
  db: Db,
  audit: AuditLog,
  fill: FillInput & { positionPubkey?: string | null },
  owner: { readonly intentId: string | null; readonly strategy: string | null },
  recordedAt: number,
  extra: Record<string, unknown> = {},
): boolean {
  const id = insertFill(db, { ...fill, ...owner }, recordedAt);
  if (id === undefined) return false;
  audit.append({
    kind: 'fill',
    strategy: owner.strategy,
    intentId: owner.intentId,
    mint: fill.outMint,
    amount: fill.outAmount,
    decimals: fill.outDecimals,
    signature: fill.signature,
    data: {
      idx: fill.idx,
      source: fill.source,
      ...extra,
      in: { mint: fill.inMint, amount: fill.inAmount, decimals: fill.inDecimals },
      out: { mint: fill.outMint, amount: fill.outAmount, decimals: fill.outDecimals },
      fee: fill.fee ?? null,
    },
    seal: [{ table: 'fills', key: id }],
  });
  return true;
}
