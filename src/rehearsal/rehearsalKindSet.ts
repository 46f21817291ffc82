/**
 * Every intent kind a rehearsal executes, listed once, with the routes live mode uses for it (so a
 * rehearsed strategy decides what it would decide live). A kind missing here is deferred by the
 * executor's intake, never journaled: a rehearsal has no live handler to fall back on.
 */
import type { HandlerSet } from '../engine/executor/kindSet.js';
import { intentRoutes } from '../engine/executor/intentKind.js';
import { swapRoute } from '../engine/executor/swap/swapHandler.js';
import { createRehearsalSwapHandler } from './rehearsalSwap.js';
import type { RehearsalDeps, RehearsalKind } from './rehearsalKind.js';
import { rehearsalPredictionKinds } from './rehearsalPredictionKinds.js';
import { REHEARSAL_VAULT_KINDS } from './rehearsalVaultKinds.js';

const rehearsalSwapKind: RehearsalKind = {
  kind: 'swap',
  routes: [swapRoute],
  createHandler: (deps) => createRehearsalSwapHandler({ ...deps, policy: deps.swap }),
};

export const REHEARSAL_KINDS: readonly RehearsalKind[] = [rehearsalSwapKind, ...REHEARSAL_VAULT_KINDS, ...rehearsalPredictionKinds];

export function createRehearsalHandlerSet(deps: RehearsalDeps): HandlerSet {
  const built = REHEARSAL_KINDS.map((kind) => {
    const handler = kind.createHandler(deps);
    if (handler.kind !== kind.kind) throw new Error(`the rehearsal ${kind.kind} module built a handler for ${handler.kind}`);
    return { handler, routes: kind.routes };
  });
  return {
    handlers: built.map((b) => b.handler),
    routes: intentRoutes(...built.flatMap((b) => b.routes)),
    // Vault orders are simulated in the ledger (no Trigger session): the mirror's history syncs do not run.
    vault: false,
  };
}
