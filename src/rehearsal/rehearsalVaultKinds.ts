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
import { renewVaultOrderKind } from '../engine/executor/vault/renewVaultOrder.js';
import { createRehearsalCancelHandler } from './rehearsalCancelVaultOrder.js';
import type { RehearsalKind } from './rehearsalKind.js';
import { createRehearsalPatchHandler } from './rehearsalPatchVaultOrder.js';
import { createRehearsalDcaPlaceHandler } from './rehearsalPlaceDcaOrder.js';
import { createRehearsalPlaceHandler } from './rehearsalPlaceVaultOrder.js';
import { createRehearsalRenewHandler } from './rehearsalRenewVaultOrder.js';

export const REHEARSAL_VAULT_KINDS: readonly RehearsalKind[] = [
  { kind: placeVaultOrderKind.kind, routes: placeVaultOrderKind.routes, createHandler: createRehearsalPlaceHandler },
  { kind: cancelVaultOrderKind.kind, routes: cancelVaultOrderKind.routes, createHandler: createRehearsalCancelHandler },
  { kind: renewVaultOrderKind.kind, routes: renewVaultOrderKind.routes, createHandler: createRehearsalRenewHandler },
  { kind: patchVaultOrderKind.kind, routes: patchVaultOrderKind.routes, createHandler: createRehearsalPatchHandler },
  { kind: placeDcaOrderKind.kind, routes: placeDcaOrderKind.routes, createHandler: createRehearsalDcaPlaceHandler },
];
