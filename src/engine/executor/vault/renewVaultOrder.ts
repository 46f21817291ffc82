/**
 * `renew-vault-order` reaches the journal as two rows, chained. PATCH cannot change an order's
 * `expiresAt`, so a renewal withdraws the old order and deposits the replacement:
 *
 * 1. a `renew-vault-order` row (the intent's own id): the old order's withdrawal, through the very
 *    steps a cancel takes (vaultWithdrawal.ts), whose params carry the replacement's
 *    `place-vault-order` params under `then`;
 * 2. the replacement, `${id}#place`, planned by the journal in the same transaction that confirms
 *    the withdrawal (journal.markConfirmed's successor), then driven like any placement.
 *
 * The replacement is never journaled before the withdrawal is through (its deposit needs the funds
 * the withdrawal returns), and there is no instant where the withdrawal is through and the
 * replacement is not journaled. Its params are fixed when the renewal is decided, so a restart
 * places exactly that order, with the old order's amount.
 *
 * Databases written before renewals had their own kind hold them as `cancel-vault-order` rows with
 * `then`: migration 0011 re-kinds them, and the audit log records each change (store/rekindedRows.ts).
 */
import { z } from 'zod';
import type { RenewVaultOrderIntent } from '../../../strategies/intents.js';
import type { IntentRow, PlanInput } from '../../../store/journal.js';
import { IntentRefusedError } from '../errors.js';
import type { SigningHandler } from '../handler.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { parseVaultPlaceParams, VAULT_PLACE_KIND, vaultPlacePlan } from './placeVaultOrder.js';
import type { VaultHandlerOptions } from './vaultHandlerOptions.js';
import { createVaultWithdrawal, type WithdrawalTarget } from './vaultWithdrawal.js';

export const VAULT_RENEW_KIND = 'renew-vault-order';

/** The intents table's limit on ids (0001_init.sql). */
const MAX_ID_LENGTH = 128;

const Then = z.strictObject({
  /** `place-vault-order` params, as vaultPlacePlan writes them (checked again before the withdrawal). */
  params: z.record(z.string(), z.unknown()),
  reason: z.string(),
});

const VaultRenewParams = z.strictObject({
  orderId: z.string().min(1).max(128),
  /** Only price orders are renewed (a DCA order has no expiry to renew). */
  family: z.literal('price'),
  then: Then,
  strategyHash: z.string().optional(),
});
export type VaultRenewParams = z.output<typeof VaultRenewParams>;

export const parseVaultRenewParams = (params: unknown): VaultRenewParams => parseJournalParams(VaultRenewParams, VAULT_RENEW_KIND, params);

/** The replacement's id: deterministic (a restart or a second decision finds the same row) and unique per renewal. */
export function successorId(renewId: string): string {
  return `${renewId}#place`;
}

/** The journal entry for a decided renewal: the withdrawal, carrying its replacement; undefined (deferred) when the replacement's id would not fit. */
export function vaultRenewPlan(intent: RenewVaultOrderIntent): PlanInput | undefined {
  const id = successorId(intent.id);
  // Refused here, not at confirmation: a withdrawal whose replacement cannot be journaled must not start.
  if (id.length > MAX_ID_LENGTH) return undefined;
  const place = vaultPlacePlan({
    kind: 'place-vault-order',
    key: intent.key,
    id,
    reason: `replaces order ${intent.orderId} before it expires: ${intent.reason}`,
    evidence: intent.evidence,
    order: intent.replacement,
  });
  const entry = journalEntry(intent, VAULT_RENEW_KIND, {
    orderId: intent.orderId,
    family: 'price',
    then: { params: place.params, reason: place.reason ?? intent.reason },
  });
  return { ...entry, evidence: { ...entry.evidence, replacement: id } };
}

export const renewVaultOrderRoute: IntentRoute<'renew-vault-order'> = { kind: 'renew-vault-order', plan: vaultRenewPlan };

/** The order a renewal row withdraws. */
export function withdrawalOf(params: VaultRenewParams): WithdrawalTarget {
  return { orderId: params.orderId, family: params.family };
}

/** The replacement to plan when a renewal row's withdrawal is confirmed. */
export function successorOf(row: IntentRow): PlanInput {
  const { orderId, then } = parseVaultRenewParams(row.params);
  return {
    id: successorId(row.id),
    kind: VAULT_PLACE_KIND,
    strategy: row.strategy,
    strategyVersion: row.strategyVersion,
    rule: row.rule,
    params: then.params,
    evidence: { after: row.id, renews: orderId },
    reason: then.reason,
  };
}

/**
 * Before anything is withdrawn the replacement's params are checked as the place handler will read
 * them: a renewal whose replacement could never be placed fails here, leaving the old order live,
 * rather than withdrawing it and leaving the position unprotected.
 */
export function checkReplacement(params: VaultRenewParams, now: number): void {
  const place = parseVaultPlaceParams(params.then.params);
  if (place.expiresAt <= now)
    throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `the replacement's expiresAt ${place.expiresAt} has passed: the old order is left as it is`, {
      expiresAt: place.expiresAt,
    });
}

/**
 * The `renew-vault-order` handler: the withdrawal's steps on the order the row names, and, once it
 * is through, the replacement handed on with the confirmation, so the journal plans it in the same
 * transaction.
 */
export function createVaultRenewHandler(options: Omit<VaultHandlerOptions, 'decimalsOf'>): SigningHandler {
  const withdrawal = createVaultWithdrawal(options);
  return {
    kind: VAULT_RENEW_KIND,

    notBefore: (row) => withdrawal.notBefore(row),

    async prepare(row, context) {
      const params = parseVaultRenewParams(row.params);
      checkReplacement(params, options.clock.now());
      return withdrawal.prepare(row, withdrawalOf(params), context);
    },

    async submit(row, mode) {
      const result = await withdrawal.submit(row, withdrawalOf(parseVaultRenewParams(row.params)), mode);
      return result.kind === 'confirmed' ? { ...result, successor: successorOf(row) } : result;
    },

    landed(row) {
      return Promise.resolve({ ...withdrawal.landed(row, withdrawalOf(parseVaultRenewParams(row.params))), successor: successorOf(row) });
    },
  };
}

export const renewVaultOrderKind: ExecutableKind<VaultHandlerOptions> = {
  kind: VAULT_RENEW_KIND,
  routes: [renewVaultOrderRoute],
  createHandler: (deps) => createVaultRenewHandler(deps),
};
