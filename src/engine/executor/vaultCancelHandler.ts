/**
 * `cancel-vault-order` (price orders) through Trigger V2's two steps: `POST /orders/price/cancel/{id}`
 * answers an unsigned withdrawal and its `requestId`; both are journaled, the withdrawal is guarded as
 * a `vault-withdrawal` from our vault and signed, the signed bytes journaled (the executor), then
 * `POST /orders/price/confirm-cancel/{id}` carries them.
 *
 * Resuming after a crash: before the signature is journaled, step 1 is simply asked again (a new cancel
 * call re-crafts and supersedes the old withdrawal: nothing was signed or sent); after it, the same
 * signed withdrawal and `cancelRequestId` go to confirm-cancel again, which is retry-safe (reference
 * §4). "Not yet ready to cancel" (just after creation) is a 400 from step 1: the intent stays planned
 * and is tried again on a later pass, not failed.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { Priority } from '../../jupiter/transport.js';
import { cancelPriceOrder, confirmCancelPriceOrder } from '../../jupiter/trigger.js';
import type { IntentRow, SignedRecord } from '../../store/journal.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from './handler.js';
import { parseVaultCancelParams, VAULT_CANCEL_KIND } from './vaultParams.js';
import { ensureVault } from './vaultOrders.js';
import { classify, type VaultHandlerOptions } from './vaultPlaceHandler.js';

/** Solana: a blockhash is accepted for 150 blocks after it was issued. */
const BLOCKHASH_VALID_BLOCKS = 150;

export function createVaultCancelHandler(options: Omit<VaultHandlerOptions, 'decimalsOf'>): IntentHandler {
  const { authed, rpc, signer, journal, orders, clock } = options;

  /** The withdrawal is through: mirror it and write `order.cancelled` (the intent's confirmation follows). */
  function cancelled(row: IntentRow, orderId: string, data: Record<string, unknown>): Record<string, unknown> {
    const summary = { orderId, cancelRequestId: row.cancelRequestId, withdrawalSignature: row.signature, ...data };
    const mirrored = orders.get(orderId);
    if (mirrored?.state !== 'cancelled') {
      if (mirrored) orders.setState(orderId, 'cancelled', clock.now());
      journal.note(row.id, 'order.cancelled', { ...summary, via: 'cancel' });
    }
    return summary;
  }

  return {
    kind: VAULT_CANCEL_KIND,

    async prepare(row, context): Promise<SignedRecord> {
      const { orderId } = parseVaultCancelParams(row.params);
      const vault = await ensureVault(authed, context.signal);
      const cancel = await cancelPriceOrder(authed, { orderId }, { signal: context.signal, priority: Priority.Exit });
      // Journaled before signing: the id that confirm-cancel needs and the exact bytes offered.
      journal.recordTriggerIds(row.id, { cancelRequestId: cancel.requestId, orderId }, 'cancel.requested', { transaction: cancel.transaction });
      const signed = await signer.signBase64(cancel.transaction, { kind: 'vault-withdrawal', vault: vault.vaultPubkey }, { strategy: row.strategy, intentId: row.id });
      const bytes = Buffer.from(signed.signed, 'base64');
      return {
        bytes,
        signature: signed.signature,
        blockhash: VersionedTransaction.deserialize(bytes).message.recentBlockhash,
        // The cancel answer gives no lastValidBlockHeight: now + 150 is an upper bound.
        lastValidBlockHeight: (await rpc.getBlockHeight()) + BLOCKHASH_VALID_BLOCKS,
        requestId: cancel.requestId,
        data: { orderId, cancelRequestId: cancel.requestId, vault: vault.vaultPubkey },
      };
    },

    async submit(row, mode): Promise<SubmitResult> {
      const { orderId } = parseVaultCancelParams(row.params);
      const cancelRequestId = row.cancelRequestId ?? row.requestId;
      if (cancelRequestId === null) return { kind: 'rejected', code: 'NO_CANCEL_REQUEST', message: 'no cancelRequestId recorded', data: {} };
      try {
        // The same signed withdrawal and id every time: confirm-cancel is retry-safe.
        const answer = await confirmCancelPriceOrder(authed, { orderId, cancelRequestId, signedTransaction: Buffer.from(row.signedTx).toString('base64') }, { priority: Priority.Exit });
        return { kind: 'confirmed', data: cancelled(row, orderId, { txSignature: answer.txSignature }), fills: [] };
      } catch (error) {
        return classify(error, mode);
      }
    },

    landed(row: SignedRow): Promise<LandedReport> {
      const { orderId } = parseVaultCancelParams(row.params);
      return Promise.resolve({ data: cancelled(row, orderId, { via: 'chain' }), fills: [] });
    },
  };
}
