/**
 * A vault (Trigger V2) executor over the in-process simulator on a ManualClock and a real SQLite
 * file, so a test can "crash" and boot a new stack on the same file. The JWT comes from the
 * simulator's control (these tests are not about login).
 */
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import type { IntentHandler } from '../../../../src/engine/executor/handler.js';
import { createVaultCancelHandler } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { vaultCancelPlan } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { vaultPlacePlan } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { createVaultPlaceHandler } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { type AuthedJupiterClient, withBearer } from '../../../../src/jupiter/transport.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import type { PlaceVaultOrderIntent, VaultOrderParams } from '../../../../src/strategies/intents.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal, type PlanInput } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../../src/strategies/strategyLimits.js';
import { track } from '../../store/helpers.js';
import { simFetch, SOL, USDC, world as swapWorld, type World } from './support.js';

export { SOL, USDC };

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

/** 1 SOL sold for USDC when SOL reaches $300: the vault tests' order (its expiry is each test's). */
export const SOL_TAKE_PROFIT: Omit<VaultOrderParams, 'expiresAt'> = {
  orderType: 'single',
  inputMint: SOL,
  inputDecimals: 9,
  outputMint: USDC,
  inputAmount: 1_000_000_000n,
  triggerMint: SOL,
  triggerCondition: 'above',
  triggerPriceUsd: '300',
};

/** 1 SOL into the vault, sold for USDC by a take-profit (single) or a TP/SL pair (oco). */
/** `order` overrides the take-profit's fields; a key set to undefined removes that field. */
export function vaultIntent(order: { [K in keyof VaultOrderParams]?: VaultOrderParams[K] | undefined } = {}, rule = 'take_profit[0]'): PlanInput {
  const key = { strategy: 'tp-sol', version: 'cd'.repeat(32), rule, trigger: 'gen-1' };
  const intent: PlaceVaultOrderIntent = {
    kind: 'place-vault-order',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`,
    reason: 'take profit on SOL through a vault order',
    evidence: { solUsd: '150' },
    order: {
      ...SOL_TAKE_PROFIT,
      expiresAt: Date.UTC(2026, 0, 8),
      ...(Object.fromEntries(Object.entries(order).filter(([, v]) => v !== undefined)) as Partial<VaultOrderParams>),
    },
  };
  // Fields the override names as undefined are dropped (an OCO has no trigger price or condition).
  const dropped = Object.entries(order)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  const mutable = intent.order as unknown as Record<string, unknown>;
  for (const k of dropped) Reflect.deleteProperty(mutable, k);
  return vaultPlacePlan(intent);
}

/** Cancel a price order (two steps). */
export function cancelIntent(orderId: string): PlanInput {
  const key = { strategy: 'tp-sol', version: 'cd'.repeat(32), rule: 'cancel', trigger: orderId };
  return vaultCancelPlan({
    kind: 'cancel-vault-order',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/cancel/${orderId}`,
    reason: 'cancel the take-profit',
    evidence: {},
    orderId,
    family: 'price',
  });
}

export function actions(db: Db, kind: string): Array<{ intent_id: string | null; data: string }> {
  return db.prepare('SELECT intent_id, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as Array<{ intent_id: string | null; data: string }>;
}
