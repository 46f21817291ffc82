import { JupbotError } from '../errors.js';

/**
 * Why the guard refused to sign. Stable: the audit log, alerts and tests key on these.
 * Meanings are listed in docs/security.md.
 */
export const REFUSAL_REASONS = [
  'MALFORMED_TRANSACTION',
  'UNRESOLVED_LOOKUP_TABLE',
  'FEE_PAYER_MISMATCH',
  'WALLET_NOT_SIGNER',
  'UNEXPECTED_SIGNER',
  'PROGRAM_NOT_ALLOWED',
  'MEMO_ONLY_VIOLATION',
  'INSTRUCTION_NOT_ALLOWED',
  'TRANSFER_TO_STRANGER',
  'AMOUNT_EXCEEDS_INTENT',
  'AMOUNT_MISMATCH',
  'MINT_MISMATCH',
  'WITHDRAWAL_OUTFLOW',
  'OUTFLOW_NOT_ALLOWED',
  'DELEGATE_APPROVAL',
  'AUTHORITY_CHANGE',
  'CLOSE_TO_STRANGER',
  'TOKEN_BURN',
  'ACCOUNT_REASSIGN',
  'ATA_FOR_STRANGER',
  'SWAP_ACCOUNT_MISMATCH',
  'PRIORITY_FEE_EXCEEDS_CAP',
  'LOOKUP_TABLE_MISSING',
  'LOOKUP_TABLE_INVALID',
  'LOOKUP_TABLE_DEACTIVATED',
  'LOOKUP_TABLE_INDEX_OUT_OF_RANGE',
  'ROUTE_PLAN_UNDECODABLE',
  'ROUTE_DATA_MALFORMED',
  'SWAP_MODE_NOT_ALLOWED',
  'SWAP_DESTINATION_NOT_OURS',
  'PLATFORM_FEE_NOT_ALLOWED',
  'SLIPPAGE_EXCEEDS_CAP',
  'QUOTED_OUT_BELOW_MINIMUM',
  'SIGNATURE_INVALID',
  'GASLESS_FEE_EXCEEDS_DECLARED',
  'RFQ_MAKER_MISMATCH',
  'PREDICTION_LAYOUT_UNKNOWN',
  'PREDICTION_BUY_NOT_ALLOWED',
  'PREDICTION_OWNER_MISMATCH',
  'PREDICTION_POSITION_MISMATCH',
  'PREDICTION_SIDE_MISMATCH',
  'PREDICTION_CONTRACTS_EXCEED_POSITION',
  'PREDICTION_PRICE_BELOW_FLOOR',
  'PREDICTION_ORDER_ID_MISMATCH',
  'PREDICTION_FUNDS_NOT_OURS',
  'SIMULATION_UNAVAILABLE',
  'SIMULATION_ALREADY_PROCESSED',
  'SIMULATION_FAILED',
  'EFFECT_OUTFLOW_EXCEEDS_INTENT',
  'EFFECT_INFLOW_BELOW_MINIMUM',
  'EFFECT_SOL_EXCEEDS_BUDGET',
  'EFFECT_AUTHORITY_CHANGED',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * Refusals that say nothing about the transaction, only about the moment: the node could not be
 * asked, or identical bytes have just landed for another intent. Nothing was signed; the executor
 * tries again with a fresh build instead of failing the intent.
 */
export const TRANSIENT_REFUSALS: ReadonlySet<RefusalReason> = new Set(['UNRESOLVED_LOOKUP_TABLE', 'SIMULATION_UNAVAILABLE', 'SIMULATION_ALREADY_PROCESSED']);

/**
 * The guard refused a transaction: nothing was signed. `reason` is the stable cause; `details` say
 * which instruction and accounts (public data only: addresses, amounts, never a key or token).
 */
export class GuardRefusal extends JupbotError {
  override name = 'GuardRefusal';
  declare readonly code: 'GUARD_REFUSED';
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason, message: string, details: Record<string, unknown> = {}) {
    super('GUARD_REFUSED', `guard refused to sign (${reason}): ${message}`, { details: { reason, ...details } });
    this.reason = reason;
  }

  /** True when a fresh attempt may pass (see {@link TRANSIENT_REFUSALS}). */
  get transient(): boolean {
    return TRANSIENT_REFUSALS.has(this.reason);
  }
}
