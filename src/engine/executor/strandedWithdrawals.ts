/**
 * Funds an order of ours left in the vault with nothing on its way to bring them back:
 *
 * - an order that expired unfilled (the daemon was down through its renewal window, say): Trigger V2
 *   keeps its funds in the vault until they are withdrawn with the same two-step cancel flow;
 * - an order whose cancel was asked for (`pending_withdraw`) while every cancel of ours for it
 *   failed (a withdrawal refused, say): the order can no longer fill, and nothing withdraws it.
 *
 * Either would lock the tokens it was protecting: decide() would see a balance too small to place
 * the rule again (and does not place a rule whose order is being withdrawn). So every tick first asks
 * for a withdrawal of each: one `cancel-vault-order` intent per order, with a deterministic id
 * (`<strategy>/engine/withdraw/<orderId>`), journaled and executed like any other — a restart finds
 * it, nothing is withdrawn twice. Only the leg the placing intent recorded is withdrawn: an OCO's two
 * legs share one deposit.
 */
import type { Db } from '../../store/db.js';
import { strandedOrdersWithFunds } from '../../store/vaultOrderRecords.js';
import type { CancelVaultOrderIntent } from '../../strategies/intents.js';

/** The withdrawals to ask for now, oldest expiry first: cancel intents, journaled like any other. */
export function strandedWithdrawals(db: Db): CancelVaultOrderIntent[] {
  return strandedOrdersWithFunds(db).map((row) => {
    const key = { strategy: row.strategy, version: 'engine', rule: 'withdraw', trigger: row.id };
    const why = row.state === 'expired' ? 'expired order' : 'order whose cancel failed';
    return {
      kind: 'cancel-vault-order',
      key,
      id: `${row.strategy}/engine/withdraw/${row.id}`,
      reason: `withdraw ${row.remaining} base units of ${row.input_mint} left in the vault by ${why} ${row.id}`,
      evidence: { orderId: row.id, remaining: row.remaining, mint: row.input_mint, state: row.state },
      orderId: row.id,
      family: 'price',
    };
  });
}
