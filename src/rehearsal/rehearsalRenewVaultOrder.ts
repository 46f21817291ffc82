/**
 * `renew-vault-order`, rehearsed: the rehearsed withdrawal of the old order (rehearsalWithdrawal.ts),
 * whose confirmation hands on the replacement exactly as live mode does. A renewal whose replacement
 * has already expired fails before anything is withdrawn, leaving the old order live.
 */
import type { CallHandler } from '../engine/executor/handler.js';
import { checkReplacement, parseVaultRenewParams, successorOf, VAULT_RENEW_KIND, withdrawalOf } from '../engine/executor/vault/renewVaultOrder.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { createRehearsalWithdrawal } from './rehearsalWithdrawal.js';

export function createRehearsalRenewHandler(deps: RehearsalDeps): CallHandler {
  return createRehearsalWithdrawal(deps, {
    kind: VAULT_RENEW_KIND,
    target: (row) => withdrawalOf(parseVaultRenewParams(row.params)),
    check: (row) => checkReplacement(parseVaultRenewParams(row.params), deps.clock.now()),
    successor: successorOf,
  });
}
