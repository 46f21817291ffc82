/**
 * The withdrawal of one simulated vault order, rehearsed: the steps `cancel-vault-order` and
 * `renew-vault-order` share, as vaultWithdrawal.ts is shared live. Refused as live mode refuses it:
 * an adopted order is never withdrawn; one that holds nothing any more (filled, completed,
 * cancelled, failed, gone) fails `VAULT_ORDER_NOT_OPEN`; an order this database does not hold fails
 * `VAULT_ORDER_GONE` at once (the database is the only place it could be: there is no Trigger API to
 * ask again). An expired order is withdrawn like an open one, as Trigger V2 withdraws expired
 * orders' funds.
 *
 * Otherwise the row becomes `cancelled` (the ledger stops counting what it held: the funds are back)
 * with `order.cancelled` on the intent and the withdrawal's fee, in one transaction; the kind may
 * hand on a successor with the confirmation, which the journal plans in the transaction that
 * confirms the withdrawal, exactly as live mode does.
 *
 * `settle` after a lost answer: the withdrawal this intent made is found by its `order.cancelled`
 * action; if there is none, calling again is harmless.
 */
import { IntentRefusedError } from '../engine/executor/errors.js';
import type { CallHandler, CallResult, SettleResult } from '../engine/executor/handler.js';
import type { WithdrawalTarget } from '../engine/executor/vault/vaultWithdrawal.js';
import type { IntentRow, PlanInput } from '../store/journal.js';
import { statement } from '../store/statementCache.js';
import { recordCost } from './ledger.js';
import { SIGNATURE_FEE_LAMPORTS, unfunded } from './rehearsalFunds.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { readOrder, type RehearsalOrder, writeOrder } from './rehearsalOrderStore.js';
import { REHEARSAL_REPEAT } from './rehearsalRepeat.js';

/** How one kind reads its rows. */
export interface WithdrawalKind {
  readonly kind: string;
  /** The order the row withdraws (its params read as the kind reads them). */
  target(row: IntentRow): WithdrawalTarget;
  /** Throws (IntentRefusedError) when the row must not start: checked before the order is read. */
  check?(row: IntentRow): void;
  /** What the confirmation hands on, if anything. */
  successor(row: IntentRow): PlanInput | undefined;
}

/** States in which an order holds nothing a withdrawal could return. */
const NOTHING_LEFT = new Set(['filled', 'completed', 'cancelled', 'failed', 'gone']);

function summaryOf(target: WithdrawalTarget, order: RehearsalOrder): Record<string, unknown> {
  return { orderId: target.orderId, family: target.family, returned: order.remaining.toString(), mint: order.inputMint, rehearsal: true };
}

export function createRehearsalWithdrawal(deps: RehearsalDeps, kind: WithdrawalKind): CallHandler {
  const { db, journal, clock } = deps;

  /** Why the order cannot be withdrawn, or the order. */
  function withdrawable(target: WithdrawalTarget): RehearsalOrder {
    const { orderId } = target;
    const order = readOrder(db, orderId);
    if (order === undefined || order.family !== target.family)
      throw new IntentRefusedError('VAULT_ORDER_GONE', `this rehearsal holds no ${target.family} order ${orderId}: nothing to cancel`, { orderId });
    if (order.adopted)
      throw new IntentRefusedError('VAULT_ORDER_ADOPTED', `order ${orderId} was adopted (not placed by this daemon): it is never cancelled`, { orderId });
    if (NOTHING_LEFT.has(order.state))
      throw new IntentRefusedError('VAULT_ORDER_NOT_OPEN', `order ${orderId} is ${order.state}: nothing left to cancel`, { orderId, state: order.state });
    return order;
  }

  function withdraw(row: IntentRow): CallResult {
    const target = kind.target(row);
    kind.check?.(row);
    const order = withdrawable(target);
    return db.transaction((): CallResult => {
      const short = unfunded(db, new Map(), `withdrawal of order ${order.id}`);
      if (short !== null) return short;
      const now = clock.now();
      // Read and written in one synchronous transaction: nothing can change the row in between.
      if (!writeOrder(db, deps.audit, order, { state: 'cancelled' }, now)) throw new Error(`order ${order.id} changed while it was being cancelled`);
      recordCost(db, row.id, SIGNATURE_FEE_LAMPORTS, now);
      const summary = summaryOf(target, order);
      journal.note(row.id, 'order.cancelled', { ...summary, via: 'cancel' });
      return { kind: 'confirmed', data: summary, successor: kind.successor(row) };
    })();
  }

  /** The `order.cancelled` this intent wrote, if it did. */
  function withdrawnBefore(row: IntentRow): boolean {
    return statement(db, "SELECT 1 FROM actions WHERE intent_id = ? AND kind = 'order.cancelled' LIMIT 1").get(row.id) !== undefined;
  }

  return {
    kind: kind.kind,
    call: (row) => Promise.resolve().then(() => withdraw(row)),
    settle(row): Promise<SettleResult> {
      if (!withdrawnBefore(row)) return Promise.resolve(REHEARSAL_REPEAT);
      return Promise.resolve().then(() => {
        const { orderId, family } = kind.target(row);
        return { kind: 'confirmed', data: { orderId, family, rehearsal: true, via: 'database' }, successor: kind.successor(row) };
      });
    },
  };
}
