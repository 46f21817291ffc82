/**
 * `cancel-vault-order`, rehearsed, for price and DCA orders, and the renewal live mode plans as a
 * cancel carrying its replacement. Refused as live mode refuses it: an adopted order is never
 * cancelled; one that holds nothing any more (filled, completed, cancelled, failed, gone) fails
 * `VAULT_ORDER_NOT_OPEN`; an order this database does not hold fails `VAULT_ORDER_GONE` at once (the
 * database is the only place it could be: there is no Trigger API to ask again); a renewal whose
 * replacement has already expired fails before anything is cancelled, leaving the old order live.
 * An expired order is withdrawn like an open one, as Trigger V2 withdraws expired orders' funds.
 *
 * Otherwise the row becomes `cancelled` (the ledger stops counting what it held: the funds are back)
 * with `order.cancelled` on the intent and the withdrawal's fee, in one transaction; a renewal's
 * confirmation hands on its replacement (`successor`), which the journal plans in the transaction
 * that confirms the cancel, exactly as live mode does.
 *
 * `settle` after a lost answer: the cancel this intent made is found by its `order.cancelled`
 * action; if there is none, calling again is harmless.
 */
import { IntentRefusedError } from '../engine/executor/errors.js';
import type { CallHandler, CallResult, SettleResult } from '../engine/executor/handler.js';
import { parseVaultCancelParams, VAULT_CANCEL_KIND, type VaultCancelParams } from '../engine/executor/vault/cancelVaultOrder.js';
import { parseVaultPlaceParams } from '../engine/executor/vault/placeVaultOrder.js';
import { renewalOf, successorOf, withoutRenewal } from '../engine/executor/vault/renewVaultOrder.js';
import type { IntentRow } from '../store/journal.js';
import { statement } from '../store/statementCache.js';
import { recordCost } from './ledger.js';
import { SIGNATURE_FEE_LAMPORTS, unfunded } from './rehearsalFunds.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { readOrder, type RehearsalOrder, writeOrder } from './rehearsalOrderStore.js';
import { REHEARSAL_REPEAT } from './rehearsalRepeat.js';

/** States in which an order holds nothing a cancel could withdraw. */
const NOTHING_LEFT = new Set(['filled', 'completed', 'cancelled', 'failed', 'gone']);

function summaryOf(params: VaultCancelParams, order: RehearsalOrder): Record<string, unknown> {
  return { orderId: params.orderId, family: params.family, returned: order.remaining.toString(), mint: order.inputMint, rehearsal: true };
}

export function createRehearsalCancelHandler(deps: RehearsalDeps): CallHandler {
  const { db, journal, clock } = deps;

  /** Why the order cannot be cancelled, or the order. */
  function cancellable(params: VaultCancelParams): RehearsalOrder {
    const { orderId } = params;
    const order = readOrder(db, orderId);
    if (order === undefined || order.family !== params.family)
      throw new IntentRefusedError('VAULT_ORDER_GONE', `this rehearsal holds no ${params.family} order ${orderId}: nothing to cancel`, { orderId });
    if (order.adopted)
      throw new IntentRefusedError('VAULT_ORDER_ADOPTED', `order ${orderId} was adopted (not placed by this daemon): it is never cancelled`, { orderId });
    if (NOTHING_LEFT.has(order.state))
      throw new IntentRefusedError('VAULT_ORDER_NOT_OPEN', `order ${orderId} is ${order.state}: nothing left to cancel`, { orderId, state: order.state });
    return order;
  }

  function cancel(row: IntentRow): CallResult {
    const then = renewalOf(row);
    if (then) {
      const place = parseVaultPlaceParams(then.params);
      if (place.expiresAt <= clock.now())
        throw new IntentRefusedError('VAULT_ORDER_EXPIRED', `the replacement's expiresAt ${place.expiresAt} has passed: the old order is left as it is`, {
          expiresAt: place.expiresAt,
        });
    }
    const params = parseVaultCancelParams(withoutRenewal(row).params);
    const order = cancellable(params);
    return db.transaction((): CallResult => {
      const short = unfunded(db, new Map(), `withdrawal of order ${order.id}`);
      if (short !== null) return short;
      const now = clock.now();
      // Read and written in one synchronous transaction: nothing can change the row in between.
      if (!writeOrder(db, deps.audit, order, { state: 'cancelled' }, now)) throw new Error(`order ${order.id} changed while it was being cancelled`);
      recordCost(db, row.id, SIGNATURE_FEE_LAMPORTS, now);
      const summary = summaryOf(params, order);
      journal.note(row.id, 'order.cancelled', { ...summary, via: 'cancel' });
      return { kind: 'confirmed', data: summary, successor: successorOf(row) };
    })();
  }

  /** The `order.cancelled` this intent wrote, if it did. */
  function cancelledBefore(row: IntentRow): boolean {
    return statement(db, "SELECT 1 FROM actions WHERE intent_id = ? AND kind = 'order.cancelled' LIMIT 1").get(row.id) !== undefined;
  }

  return {
    kind: VAULT_CANCEL_KIND,
    call: (row) => Promise.resolve().then(() => cancel(row)),
    settle(row): Promise<SettleResult> {
      if (!cancelledBefore(row)) return Promise.resolve(REHEARSAL_REPEAT);
      const params = parseVaultCancelParams(withoutRenewal(row).params);
      return Promise.resolve({
        kind: 'confirmed',
        data: { orderId: params.orderId, family: params.family, rehearsal: true, via: 'database' },
        successor: successorOf(row),
      });
    },
  };
}
