/**
 * The `cancel-vault-order` handler that also renews: wraps the plain cancel handler (which it runs
 * unchanged, on the row without its `then`) and, when the row is a renewal (vaultRenewParams.ts),
 * hands the replacement on with the confirmation, so the journal plans it in the same transaction.
 *
 * Before anything is cancelled the replacement's params are checked as the place handler will read
 * them: a renewal whose replacement could never be placed fails here, leaving the old order live,
 * rather than withdrawing it and leaving the position unprotected.
 */
import type { Clock } from '../../clock.js';
import { IntentRefusedError } from './errors.js';
import { type IntentHandler, isCallHandler, type SigningHandler } from './handler.js';
import { parseVaultPlaceParams, VAULT_CANCEL_KIND } from './vaultParams.js';
import { renewalOf, successorOf, withoutRenewal } from './vaultRenewParams.js';

export function createVaultRenewHandler(cancel: IntentHandler, clock: Clock): SigningHandler {
  if (cancel.kind !== VAULT_CANCEL_KIND || isCallHandler(cancel)) throw new Error(`createVaultRenewHandler wraps the ${VAULT_CANCEL_KIND} signing handler, not ${cancel.kind}`);
  return {
    kind: VAULT_CANCEL_KIND,

    async prepare(row, context) {
      const then = renewalOf(row);
      if (then) {
        const place = parseVaultPlaceParams(then.params);
        if (place.expiresAt <= clock.now()) throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `the replacement's expiresAt ${place.expiresAt} has passed: the old order is left as it is`, { expiresAt: place.expiresAt });
      }
      return cancel.prepare(withoutRenewal(row), context);
    },

    async submit(row, mode, context) {
      const result = await cancel.submit(withoutRenewal(row), mode, context);
      return result.kind === 'confirmed' ? { ...result, successor: successorOf(row) } : result;
    },

    async landed(row, context) {
      return { ...(await cancel.landed(withoutRenewal(row), context)), successor: successorOf(row) };
    },
  };
}
