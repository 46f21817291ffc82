/**
 * A vault (Trigger V2) executor wired by hand over the in-process simulator, the JWT taken from the
 * simulator's control, for the tick loop's tests only: the executor tests run the daemon's own wiring
 * and login (test/support/testStack.ts), and the tick tests are to move onto it too, when this file goes.
 */
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import type { IntentHandler } from '../../../../src/engine/executor/handler.js';
import { createVaultCancelHandler } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { createVaultPlaceHandler } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { type AuthedJupiterClient, withBearer } from '../../../../src/jupiter/transport.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../../src/strategies/strategyLimits.js';
import { track } from '../../store/helpers.js';
import { simFetch, SOL, USDC, world as swapWorld, type World } from './support.js';

export { SOL, USDC };
export { actions } from '../../../support/journalRows.js';

export interface VaultStack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  orders: TriggerOrders;
  authed: AuthedJupiterClient;
  executor: Executor;
  handler: IntentHandler;
  /** Routes of finished Jupiter exchanges, in order. */
  routes: string[];
}

export interface VaultWorld extends World {
  /** `maxSlippageBps`: the vault slippage cap (the config's default unless a test says otherwise). */
  bootVault(options?: { fetch?: typeof globalThis.fetch; maxSlippageBps?: number }): VaultStack;
  /** Ledger entries moving funds from our wallet into a vault (one per landed deposit). */
  deposits(): number;
  /** The simulator's price orders of our wallet. */
  simOrders(): Array<{ id: string; orderState: string; orderType: string }>;
}

export function vaultWorld(seed = 'vault'): VaultWorld {
  const w = swapWorld(seed);
  return {
    ...w,
    bootVault(options = {}) {
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
      client.events.on('request', (e) => routes.push(e.route));
      const authed = withBearer(client, () => Promise.resolve(w.sim.control.triggerToken(w.wallet.address)));
      const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: w.clock, fetch });
      const signer = createRpcGuardedSigner({ wallet: w.wallet, audit, rpc, clock: w.clock });
      const orders = new TriggerOrders(db, audit);
      const handler = createVaultPlaceHandler({
        authed,
        rpc,
        signer,
        journal,
        orders,
        clock: w.clock,
        decimalsOf: (mint) => (mint === SOL ? 9 : 6),
        maxSlippageBps: options.maxSlippageBps ?? DEFAULT_STRATEGY_LIMITS.maxVaultSlippageBps,
      });
      const cancel = createVaultCancelHandler({ authed, rpc, signer, journal, orders, clock: w.clock });
      const executor = createExecutor({ journal, db, audit, rpc, clock: w.clock, handlers: [handler, cancel] });
      return { db, audit, journal, orders, authed, executor, handler, routes };
    },
    deposits() {
      return w.sim.control.dumpLedger().entries.filter((e) => e.reason === 'deposit' && e.wallet === w.wallet.address && BigInt(e.delta) < 0n).length;
    },
    simOrders() {
      const dump = w.sim.control.dumpOrders() as { price?: Array<{ id: string; orderState: string; orderType: string; userPubkey: string }> };
      return (dump.price ?? []).filter((o) => o.userPubkey === w.wallet.address);
    },
  };
}
