/**
 * A Trigger V2 DCA executor over the in-process simulator (vaultSupport's world: a ManualClock, a real
 * SQLite file, a crash is closing it and booting again): the price and DCA place handlers and the
 * cancel handler, the sync options with adoption enabled, and a way to place orders the daemon did
 * not place (straight against the simulator, as the Jupiter UI would).
 */
import { VersionedTransaction } from '@solana/web3.js';
import { createDcaPlaceHandler } from '../../../../src/engine/executor/dca/placeDcaOrder.js';
import { dcaPlacePlan } from '../../../../src/engine/executor/dca/placeDcaOrder.js';
import { createExecutor } from '../../../../src/engine/executor/executor.js';
import { createVaultCancelHandler } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { vaultCancelPlan } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { createVaultPlaceHandler } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import type { VaultSyncOptions } from '../../../../src/engine/mirror/orderSync.js';
import type { FeedEvents, Poller } from '../../../../src/engine/feeds/poller.js';
import type { OrderSnapshot } from '../../../../src/engine/feeds/orders.js';
import type { AuthedJupiterClient } from '../../../../src/jupiter/transport.js';
import {
  craftDeposit,
  createDcaOrder,
  createPriceOrder,
  getAllDcaHistory,
  getAllOrderHistory,
  getVault,
  registerVault,
} from '../../../../src/jupiter/trigger.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import type { PlaceDcaVaultOrderIntent } from '../../../../src/strategies/intents.js';
import type { PlanInput } from '../../../../src/store/journal.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';
import { simFetch } from './support.js';
import { SOL, USDC, vaultWorld, type VaultStack, type VaultWorld } from './vaultSupport.js';

export { SOL, USDC };
export { actions } from './vaultSupport.js';

const decimalsOf = (mint: string): number => (mint === SOL ? 9 : 6);

export interface DcaStack extends VaultStack {
  /** Sync options with adoption enabled (audit + decimalsOf). */
  sync: VaultSyncOptions;
}

export interface DcaWorld extends VaultWorld {
  bootDca(options?: { fetch?: typeof globalThis.fetch }): DcaStack;
  /** The simulator's DCA orders of our wallet. */
  simDca(): Array<{ id: string; state: string; roundsFilled: number; inputAmountRemaining: string }>;
  /** A DCA order placed straight against the simulator (not by the daemon); its id and deposit signature. */
  foreignDca(authed: AuthedJupiterClient, rounds?: number): Promise<{ id: string; txSignature: string }>;
  /** A single price order (or, with `slPriceUsd`, an OCO: `triggerPriceUsd` is its take-profit) placed straight against the simulator. */
  foreignPrice(authed: AuthedJupiterClient, triggerPriceUsd: number, slPriceUsd?: number): Promise<{ id: string; txSignature: string }>;
  /** Withdrawals of `mint` from the vault back to our wallet (landed cancels). */
  withdrawals(mint: string): number;
}

export function dcaWorld(seed = 'dca'): DcaWorld {
  const w = vaultWorld(seed);
  const sign = (base64: string): string =>
    Buffer.from(w.wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(base64, 'base64'))).serialize()).toString('base64');
  const ensure = async (authed: AuthedJupiterClient): Promise<void> => {
    await getVault(authed).catch(() => registerVault(authed));
  };
  return {
    ...w,
    bootDca(options = {}) {
      const stack = w.bootVault(options);
      const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: w.clock, fetch: options.fetch ?? simFetch(w.sim) });
      const signer = createRpcGuardedSigner({ wallet: w.wallet, audit: stack.audit, rpc, clock: w.clock });
      const deps = { authed: stack.authed, rpc, signer, journal: stack.journal, orders: stack.orders, clock: w.clock, decimalsOf };
      const dca = createDcaPlaceHandler(deps);
      const executor = createExecutor({
        journal: stack.journal,
        db: stack.db,
        audit: stack.audit,
        rpc,
        clock: w.clock,
        handlers: [createVaultPlaceHandler({ ...deps, maxSlippageBps: 300 }), createVaultCancelHandler(deps), dca],
      });
      return { ...stack, executor, handler: dca, sync: { orders: stack.orders, journal: stack.journal, clock: w.clock, audit: stack.audit, decimalsOf } };
    },
    simDca() {
      const dump = w.sim.control.dumpOrders() as {
        dca?: Array<{ id: string; wallet: string; state: string; roundsFilled: number; inputAmountRemaining: string }>;
      };
      return (dump.dca ?? []).filter((o) => o.wallet === w.wallet.address).map(({ wallet: _w, ...o }) => o);
    },
    async foreignDca(authed, rounds = 2) {
      await ensure(authed);
      const amount = 20_000_000n * BigInt(rounds);
      const craft = await craftDeposit(authed, { inputMint: USDC, outputMint: SOL, userAddress: w.wallet.address, amount, orderType: 'dca' });
      return createDcaOrder(authed, {
        depositRequestId: craft.requestId,
        depositSignedTx: sign(craft.transaction),
        userPubkey: w.wallet.address,
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: amount,
        orderCount: rounds,
        intervalSeconds: 60,
      });
    },
    async foreignPrice(authed, triggerPriceUsd, slPriceUsd) {
      await ensure(authed);
      const orderType = slPriceUsd === undefined ? 'single' : 'oco';
      const craft = await craftDeposit(authed, {
        inputMint: SOL,
        outputMint: USDC,
        userAddress: w.wallet.address,
        amount: 200_000_000n,
        orderType: 'price',
        orderSubType: orderType,
      });
      const levels = slPriceUsd === undefined ? { triggerCondition: 'above' as const, triggerPriceUsd } : { tpPriceUsd: triggerPriceUsd, slPriceUsd };
      return createPriceOrder(authed, {
        orderType,
        depositRequestId: craft.requestId,
        depositSignedTx: sign(craft.transaction),
        userPubkey: w.wallet.address,
        inputMint: SOL,
        inputAmount: 200_000_000n,
        outputMint: USDC,
        triggerMint: SOL,
        ...levels,
        expiresAt: w.clock.now() + 7 * 86_400_000,
      });
    },
    withdrawals(mint) {
      return w.sim.control
        .dumpLedger()
        .entries.filter((e) => e.reason === 'withdrawal' && e.wallet === w.wallet.address && e.mint === mint && BigInt(e.delta) > 0n).length;
    },
  };
}

/** A DCA order of `rounds` × 20 USDC into SOL, one round a minute (the strategy file's `execution: vault`). */
export function dcaVaultIntent(overrides: Partial<PlaceDcaVaultOrderIntent> = {}, rounds = 3): PlanInput {
  const key = { strategy: 'dca-vault', version: 'ef'.repeat(32), rule: 'vault_dca', trigger: 'g0' };
  return dcaPlacePlan({
    kind: 'place-dca-vault-order',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`,
    reason: 'place a DCA order buying SOL',
    evidence: { payBalance: '500000000', perRound: '20000000' },
    inputMint: USDC,
    inputDecimals: 6,
    outputMint: SOL,
    inputAmount: 20_000_000n * BigInt(rounds),
    orderCount: rounds,
    intervalSeconds: 60,
    orderType: 'time_based',
    ...overrides,
  });
}

/** Cancel a DCA order (two steps). */
export function dcaCancelIntent(orderId: string): PlanInput {
  const key = { strategy: 'dca-vault', version: 'ef'.repeat(32), rule: 'cancel', trigger: orderId };
  return vaultCancelPlan({
    kind: 'cancel-vault-order',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/cancel/${orderId}`,
    reason: 'stop the DCA',
    evidence: {},
    orderId,
    family: 'dca',
  });
}

/** Both history reads, as the feeds would hand them over. */
export async function histories(
  authed: AuthedJupiterClient,
): Promise<{ price: Awaited<ReturnType<typeof getAllOrderHistory>>; dca: Awaited<ReturnType<typeof getAllDcaHistory>> }> {
  return { price: await getAllOrderHistory(authed), dca: await getAllDcaHistory(authed) };
}

/** A feed the test drives by hand: `emit(items)` is one poll. */
export function manualFeed<T>(): { feed: Poller<OrderSnapshot<T>>; emit: (items: readonly T[], at: number) => void } {
  const events = new TypedEmitter<FeedEvents<OrderSnapshot<T>>>();
  return {
    feed: { events } as unknown as Poller<OrderSnapshot<T>>,
    emit: (items, at) => events.emit('updated', { feed: 'test', value: { active: items, recentPast: [] }, at, durationMs: 0 }),
  };
}

export function rows<T>(stack: VaultStack, sql: string, ...args: unknown[]): T[] {
  return stack.db.prepare(sql).all(...args) as T[];
}
