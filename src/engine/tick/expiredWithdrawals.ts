/**
 * Trigger V2 keeps an expired order's funds in the vault until they are withdrawn with the same
 * two-step cancel flow. An order that
 * expired unfilled — the daemon was down through its renewal window, say — would otherwise lock
 * the tokens it was protecting: decide() would see a balance too small to place the rule again.
 *
 * So every tick first asks for a withdrawal of each expired order of ours that still holds funds:
 * one `cancel-vault-order` intent per order, with a deterministic id (`<strategy>/engine/withdraw/
 * <orderId>`), journaled and executed like any other — a restart finds it, nothing is withdrawn twice.
 * Only the leg the placing intent recorded is withdrawn: an OCO's two legs share one deposit.
 */
import type { Db } from '../../store/db.js';
import { expiredOrdersWithFunds } from '../../store/vaultOrderRecords.js';
import type { CancelVaultOrderIntent } from '../../strategies/intents.js';

/** The withdrawals to ask for now, oldest expiry first: cancel intents, journaled like any other. */
export function expiredWithdrawals(db: Db): CancelVaultOrderIntent[] {
  return expiredOrdersWithFunds(db).map((row) => {
    const key = { strategy: row.strategy, version: 'engine', rule: 'withdraw', trigger: row.id };
    return {
      kind: 'cancel-vault-order',
      key,
      id: `${row.strategy}/engine/withdraw/${row.id}`,
      reason: `withdraw ${row.remaining} base units of ${row.input_mint} left in the vault by expired order ${row.id}`,
      evidence: { orderId: row.id, remaining: row.remaining, mint: row.input_mint },
      orderId: row.id,
      family: 'price',
    };
  });
}
