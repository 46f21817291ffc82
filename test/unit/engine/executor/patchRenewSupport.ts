/**
 * A vault stack with every vault handler: place, cancel, renew, and the PATCH call
 * handler, over the simulator on a ManualClock and a real SQLite file (a "crash" is a new stack on
 * the same file).
 */
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { createVaultCancelHandler } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { createVaultPatchHandler } from '../../../../src/engine/executor/vault/patchVaultOrder.js';
import { createVaultPlaceHandler } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { createVaultRenewHandler } from '../../../../src/engine/executor/vault/renewVaultOrder.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { type AuthedJupiterClient, withBearer } from '../../../../src/jupiter/transport.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc, type SolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../../src/strategies/strategyLimits.js';
import { track } from '../../store/helpers.js';
import { simFetch, SOL } from './support.js';
import type { VaultWorld } from './vaultSupport.js';

export interface FullVaultStack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  orders: TriggerOrders;
  authed: AuthedJupiterClient;
  rpc: SolanaRpc;
  executor: Executor;
  /** Routes of finished Jupiter exchanges, in order. */
  routes: string[];
}

/**
 * `maxSlippageBps`: the vault slippage cap (the config's default unless a test says otherwise);
 * `fetch`: what the clients talk to the simulator through (a recording one, say).
 */
export function bootFull(w: VaultWorld, seed = 'patch-renew', options: { maxSlippageBps?: number; fetch?: typeof globalThis.fetch } = {}): FullVaultStack {
  const maxSlippageBps = options.maxSlippageBps ?? DEFAULT_STRATEGY_LIMITS.maxVaultSlippageBps;
  const { db } = openStore(w.file, { clock: w.clock });
  track(db);
  const audit = new AuditLog(db, w.clock);
  const journal = new Journal(db, audit, w.clock);
  const fetch = options.fetch ?? simFetch(w.sim);
  const client = createJupiterClient({
    baseUrl: 'http://sim.local',
    apiKey: 'vault-test-key',
    requestsPerSecond: 10,
    clock: w.clock,
    random: createRandom(seed),
    fetch,
  });
  const routes: string[] = [];
  client.events.on('request', (e) => routes.push(`${e.method} ${e.route}`));
  const authed = withBearer(client, () => Promise.resolve(w.sim.control.triggerToken(w.wallet.address)));
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: w.clock, fetch });
  const signer = createRpcGuardedSigner({ wallet: w.wallet, audit, rpc, clock: w.clock });
  const orders = new TriggerOrders(db, audit);
  const place = createVaultPlaceHandler({ authed, rpc, signer, journal, orders, clock: w.clock, decimalsOf: (mint) => (mint === SOL ? 9 : 6), maxSlippageBps });
  const cancel = createVaultCancelHandler({ authed, rpc, signer, journal, orders, clock: w.clock });
  const renew = createVaultRenewHandler({ authed, rpc, signer, journal, orders, clock: w.clock });
  const patch = createVaultPatchHandler({ authed, journal, orders, clock: w.clock, maxSlippageBps });
  const executor = createExecutor({ journal, rpc, clock: w.clock, handlers: [place, cancel, renew, patch] });
  return { db, audit, journal, orders, authed, rpc, executor, routes };
}

export function crash(s: FullVaultStack): void {
  s.executor.stop();
  s.db.close();
}

/** The simulator's view of one of our price orders. */
export function simOrder(
  w: VaultWorld,
  id: string,
): { id: string; orderState: string; triggerPriceUsd: number | null; initialInputAmount: string; expiresAt: number | null } | undefined {
  const dump = w.sim.control.dumpOrders() as {
    price?: Array<{ id: string; orderState: string; triggerPriceUsd: number | null; initialInputAmount: string; expiresAt: number | null }>;
  };
  return (dump.price ?? []).find((o) => o.id === id);
}

/** Ledger amounts our wallet moved into a vault, one entry per landed deposit. */
export function depositAmounts(w: VaultWorld): bigint[] {
  return w.sim.control
    .dumpLedger()
    .entries.filter((e) => e.reason === 'deposit' && e.wallet === w.wallet.address && BigInt(e.delta) < 0n)
    .map((e) => -BigInt(e.delta));
}
