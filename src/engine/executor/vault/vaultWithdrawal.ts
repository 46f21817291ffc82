/**
 * The withdrawal of one vault order through Trigger V2's two cancel steps, for price orders and DCA
 * orders alike (only the routes differ): step 1 (`POST /orders/price/cancel/{id}` or
 * `/orders/dca/cancel/{id}`) answers an unsigned withdrawal and its `requestId`; both are journaled,
 * the withdrawal is guarded as a `vault-withdrawal` from our vault and signed, the signed bytes
 * journaled (the executor), then step 2 (`confirm-cancel`) carries them.
 *
 * Two journal kinds withdraw an order: `cancel-vault-order` (cancelVaultOrder.ts) and
 * `renew-vault-order` (renewVaultOrder.ts, which then places the replacement). Each reads its own
 * params and hands the order to withdraw here, so both run exactly the same steps.
 *
 * Resuming after a crash: before the signature is journaled, step 1 is simply asked again (a new cancel
 * call re-crafts and supersedes the old withdrawal: nothing was signed or sent); after it, the same
 * signed withdrawal and `cancelRequestId` go to confirm-cancel again, which Trigger documents as retry-safe.
 * "Not yet ready to cancel" (a price order just created, a DCA order still depositing) is
 * a 400 from step 1: the intent stays planned and is tried again on a later pass, not failed.
 *
 * An adopted order (placed elsewhere) is never withdrawn: the intent fails `VAULT_ORDER_ADOPTED`.
 *
 * An order the Trigger API no longer knows is not asked about forever. One the mirror marked `gone`
 * (mirror/vanishedOrders.ts) fails `VAULT_ORDER_GONE` before any call. Step 1 answering 404 leaves
 * the intent planned (`intent.error`, `VAULT_ORDER_NOT_FOUND`) and backs off — the next try not
 * before 30 s, then 60 s, counted from the journal so a restart keeps the count — and the
 * {@link NOT_FOUND_LIMIT}th 404 fails it `VAULT_ORDER_GONE`.
 */
import { formatDuration } from '../../../config/duration.js';
import { errorMessage, JupbotError } from '../../../errors.js';
import { TriggerApiError } from '../../../jupiter/errors.js';
import { type CallOptions, Priority } from '../../../jupiter/transport.js';
import { cancelPriceOrder, confirmCancelPriceOrder } from '../../../jupiter/trigger.js';
import type { IntentRow, SignedRecord } from '../../../store/journal.js';
import { type CancelSteps, dcaCancelSteps } from '../dca/dcaCancelSteps.js';
import { IntentRefusedError } from '../errors.js';
import type { HandlerContext, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { submitOutcome } from '../submitOutcome.js';
import { ensureVault } from './vaultAccount.js';
import { signedRecord } from './vaultDeposit.js';
import type { VaultHandlerOptions } from './vaultHandlerOptions.js';

/** The order a row withdraws, as its kind's params name it. */
export interface WithdrawalTarget {
  readonly orderId: string;
  /** Price and DCA orders have different cancel routes; both are two steps. */
  readonly family: 'price' | 'dca';
}

/** The steps of a signing handler, given the order each row withdraws. */
export interface VaultWithdrawal {
  notBefore(row: IntentRow): number | null;
  prepare(row: IntentRow, target: WithdrawalTarget, context: HandlerContext): Promise<SignedRecord>;
  submit(row: SignedRow, target: WithdrawalTarget, mode: 'first' | 'resend'): Promise<SubmitResult>;
  landed(row: SignedRow, target: WithdrawalTarget): LandedReport;
}

/** The two steps of one family's cancel: DCA orders have their own routes (dca/), price orders these. */
function steps(target: WithdrawalTarget, authed: VaultHandlerOptions['authed']): CancelSteps {
  if (target.family === 'dca') return dcaCancelSteps(authed, target.orderId);
  const call: CallOptions = { priority: Priority.Exit };
  const { orderId } = target;
  return {
    request: (signal) => cancelPriceOrder(authed, { orderId }, { ...call, signal }),
    confirm: (cancelRequestId, signedTransaction) => confirmCancelPriceOrder(authed, { orderId, cancelRequestId, signedTransaction }, call),
  };
}

/** Mirrored states in which an order holds nothing a cancel could withdraw. */
const NOTHING_LEFT = new Set(['filled', 'completed', 'cancelled']);

/** 404s from a cancel's step 1 before the intent fails `VAULT_ORDER_GONE`. */
export const NOT_FOUND_LIMIT = 3;
/** The wait after the first 404; it doubles after each further one. */
export const NOT_FOUND_BACKOFF_MS = 30_000;
const NOT_FOUND = 'VAULT_ORDER_NOT_FOUND';

/** The wait after the `count`th 404 (1-based). */
export function notFoundBackoff(count: number): number {
  return NOT_FOUND_BACKOFF_MS * 2 ** (count - 1);
}

export function createVaultWithdrawal(options: Omit<VaultHandlerOptions, 'decimalsOf'>): VaultWithdrawal {
  const { authed, rpc, signer, journal, orders, clock } = options;
  /** Step 1's 404s per intent: read from the journal once per process, then kept here. */
  const notFound = new Map<string, { count: number; lastAt: number | null }>();
  const notFoundOf = (id: string): { count: number; lastAt: number | null } => {
    let seen = notFound.get(id);
    if (seen === undefined) notFound.set(id, (seen = { ...journal.codeCount(id, 'intent.error', NOT_FOUND) }));
    return seen;
  };

  /** Step 1 of the cancel; a 404 is counted, and the last one allowed fails the intent. */
  async function request(row: IntentRow, target: WithdrawalTarget, signal: AbortSignal): ReturnType<CancelSteps['request']> {
    try {
      return await steps(target, authed).request(signal);
    } catch (error) {
      if (!(error instanceof TriggerApiError) || error.status !== 404) throw error;
      const count = notFoundOf(row.id).count + 1;
      notFound.set(row.id, { count, lastAt: clock.now() });
      const { orderId } = target;
      if (count >= NOT_FOUND_LIMIT)
        throw new IntentRefusedError(
          'VAULT_ORDER_GONE',
          `order ${orderId}: the Trigger API answered 404 to ${count} cancel requests, it no longer knows the order: nothing to withdraw through it, not asked again`,
          { orderId, family: target.family, notFound: count, answer: errorMessage(error) },
        );
      throw new JupbotError(
        NOT_FOUND,
        `order ${orderId}: the Trigger API answered 404 to the cancel (${count} of ${NOT_FOUND_LIMIT}): asked again in ${formatDuration(notFoundBackoff(count))}`,
        { cause: error, details: { orderId, notFound: count } },
      );
    }
  }

  /** The withdrawal is through: mirror it and write `order.cancelled` (the intent's confirmation follows). */
  function cancelled(row: IntentRow, target: WithdrawalTarget, data: Record<string, unknown>): Record<string, unknown> {
    const summary = { orderId: target.orderId, family: target.family, cancelRequestId: row.cancelRequestId, withdrawalSignature: row.signature, ...data };
    const mirrored = orders.get(target.orderId);
    if (mirrored?.state !== 'cancelled') {
      orders.transaction(() => {
        if (mirrored) orders.setState(target.orderId, 'cancelled', clock.now());
        journal.note(row.id, 'order.cancelled', { ...summary, via: 'cancel' });
      });
    }
    return summary;
  }

  return {
    notBefore(row) {
      const { count, lastAt } = notFoundOf(row.id);
      return count === 0 || lastAt === null ? null : lastAt + notFoundBackoff(count);
    },

    async prepare(row, target, context): Promise<SignedRecord> {
      const { orderId, family } = target;
      const mirrored = orders.get(orderId);
      if (mirrored?.adopted === true)
        throw new IntentRefusedError('VAULT_ORDER_ADOPTED', `order ${orderId} was adopted (not placed by this daemon): it is never cancelled`, { orderId });
      if (mirrored?.state === 'gone')
        throw new IntentRefusedError('VAULT_ORDER_GONE', `order ${orderId} is gone (the Trigger API no longer knows it): nothing to cancel through it`, {
          orderId,
          state: 'gone',
        });
      // Filled, completed or already cancelled: nothing left in the vault to withdraw. Trigger refuses
      // the cancel (400), and retrying it every pass would never end. An expired order is withdrawn.
      if (mirrored !== undefined && NOTHING_LEFT.has(mirrored.state)) {
        throw new IntentRefusedError('VAULT_ORDER_NOT_OPEN', `order ${orderId} is ${mirrored.state}: nothing left to cancel`, {
          orderId,
          state: mirrored.state,
        });
      }
      const vault = await ensureVault(authed, context.signal);
      const cancel = await request(row, target, context.signal);
      // Journaled before signing: the id that confirm-cancel needs and the exact bytes offered.
      const extra = cancel.refundAmount === undefined ? {} : { refundAmount: cancel.refundAmount, roundsRemaining: cancel.roundsRemaining };
      journal.recordTriggerIds(row.id, { cancelRequestId: cancel.requestId, orderId }, 'cancel.requested', {
        family,
        transaction: cancel.transaction,
        ...extra,
      });
      const signed = await signer.signBase64(
        cancel.transaction,
        { kind: 'vault-withdrawal', vault: vault.vaultPubkey },
        { strategy: row.strategy, intentId: row.id },
      );
      return signedRecord(rpc, signed, cancel.requestId, { orderId, family, cancelRequestId: cancel.requestId, vault: vault.vaultPubkey });
    },

    async submit(row, target, mode): Promise<SubmitResult> {
      const cancelRequestId = row.cancelRequestId ?? row.requestId;
      if (cancelRequestId === null) return { kind: 'rejected', code: 'NO_CANCEL_REQUEST', message: 'no cancelRequestId recorded', data: {} };
      try {
        // The same signed withdrawal and id every time: confirm-cancel is retry-safe.
        const answer = await steps(target, authed).confirm(cancelRequestId, Buffer.from(row.signedTx).toString('base64'));
        return { kind: 'confirmed', data: cancelled(row, target, { txSignature: answer.txSignature }), fills: [] };
      } catch (error) {
        return submitOutcome(error, { mode });
      }
    },

    landed(row, target): LandedReport {
      return { data: cancelled(row, target, { via: 'chain' }), fills: [] };
    },
  };
}
