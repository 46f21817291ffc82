/**
 * The vault kinds a rehearsal executes (price orders, their cancels, renewals and PATCHes, DCA
 * orders), each with the very routes live mode uses, so a strategy decides what it would decide
 * live; their orders are simulated in this database and filled by the rehearsal's keeper
 * (rehearsalOrders.ts).
 */
import { placeDcaOrderKind } from '../engine/executor/dca/placeDcaOrder.js';
import { cancelVaultOrderKind } from '../engine/executor/vault/cancelVaultOrder.js';
import { patchVaultOrderKind } from '../engine/executor/vault/patchVaultOrder.js';
import { placeVaultOrderKind } from '../engine/executor/vault/placeVaultOrder.js';
import { createRehearsalCancelHandler } from './rehearsalCancelVaultOrder.js';
import type { RehearsalKind } from './rehearsalKind.js';
import { createRehearsalPatchHandler } from './rehearsalPatchVaultOrder.js';
import { createRehearsalDcaPlaceHandler } from './rehearsalPlaceDcaOrder.js';
import { createRehearsalPlaceHandler } from './rehearsalPlaceVaultOrder.js';

export const REHEARSAL_VAULT_KINDS: readonly RehearsalKind[] = [
  { kind: placeVaultOrderKind.kind, routes: placeVaultOrderKind.routes, createHandler: createRehearsalPlaceHandler },
  // A renewal is planned as a cancel carrying its replacement: the same routes, the same successor.
  { kind: cancelVaultOrderKind.kind, routes: cancelVaultOrderKind.routes, createHandler: createRehearsalCancelHandler },
  { kind: patchVaultOrderKind.kind, routes: patchVaultOrderKind.routes, createHandler: createRehearsalPatchHandler },
  { kind: placeDcaOrderKind.kind, routes: placeDcaOrderKind.routes, createHandler: createRehearsalDcaPlaceHandler },
];
