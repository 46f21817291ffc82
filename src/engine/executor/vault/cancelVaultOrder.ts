/**
 * `cancel-vault-order`: the withdrawal of a price or DCA order, nothing placed after it (a rule
 * removed from the strategy, the funds of an expired order brought back). Its steps, the backoff
 * on a 404 and the refusals are the withdrawal's (vaultWithdrawal.ts), shared with the renewal.
 *
 * A renewal is not a cancel: it is journaled as `renew-vault-order` (renewVaultOrder.ts), so the
 * journal says what the strategy decided. A cancel row's params are strict: one that carries a
 * replacement (`then`, how renewals were journaled before they had their own kind) does not parse.
 */
import { z } from 'zod';
import type { PlanInput } from '../../../store/journal.js';
import type { CancelVaultOrderIntent } from '../../../strategies/intents.js';
import type { IntentHandler } from '../handler.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import type { VaultHandlerOptions } from './vaultHandlerOptions.js';
import { createVaultWithdrawal } from './vaultWithdrawal.js';

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

export function createVaultCancelHandler(options: Omit<VaultHandlerOptions, 'decimalsOf'>): IntentHandler {
  const withdrawal = createVaultWithdrawal(options);
  return {
    kind: VAULT_CANCEL_KIND,
    notBefore: (row) => withdrawal.notBefore(row),
    prepare: (row, context) => withdrawal.prepare(row, parseVaultCancelParams(row.params), context),
    submit: (row, mode) => withdrawal.submit(row, parseVaultCancelParams(row.params), mode),
    landed: (row) => Promise.resolve(withdrawal.landed(row, parseVaultCancelParams(row.params))),
  };
}

export const cancelVaultOrderRoute: IntentRoute<'cancel-vault-order'> = { kind: 'cancel-vault-order', plan: vaultCancelPlan };

export const cancelVaultOrderKind: ExecutableKind<VaultHandlerOptions> = {
  kind: VAULT_CANCEL_KIND,
  routes: [cancelVaultOrderRoute],
  createHandler: (deps) => createVaultCancelHandler(deps),
};
