/**
 * The `intents` row as the journal reads it: parsed with zod from what SQLite returns, so a damaged
 * row or one from a newer writer is refused with a clear error instead of being trusted by a cast.
 */
import { z } from 'zod';
import { StoreError } from './errors.js';

export const INTENT_STATES = ['planned', 'signed', 'sent', 'confirmed', 'failed', 'expired', 'cancelled'] as const;
export type IntentState = (typeof INTENT_STATES)[number];
/** States an intent never leaves: deciding or driving it again finds it done. */
export const FINAL_INTENT_STATES: ReadonlySet<IntentState> = new Set(['confirmed', 'failed', 'cancelled']);

const text = z.string();
const nullableText = z.string().nullable();
const millis = z.number().int().nonnegative();

const RawIntentRow = z.strictObject({
  id: text,
  strategy: nullableText,
  strategy_version: z.number().int().nullable(),
  rule: nullableText,
  kind: text,
  params: text,
  state: z.enum(INTENT_STATES),
  signed_tx: z.instanceof(Uint8Array).nullable(),
  signature: nullableText,
  blockhash: nullableText,
  last_valid_block_height: z.number().int().nonnegative().nullable(),
  request_id: nullableText,
  deposit_request_id: nullableText,
  cancel_request_id: nullableText,
  order_id: nullableText,
  attempts: z.number().int().nonnegative(),
  error_code: nullableText,
  error_message: nullableText,
  created_at: millis,
  updated_at: millis,
});

/** One journal row, camelCased; `params` parsed from its canonical JSON. */
export interface IntentRow {
  readonly id: string;
  readonly strategy: string | null;
  readonly strategyVersion: number | null;
  readonly rule: string | null;
  readonly kind: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly state: IntentState;
  readonly signedTx: Uint8Array | null;
  readonly signature: string | null;
  readonly blockhash: string | null;
  readonly lastValidBlockHeight: number | null;
  readonly requestId: string | null;
  readonly depositRequestId: string | null;
  readonly cancelRequestId: string | null;
  readonly orderId: string | null;
  /** Transactions signed for this intent (1 after the first signature; + 1 per new attempt after expiry). */
  readonly attempts: number;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

const Params = z.record(z.string(), z.unknown());

export function parseIntentRow(raw: unknown): IntentRow {
  const parsed = RawIntentRow.safeParse(raw);
  const id = typeof raw === 'object' && raw !== null && 'id' in raw ? String(raw.id) : '?';
  if (!parsed.success) {
    throw new StoreError(
      'STORE_INTENT_ROW_INVALID',
      `intents row ${id} does not parse: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      { details: { intentId: id } },
    );
  }
  const r = parsed.data;
  let params: unknown;
  try {
    params = JSON.parse(r.params);
  } catch (error) {
    throw new StoreError('STORE_INTENT_ROW_INVALID', `intents row ${id}: params is not JSON`, { cause: error, details: { intentId: id } });
  }
  const p = Params.safeParse(params);
  if (!p.success) throw new StoreError('STORE_INTENT_ROW_INVALID', `intents row ${id}: params is not a JSON object`, { details: { intentId: id } });
  return {
    id: r.id,
    strategy: r.strategy,
    strategyVersion: r.strategy_version,
    rule: r.rule,
    kind: r.kind,
    params: p.data,
    state: r.state,
    signedTx: r.signed_tx === null ? null : new Uint8Array(r.signed_tx),
    signature: r.signature,
    blockhash: r.blockhash,
    lastValidBlockHeight: r.last_valid_block_height,
    requestId: r.request_id,
    depositRequestId: r.deposit_request_id,
    cancelRequestId: r.cancel_request_id,
    orderId: r.order_id,
    attempts: r.attempts,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
