/**
 * `cancel-vault-order`, rehearsed, for price and DCA orders: the rehearsed withdrawal
 * (rehearsalWithdrawal.ts), nothing handed on.
 */
import type { CallHandler } from '../engine/executor/handler.js';
import { parseVaultCancelParams, VAULT_CANCEL_KIND } from '../engine/executor/vault/cancelVaultOrder.js';
import type { RehearsalDeps } from './rehearsalKind.js';
import { createRehearsalWithdrawal } from './rehearsalWithdrawal.js';

export function createRehearsalCancelHandler(deps: RehearsalDeps): CallHandler {
  return createRehearsalWithdrawal(deps, {
    kind: VAULT_CANCEL_KIND,
    target: (row) => parseVaultCancelParams(row.params),
    successor: () => undefined,
  });
}
