/**
 * The prediction exits a rehearsal executes, under the routes live mode plans them with (so a
 * strategy decides exactly what it would decide live): a whole sale, a partial sale and a claim.
 */
import { claimPositionKind } from '../engine/executor/prediction/claimPosition.js';
import { partialSellKind, sellPositionKind } from '../engine/executor/prediction/sellPosition.js';
import { createRehearsalClaimHandler } from './rehearsalClaim.js';
import type { RehearsalKind } from './rehearsalKind.js';
import { createRehearsalSellHandler } from './rehearsalSell.js';

export const rehearsalPredictionKinds: readonly RehearsalKind[] = [
  { kind: sellPositionKind.kind, routes: sellPositionKind.routes, createHandler: (deps) => createRehearsalSellHandler(deps, 'whole') },
  { kind: partialSellKind.kind, routes: partialSellKind.routes, createHandler: (deps) => createRehearsalSellHandler(deps, 'partial') },
  { kind: claimPositionKind.kind, routes: claimPositionKind.routes, createHandler: (deps) => createRehearsalClaimHandler(deps) },
];
