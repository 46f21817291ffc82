/**
 * A prediction executor (sell, partial sell, claim) wired by hand over the in-process simulator, for
 * the tick loop's tests only: the executor tests run the daemon's own wiring (test/support/testStack.ts),
 * and the tick tests are to move onto it too, when this file goes. The wallet is a paper wallet: 20
 * YES contracts of the live NBA game's market, 30 NO of a crypto market.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { createPredictionClaimHandler } from '../../../../src/engine/executor/prediction/claimPosition.js';
import { createPredictionPartialSellHandler, createPredictionSellHandler } from '../../../../src/engine/executor/prediction/sellPosition.js';
import { createJupiterClient, type JupiterClient } from '../../../../src/jupiter/index.js';
import { createOrder, executePrediction, getAllPositions, type Position } from '../../../../src/jupiter/prediction.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { track } from '../../store/helpers.js';
import { simFetch, world as swapWorld, type World } from './support.js';

/** The simulator's stand-in for Jupiter's prediction program: what `prediction.program_ids` holds in paper mode. */
export const PREDICTION_PROGRAM = '3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp';
export { NBA_EVENT, NBA_MARKET } from '../../../support/intentPlans.js';

export interface PredictionStack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  client: JupiterClient;
  executor: Executor;
  routes: string[];
}

export interface PredictionWorld extends World {
  bootPrediction(options?: { predictionPrograms?: readonly string[] }): PredictionStack;
  /** Our open positions as the API lists them. */
  positions(client: JupiterClient): Promise<Position[]>;
  /** The simulator's prediction orders of our wallet. */
  simOrders(): Array<{ pubkey: string; status: string; isBuy: boolean }>;
}

export function predictionWorld(seed = 'prediction'): PredictionWorld {
  const w = swapWorld(seed);
  w.sim.control.paperWallet(w.wallet.address);
  return {
    ...w,
    bootPrediction(options = {}) {
      const { db } = openStore(w.file, { clock: w.clock });
      track(db);
      const audit = new AuditLog(db, w.clock);
      const journal = new Journal(db, audit, w.clock);
      const fetch = simFetch(w.sim);
      const client = createJupiterClient({
        baseUrl: 'http://sim.local',
        apiKey: 'prediction-test-key',
        requestsPerSecond: 10,
        clock: w.clock,
        random: createRandom(seed),
        fetch,
      });
      const routes: string[] = [];
      client.events.on('request', (e) => routes.push(e.route));
      const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock: w.clock, fetch });
      const signer = createRpcGuardedSigner({
        wallet: w.wallet,
        audit,
        rpc,
        clock: w.clock,
        predictionPrograms: options.predictionPrograms ?? [PREDICTION_PROGRAM],
      });
      const deps = { client, rpc, signer, journal, clock: w.clock };
      const handlers = [createPredictionSellHandler(deps), createPredictionPartialSellHandler(deps), createPredictionClaimHandler(deps)];
      const executor = createExecutor({ journal, db, audit, rpc, clock: w.clock, handlers });
      return { db, audit, journal, client, executor, routes };
    },
    positions: (client) => getAllPositions(client, { ownerPubkey: w.wallet.address }),
    simOrders() {
      const dump = w.sim.control.dumpOrders() as { prediction?: Array<{ pubkey: string; status: string; isBuy: boolean; ownerPubkey: string }> };
      return (dump.prediction ?? []).filter((o) => o.ownerPubkey === w.wallet.address);
    },
  };
}

export { fills as predictionFills } from '../../../support/journalRows.js';

/**
 * Buys `usd` dollars of one side of a market with the world's wallet through the API (build, sign,
 * `/execute`), then lets the keeper fill it: a position to manage in any game, not only the paper
 * wallet's.
 */
export async function buyPosition(w: World, marketId: string, isYes = true, usd = 10n): Promise<void> {
  const client = createJupiterClient({
    baseUrl: 'http://sim.local',
    apiKey: 'prediction-buy-key',
    requestsPerSecond: 100,
    clock: w.clock,
    random: createRandom(`buy:${marketId}`),
    fetch: simFetch(w.sim),
  });
  const build = await createOrder(client, { ownerPubkey: w.wallet.address, marketId, isYes, isBuy: true, depositAmount: usd * 1_000_000n });
  const tx = w.wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(build.transaction ?? '', 'base64')));
  const done = await executePrediction(client, {
    signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
    ...(build.execution ? { context: build.execution.context } : {}),
  });
  if (done.status !== 'Success') throw new Error(`buying ${marketId}: ${done.error ?? done.status}`);
  await w.sim.control.advance(2_000);
}
