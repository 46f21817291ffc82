/**
 * Every intent kind the daemon executes, listed once: each family module pairs its routes with its
 * handler, so a kind can never be routed to the journal without a handler to finish it (or handled
 * but never routed). The composition root builds this set through modeHandlerSet.ts; the tests build
 * the very same one.
 *
 * Without an authed Trigger client (no wallet login), the vault and DCA kinds are absent: their
 * intents are deferred by the executor's intake (intake.ts), never journaled.
 *
 * The daemon takes every kind. A test may name the journal kinds it is about (`kinds`): it then gets
 * the daemon's very handlers and routes for those, not a hand-built copy that could drift from them.
 */
import type { Clock } from '../../clock.js';
import type { AuthedJupiterClient, JupiterClient } from '../../jupiter/transport.js';
import type { GuardedSigner } from '../../solana/guardedSigner.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { Journal } from '../../store/journal.js';
import type { TriggerOrders } from '../../store/triggerOrders.js';
import { placeDcaOrderKind } from './dca/placeDcaOrder.js';
import type { IntentHandler } from './handler.js';
import { type ExecutableKind, intentRoutes, type IntentRoutes } from './intentKind.js';
import { claimPositionKind } from './prediction/claimPosition.js';
import { partialSellKind, sellPositionKind } from './prediction/sellPosition.js';
import type { PredictionHandlerOptions } from './prediction/predictionHandlerOptions.js';
import { DEFAULT_SWAP_POLICY, type SwapHandlerOptions, type SwapPolicy, swapKind } from './swap/swapHandler.js';
import { cancelVaultOrderKind } from './vault/cancelVaultOrder.js';
import { patchVaultOrderKind, type VaultPatchHandlerOptions } from './vault/patchVaultOrder.js';
import { placeVaultOrderKind } from './vault/placeVaultOrder.js';
import { renewVaultOrderKind } from './vault/renewVaultOrder.js';
import type { VaultHandlerOptions } from './vault/vaultHandlerOptions.js';
import type { VaultSlippageCap } from './vault/vaultSlippage.js';

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
  /** The most slippage a vault price order or one of its legs may carry (`guard.max_vault_slippage_bps`, else `guard.max_slippage_bps`). */
  readonly maxVaultSlippageBps: number;
  /** Only these journal kinds (tests wire the ones they exercise); every kind when absent. A name not in the set throws. */
  readonly kinds?: readonly string[] | undefined;
}

export interface HandlerSet {
  readonly handlers: readonly IntentHandler[];
  readonly routes: IntentRoutes;
  /** Whether the vault (Trigger V2) kinds are in the set. */
  readonly vault: boolean;
}

/** The kinds that need only the API key and the wallet. */
const OPEN_KINDS: readonly ExecutableKind<SwapHandlerOptions & PredictionHandlerOptions>[] = [swapKind, sellPositionKind, partialSellKind, claimPositionKind];
/** The kinds that need the Trigger V2 session. */
const VAULT_KINDS: readonly ExecutableKind<VaultHandlerOptions & VaultPatchHandlerOptions & VaultSlippageCap>[] = [
  placeVaultOrderKind,
  cancelVaultOrderKind,
  renewVaultOrderKind,
  patchVaultOrderKind,
  placeDcaOrderKind,
];

export function createHandlerSet(deps: HandlerSetDeps): HandlerSet {
  const { client, rpc, signer, journal, orders, clock, decimalsOf } = deps;
  const vaultKinds = deps.authed === undefined ? [] : VAULT_KINDS;
  const wanted = chosen([...OPEN_KINDS, ...vaultKinds], deps.kinds, deps.authed !== undefined);
  const open = { client, rpc, signer, journal, clock, decimalsOf, policy: deps.swap ?? DEFAULT_SWAP_POLICY };
  const built: { handler: IntentHandler; routes: ExecutableKind<never>['routes'] }[] = OPEN_KINDS.filter(wanted).map((kind) => build(kind, open));
  if (deps.authed !== undefined) {
    const vault = { authed: deps.authed, rpc, signer, journal, orders, clock, decimalsOf, maxSlippageBps: deps.maxVaultSlippageBps };
    built.push(...VAULT_KINDS.filter(wanted).map((kind) => build(kind, vault)));
  }
  return {
    handlers: built.map((b) => b.handler),
    routes: intentRoutes(...built.flatMap((b) => b.routes)),
    vault: vaultKinds.some(wanted),
  };
}

/** Every kind's route, without handlers: how the daemon journals each decided intent (tests plan through it). */
export function allKindRoutes(): IntentRoutes {
  return intentRoutes(...[...OPEN_KINDS, ...VAULT_KINDS].flatMap((kind) => kind.routes));
}

/** Whether a kind is in the set: all of them, or those named (each name must be one of `available`). */
function chosen(available: readonly ExecutableKind<never>[], names: readonly string[] | undefined, authed: boolean): (kind: ExecutableKind<never>) => boolean {
  if (names === undefined) return () => true;
  const missing = names.filter((name) => !available.some((kind) => kind.kind === name));
  if (missing.length > 0)
    throw new Error(`no ${missing.join(', ')} kind in the handler set${authed ? '' : ' (the vault kinds need an authed Trigger client)'}`);
  return (kind) => names.includes(kind.kind);
}

function build<D>(kind: ExecutableKind<D>, deps: D): { handler: IntentHandler; routes: ExecutableKind<D>['routes'] } {
  const handler = kind.createHandler(deps);
  // The journal kind ties a row to its handler: a module whose handler answers another kind is a wiring bug.
  if (handler.kind !== kind.kind) throw new Error(`the ${kind.kind} module built a handler for ${handler.kind}`);
  return { handler, routes: kind.routes };
}
