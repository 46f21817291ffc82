import { type CodeOf, codesOf, ERROR_CATALOGUE } from '../errorCatalogue.js';
import { JupbotError } from '../errors.js';

/**
 * Why the guard refused to sign: the `guard` area of the error catalogue (errorCatalogue.ts), where
 * each reason is explained. Stable: the audit log, alerts and tests key on these.
 */
export type RefusalReason = CodeOf<'guard'>;

export const REFUSAL_REASONS: readonly RefusalReason[] = codesOf('guard');

/**
 * Refusals that say nothing about the transaction, only about the moment: the node could not be
 * asked, or identical bytes have just landed for another intent. Nothing was signed; the executor
 * tries again with a fresh build instead of failing the intent.
 */
export const TRANSIENT_REFUSALS: ReadonlySet<RefusalReason> = new Set(REFUSAL_REASONS.filter((reason) => ERROR_CATALOGUE[reason].retry === 'automatic'));

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
