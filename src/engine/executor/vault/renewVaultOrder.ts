/**
 * `renew-vault-order` reaches the journal as two rows, chained. PATCH cannot change an order's
 * `expiresAt`, so a renewal withdraws the old order and deposits the replacement:
 *
 * 1. a `cancel-vault-order` row (the intent's own id) whose params carry the replacement's
 *    `place-vault-order` params under `then`;
 * 2. the replacement, `${id}#place`, planned by the journal in the same transaction that confirms
 *    the cancel (journal.markConfirmed's successor), then driven like any placement.
 *
 * The replacement is never journaled before the withdrawal is through (its deposit needs the funds
 * the withdrawal returns), and there is no instant where the withdrawal is through and the
 * replacement is not journaled. Its params are fixed when the renewal is decided, so a restart
 * places exactly that order, with the old order's amount.
 */
import { z } from 'zod';
import type { RenewVaultOrderIntent } from '../../../strategies/intents.js';
import type { IntentRow, PlanInput } from '../../../store/journal.js';
import type { Clock } from '../../../clock.js';
import { IntentRefusedError } from '../errors.js';
import { type IntentHandler, isCallHandler, type SigningHandler } from '../handler.js';
import { type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';
import { VAULT_CANCEL_KIND } from './cancelVaultOrder.js';
import { parseVaultPlaceParams, VAULT_PLACE_KIND, vaultPlacePlan } from './placeVaultOrder.js';

/** The intents table's limit on ids (0001_init.sql). */
const MAX_ID_LENGTH = 128;

const Then = z.strictObject({
  /** `place-vault-order` params, as vaultPlacePlan writes them (checked again before the cancel). */
  params: z.record(z.string(), z.unknown()),
  reason: z.string(),
});

const RenewParams = z
  .object({
    orderId: z.string().min(1).max(128),
    then: Then.optional(),
  })
  .loose();

/** The replacement's id: deterministic (a restart or a second decision finds the same row) and unique per renewal. */
export function successorId(renewId: string): string {
  return `${renewId}#place`;
}

/** The journal entry for a decided renewal: the cancel, carrying its replacement; undefined (deferred) when the replacement's id would not fit. */
export function vaultRenewPlan(intent: RenewVaultOrderIntent): PlanInput | undefined {
  const id = successorId(intent.id);
  // Refused here, not at confirmation: a cancel whose replacement cannot be journaled must not start.
  if (id.length > MAX_ID_LENGTH) return undefined;
  const place = vaultPlacePlan({
    kind: 'place-vault-order',
    key: intent.key,
    id,
    reason: `replaces order ${intent.orderId} before it expires: ${intent.reason}`,
    evidence: intent.evidence,
    order: intent.replacement,
  });
  const entry = journalEntry(intent, VAULT_CANCEL_KIND, {
    orderId: intent.orderId,
    family: 'price',
    then: { params: place.params, reason: place.reason ?? intent.reason },
  });
  return { ...entry, evidence: { ...entry.evidence, replacement: id } };
}

/** `renew-vault-order` → the journal, as a cancel (executed by the cancel handler wrapped in {@link createVaultRenewHandler}). */
export const renewVaultOrderRoute: IntentRoute<'renew-vault-order'> = { kind: 'renew-vault-order', plan: vaultRenewPlan };

/** The `then` of a cancel row, if it renews; throws PARAMS_INVALID when the row does not parse. */
export function renewalOf(row: Pick<IntentRow, 'params'>): z.output<typeof Then> | undefined {
  return parseJournalParams(RenewParams, VAULT_CANCEL_KIND, row.params).then;
}

/** The cancel's params as the plain cancel handler knows them (without `then`). */
export function withoutRenewal<R extends IntentRow>(row: R): R {
  if (!('then' in row.params)) return row;
  const { then: _then, ...params } = row.params;
  return { ...row, params };
}

/** The replacement to plan when `row`'s cancel is confirmed, or undefined for a plain cancel. */
export function successorOf(row: IntentRow): PlanInput | undefined {
  const then = renewalOf(row);
  if (!then) return undefined;
  return {
    id: successorId(row.id),
    kind: VAULT_PLACE_KIND,
    strategy: row.strategy,
    strategyVersion: row.strategyVersion,
    rule: row.rule,
    params: then.params,
    evidence: { after: row.id, renews: typeof row.params['orderId'] === 'string' ? row.params['orderId'] : null },
    reason: then.reason,
  };
}

/**
 * The `cancel-vault-order` handler that also renews: wraps the plain cancel handler (which it runs
 * unchanged, on the row without its `then`) and, when the row is a renewal (above),
 * hands the replacement on with the confirmation, so the journal plans it in the same transaction.
 *
 * Before anything is cancelled the replacement's params are checked as the place handler will read
 * them: a renewal whose replacement could never be placed fails here, leaving the old order live,
 * rather than withdrawing it and leaving the position unprotected.
 */
export function createVaultRenewHandler(cancel: IntentHandler, clock: Clock): SigningHandler {
  if (cancel.kind !== VAULT_CANCEL_KIND || isCallHandler(cancel))
    throw new Error(`createVaultRenewHandler wraps the ${VAULT_CANCEL_KIND} signing handler, not ${cancel.kind}`);
  return {
    kind: VAULT_CANCEL_KIND,

    notBefore: (row) => cancel.notBefore?.(withoutRenewal(row)) ?? null,

    async prepare(row, context) {
      const then = renewalOf(row);
      if (then) {
        const place = parseVaultPlaceParams(then.params);
        if (place.expiresAt <= clock.now())
          throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `the replacement's expiresAt ${place.expiresAt} has passed: the old order is left as it is`, {
            expiresAt: place.expiresAt,
          });
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
