/**
 * Every intent kind the daemon executes: its handler and its route, built together so a kind can
 * never be routed to the journal without a handler to finish it (or handled but never routed).
 * trading.ts wires this set; the end-to-end tests build the very same one.
 *
 * Without an authed Trigger client (no wallet login), the vault kinds are absent: their intents are
 * deferred by the tick loop, never journaled.
 */
import type { Clock } from '../../clock.js';
import { searchTokens, type TokenPrice } from '../../jupiter/tokens.js';
import type { AuthedJupiterClient, JupiterClient } from '../../jupiter/transport.js';
import type { GuardedSigner } from '../../solana/guardedSigner.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { Journal } from '../../store/journal.js';
import type { TriggerOrders } from '../../store/triggerOrders.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import { placeDcaVaultOrderRoute } from './dcaParams.js';
import { createDcaPlaceHandler } from './dcaPlaceHandler.js';
import type { IntentHandler } from './handler.js';
import { intentRoutes, type IntentRoutes } from './intentRoute.js';
import { createPredictionClaimHandler } from './predictionClaimHandler.js';
import { predictionRoutes } from './predictionParams.js';
import { createPredictionPartialSellHandler, createPredictionSellHandler } from './predictionSellHandler.js';
import { createSwapHandler, DEFAULT_SWAP_POLICY, type SwapPolicy } from './swapHandler.js';
import { swapRoute } from './swapParams.js';
import { createVaultCancelHandler } from './vaultCancelHandler.js';
import { cancelVaultOrderRoute, placeVaultOrderRoute } from './vaultParams.js';
import { createVaultPatchHandler } from './vaultPatchHandler.js';
import { patchVaultOrderRoute } from './vaultPatchParams.js';
import { createVaultPlaceHandler } from './vaultPlaceHandler.js';
import { createVaultRenewHandler } from './vaultRenewHandler.js';
import { renewVaultOrderRoute } from './vaultRenewParams.js';

export interface HandlerSetDeps {
  readonly client: JupiterClient;
  /** The Trigger V2 session's client; without it there are no vault handlers. */
  readonly authed?: AuthedJupiterClient | undefined;
  readonly rpc: SolanaRpc;
  readonly signer: GuardedSigner;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly clock: Clock;
  readonly decimalsOf: (mint: string) => Promise<number>;
  /** Routers never asked for, and the slippage cap when a strategy sets none. */
  readonly swap?: SwapPolicy | undefined;
}

export interface HandlerSet {
  readonly handlers: readonly IntentHandler[];
  readonly routes: IntentRoutes;
  /** Whether the vault (Trigger V2) kinds are in the set. */
  readonly vault: boolean;
}

export function createHandlerSet(deps: HandlerSetDeps): HandlerSet {
  const { client, rpc, signer, journal, orders, clock, decimalsOf } = deps;
  const policy = deps.swap ?? DEFAULT_SWAP_POLICY;
  const prediction = { client, rpc, signer, journal, clock };
  const handlers: IntentHandler[] = [
    createSwapHandler({ client, rpc, signer, clock, decimalsOf, policy }),
    createPredictionSellHandler(prediction),
    createPredictionPartialSellHandler(prediction),
    createPredictionClaimHandler(prediction),
  ];
  if (deps.authed === undefined) return { handlers, routes: intentRoutes(swapRoute, ...predictionRoutes), vault: false };
  const vault = { authed: deps.authed, rpc, signer, journal, orders, clock, decimalsOf };
  handlers.push(
    createVaultPlaceHandler(vault),
    // A renewal is a cancel that plans its replacement when it confirms: the renew wrapper is the cancel handler.
    createVaultRenewHandler(createVaultCancelHandler(vault), clock),
    createVaultPatchHandler(vault),
    createDcaPlaceHandler(vault),
  );
  const routes = intentRoutes(swapRoute, ...predictionRoutes, placeVaultOrderRoute, cancelVaultOrderRoute, patchVaultOrderRoute, renewVaultOrderRoute, placeDcaVaultOrderRoute);
  return { handlers, routes, vault: true };
}

/**
 * Decimals of a mint, for fills: from the strategies' resolved tokens, else the price feed's last
 * value, else one token search.
 */
export function decimalsResolver(options: {
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  readonly prices: () => ReadonlyMap<string, TokenPrice> | undefined;
  readonly client: JupiterClient;
}): (mint: string) => Promise<number> {
  return async (mint) => {
    for (const strategy of options.strategies().values()) {
      for (const token of Object.values(strategy.tokens)) if (token?.mint === mint) return token.decimals;
    }
    const priced = options.prices()?.get(mint);
    if (priced) return priced.decimals;
    const found = (await searchTokens(options.client, { query: mint })).find((t) => t.id === mint);
    if (!found) throw new Error(`decimals of ${mint} unknown`);
    return found.decimals;
  };
}
