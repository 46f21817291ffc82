/**
 * `cancel-vault-order` through Trigger V2's two steps, for price orders and DCA orders alike (only the
 * routes differ): step 1 (`POST /orders/price/cancel/{id}` or `/orders/dca/cancel/{id}`) answers an
 * unsigned withdrawal and its `requestId`; both are journaled, the withdrawal is guarded as a
 * `vault-withdrawal` from our vault and signed, the signed bytes journaled (the executor), then step 2
 * (`confirm-cancel`) carries them.
 *
 * Resuming after a crash: before the signature is journaled, step 1 is simply asked again (a new cancel
 * call re-crafts and supersedes the old withdrawal: nothing was signed or sent); after it, the same
 * signed withdrawal and `cancelRequestId` go to confirm-cancel again, which Trigger documents as retry-safe.
 * "Not yet ready to cancel" (a price order just created, a DCA order still depositing) is
 * a 400 from step 1: the intent stays planned and is tried again on a later pass, not failed.
 *
 * An adopted order (placed elsewhere) is never cancelled: the intent fails `VAULT_ORDER_ADOPTED`.
 */
import { Priority } from '../../../jupiter/transport.js';
import { cancelPriceOrder, confirmCancelPriceOrder } from '../../../jupiter/trigger.js';
import type { CallOptions } from '../../../jupiter/transport.js';
import type { IntentRow, PlanInput, SignedRecord } from '../../../store/journal.js';
import { IntentRefusedError } from '../errors.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { z } from 'zod';
import type { CancelVaultOrderIntent } from '../../../strategies/intents.js';
import { type CancelSteps, dcaCancelSteps } from '../dca/dcaCancelSteps.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { submitOutcome } from '../submitOutcome.js';
import { ensureVault } from './vaultAccount.js';
import { signedRecord } from './vaultDeposit.js';
import { createVaultRenewHandler, renewVaultOrderRoute } from './renewVaultOrder.js';
import type { VaultHandlerOptions } from './vaultHandlerOptions.js';

export const VAULT_CANCEL_KIND = 'cancel-vault-order';

const VaultCancelParams = z.strictObject({
  orderId: z.string().min(1).max(128),
  /** Price and DCA orders have different cancel routes; both are two steps. */
  family: z.enum(['price', 'dca']),
  strategyHash: z.string().optional(),
});
export type VaultCancelParams = z.output<typeof VaultCancelParams>;

export const parseVaultCancelParams = (params: unknown): VaultCancelParams => parseJournalParams(VaultCancelParams, VAULT_CANCEL_KIND, params);

/** The journal entry for a decided cancel of a price or DCA order. */
export function vaultCancelPlan(intent: CancelVaultOrderIntent): PlanInput {
  return journalEntry(intent, VAULT_CANCEL_KIND, { orderId: intent.orderId, family: intent.family });
}

/** The two steps of one family's cancel: DCA orders have their own routes (dca/), price orders these. */
function steps(params: VaultCancelParams, authed: VaultHandlerOptions['authed']): CancelSteps {
  if (params.family === 'dca') return dcaCancelSteps(authed, params.orderId);
  const call: CallOptions = { priority: Priority.Exit };
  const { orderId } = params;
  return {
    request: (signal) => cancelPriceOrder(authed, { orderId }, { ...call, signal }),
    confirm: (cancelRequestId, signedTransaction) => confirmCancelPriceOrder(authed, { orderId, cancelRequestId, signedTransaction }, call),
  };
}

/** Mirrored states in which an order holds nothing a cancel could withdraw. */
const NOTHING_LEFT = new Set(['filled', 'completed', 'cancelled']);

export function createVaultCancelHandler(options: Omit<VaultHandlerOptions, 'decimalsOf'>): IntentHandler {
  const { authed, rpc, signer, journal, orders, clock } = options;

  /** The withdrawal is through: mirror it and write `order.cancelled` (the intent's confirmation follows). */
  function cancelled(row: IntentRow, params: VaultCancelParams, data: Record<string, unknown>): Record<string, unknown> {
    const summary = { orderId: params.orderId, family: params.family, cancelRequestId: row.cancelRequestId, withdrawalSignature: row.signature, ...data };
    const mirrored = orders.get(params.orderId);
    if (mirrored?.state !== 'cancelled') {
      orders.transaction(() => {
        if (mirrored) orders.setState(params.orderId, 'cancelled', clock.now());
        journal.note(row.id, 'order.cancelled', { ...summary, via: 'cancel' });
      });
    }
    return summary;
  }

  return {
    kind: VAULT_CANCEL_KIND,

    async prepare(row, context): Promise<SignedRecord> {
      const params = parseVaultCancelParams(row.params);
      const { orderId } = params;
      const mirrored = orders.get(orderId);
      if (mirrored?.adopted === true)
        throw new IntentRefusedError('VAULT_ORDER_ADOPTED', `order ${orderId} was adopted (not placed by this daemon): it is never cancelled`, { orderId });
      // Filled, completed or already cancelled: nothing left in the vault to withdraw. Trigger refuses
      // the cancel (400), and retrying it every pass would never end. An expired order is withdrawn.
      if (mirrored !== undefined && NOTHING_LEFT.has(mirrored.state)) {
        throw new IntentRefusedError('VAULT_ORDER_NOT_OPEN', `order ${orderId} is ${mirrored.state}: nothing left to cancel`, {
          orderId,
          state: mirrored.state,
        });
      }
      const vault = await ensureVault(authed, context.signal);
      const cancel = await steps(params, authed).request(context.signal);
      // Journaled before signing: the id that confirm-cancel needs and the exact bytes offered.
      const extra = cancel.refundAmount === undefined ? {} : { refundAmount: cancel.refundAmount, roundsRemaining: cancel.roundsRemaining };
      journal.recordTriggerIds(row.id, { cancelRequestId: cancel.requestId, orderId }, 'cancel.requested', {
        family: params.family,
        transaction: cancel.transaction,
        ...extra,
      });
      const signed = await signer.signBase64(
        cancel.transaction,
        { kind: 'vault-withdrawal', vault: vault.vaultPubkey },
        { strategy: row.strategy, intentId: row.id },
      );
      return signedRecord(rpc, signed, cancel.requestId, { orderId, family: params.family, cancelRequestId: cancel.requestId, vault: vault.vaultPubkey });
    },

    async submit(row, mode): Promise<SubmitResult> {
      const params = parseVaultCancelParams(row.params);
      const cancelRequestId = row.cancelRequestId ?? row.requestId;
      if (cancelRequestId === null) return { kind: 'rejected', code: 'NO_CANCEL_REQUEST', message: 'no cancelRequestId recorded', data: {} };
      try {
        // The same signed withdrawal and id every time: confirm-cancel is retry-safe.
        const answer = await steps(params, authed).confirm(cancelRequestId, Buffer.from(row.signedTx).toString('base64'));
        return { kind: 'confirmed', data: cancelled(row, params, { txSignature: answer.txSignature }), fills: [] };
      } catch (error) {
        return submitOutcome(error, { mode });
      }
    },

    landed(row: SignedRow): Promise<LandedReport> {
      return Promise.resolve({ data: cancelled(row, parseVaultCancelParams(row.params), { via: 'chain' }), fills: [] });
    },
  };
}

export const cancelVaultOrderRoute: IntentRoute<'cancel-vault-order'> = { kind: 'cancel-vault-order', plan: vaultCancelPlan };

/**
 * `cancel-vault-order`: the cancel of a price or DCA order, and the renewal planned as a cancel that
 * hands on its replacement. Every row of this kind runs through the renewal wrapper, which runs a
 * plain cancel unchanged.
 */
export const cancelVaultOrderKind: ExecutableKind<VaultHandlerOptions> = {
  kind: VAULT_CANCEL_KIND,
  routes: [cancelVaultOrderRoute, renewVaultOrderRoute],
  createHandler: (deps) => createVaultRenewHandler(createVaultCancelHandler(deps), deps.clock),
};
