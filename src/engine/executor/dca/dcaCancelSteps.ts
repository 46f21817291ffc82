/**
 * The two steps of a DCA order's cancel (`POST /orders/dca/cancel/{id}`, then `confirm-cancel`): the
 * cancel-vault-order handler runs them for `family: dca`, with the same journaling and guard as for a
 * price order. Step 1 also says how much the withdrawal returns and how many rounds were left.
 */
import { type CallOptions, Priority } from '../../../jupiter/transport.js';
import type { AuthedJupiterClient } from '../../../jupiter/transport.js';
import { cancelDcaOrder, confirmCancelDcaOrder } from '../../../jupiter/trigger.js';

/** One family's cancel: step 1 answers the unsigned withdrawal, step 2 carries it signed. */
export interface CancelSteps {
  request(
    signal: AbortSignal,
  ): Promise<{ readonly requestId: string; readonly transaction: string; readonly refundAmount?: string; readonly roundsRemaining?: number }>;
  confirm(cancelRequestId: string, signedTransaction: string): Promise<{ readonly txSignature: string }>;
}

export function dcaCancelSteps(authed: AuthedJupiterClient, id: string): CancelSteps {
  const call: CallOptions = { priority: Priority.Exit };
  return {
    request: (signal) => cancelDcaOrder(authed, { id }, { ...call, signal }),
    confirm: (cancelRequestId, signedTransaction) => confirmCancelDcaOrder(authed, { id, cancelRequestId, signedTransaction }, call),
  };
}
