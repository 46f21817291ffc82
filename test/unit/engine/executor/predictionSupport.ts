/**
 * A prediction executor (sell, partial sell, claim) over the in-process simulator on a ManualClock
 * and a real SQLite file, so a test can "crash" and boot a new stack on the same file. The wallet is
 * a paper wallet: 20 YES contracts of the live NBA game's market, 30 NO of a crypto market.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { createPredictionClaimHandler } from '../../../../src/engine/executor/prediction/claimPosition.js';
import { claimPositionRoute } from '../../../../src/engine/executor/prediction/claimPosition.js';
import { partialSellRoute, sellPositionRoute } from '../../../../src/engine/executor/prediction/sellPosition.js';
import { createPredictionPartialSellHandler, createPredictionSellHandler } from '../../../../src/engine/executor/prediction/sellPosition.js';
import { createJupiterClient, type JupiterClient } from '../../../../src/jupiter/index.js';
import { createOrder, executePrediction, getAllPositions, type Position } from '../../../../src/jupiter/prediction.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import type { ClaimPositionIntent, PartialSellIntent, SellPositionIntent } from '../../../../src/strategies/intents.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal, type PlanInput } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { track } from '../../store/helpers.js';
import { simFetch, world as swapWorld, type World } from './support.js';

/** The simulator's stand-in for Jupiter's prediction program: what `prediction.program_ids` holds in paper mode. */
export const PREDICTION_PROGRAM = '3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp';
export const NBA_MARKET = 'NBA-1001-M1';
export const NBA_EVENT = 'NBA-1001';

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

const key = (rule: string, trigger: string): { key: SellPositionIntent['key']; id: string } => {
  const k = { strategy: 'nba-exit', version: 'ef'.repeat(32), rule, trigger };
  return { key: k, id: `${k.strategy}/${k.version.slice(0, 12)}/${k.rule}/${k.trigger}` };
};

export function sellIntent(position: Position, overrides: Partial<SellPositionIntent> = {}, rule = 'lock_in'): PlanInput {
  const intent: SellPositionIntent = {
    kind: 'sell-position',
    ...key(rule, position.pubkey),
    reason: `${rule}: sell the YES position`,
    evidence: { marketId: position.marketId, score: '80-60' },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro: position.contractsMicro ?? 0n,
    ...overrides,
  };
  return sellPositionRoute.plan(intent) as PlanInput;
}

export function partialIntent(position: Position, contractsMicro: bigint, rule = 'trim'): PlanInput {
  const intent: PartialSellIntent = {
    kind: 'partial-sell',
    ...key(rule, position.pubkey),
    reason: `${rule}: sell part of the position`,
    evidence: { marketId: position.marketId },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
    isYes: position.isYes,
    contractsMicro,
  };
  return partialSellRoute.plan(intent) as PlanInput;
}

export function claimIntent(position: Position): PlanInput {
  const intent: ClaimPositionIntent = {
    kind: 'claim-position',
    ...key('claim', position.pubkey),
    reason: 'claim the payout',
    evidence: { marketId: position.marketId, result: 'yes' },
    positionPubkey: position.pubkey,
    marketId: position.marketId,
  };
  return claimPositionRoute.plan(intent) as PlanInput;
}

export function predictionFills(
  db: Db,
  intentId: string,
): Array<{
  signature: string;
  idx: number;
  source: string;
  position_pubkey: string | null;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
  fee_amount: string | null;
}> {
  return db.prepare('SELECT * FROM fills WHERE intent_id = ? ORDER BY id').all(intentId) as never;
}

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
