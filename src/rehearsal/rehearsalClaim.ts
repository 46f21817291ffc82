/**
 * `claim-position`, rehearsed. The claim is built through the real API with the watched wallet as
 * owner, as live mode builds it (claimPosition.ts: the same call, the same check that it claims our
 * position for us), and its transaction is judged by the guard as a `prediction-claim`; it is never
 * signed or sent.
 *
 * Filled only when the market really settled our way, read from the market itself after the build
 * (Jupiter building a claim is not taken as proof): a settled winning contract pays 1 USD, so the
 * rehearsal is paid 1 USD for each contract it still holds (positionsOverlay.ts), never more than the
 * payout the build states for them, and no fee (claims are free). A market that reads otherwise
 * fails the intent with PREDICTION_NOTHING_TO_CLAIM: no payout is rehearsed.
 */
import type { CallHandler, CallResult } from '../engine/executor/handler.js';
import { IntentRefusedError } from '../engine/executor/errors.js';
import { positionNow } from '../engine/executor/prediction/buildRefusal.js';
import { buildClaim, parsePredictionClaimParams, PREDICTION_CLAIM_KIND } from '../engine/executor/prediction/claimPosition.js';
import { getMarket } from '../jupiter/prediction.js';
import type { ClaimPositionResponse } from '../jupiter/schemas/prediction.js';
import { Priority } from '../jupiter/transport.js';
import type { PredictionClaimExpectation } from '../solana/expectation.js';
import { GuardRefusal } from '../solana/guardRefusal.js';
import { recordCost } from './ledger.js';
import { simulatedSolCost } from './simulatedSolCost.js';
import { judgeTransaction } from './judgeTransaction.js';
import { contractsTaken } from './positionsOverlay.js';
import { rehearsedPredictionFill } from './predictionFill.js';
import type { RehearsalPredictionOptions } from './rehearsalSell.js';
import { repeatUnlessStale } from './rehearsalRepeat.js';

/** 1 USD per contract: micro-contracts and micro-USD are the same number. */
export function claimPayout(contracts: bigint, build: ClaimPositionResponse['position']): bigint {
  const stated = build.payoutAmountUsd ?? null;
  const of = build.contractsMicro ?? null;
  if (stated === null || of === null || of <= 0n) return contracts;
  // The build states the payout of the real position; the rehearsal's share of it, at most 1 USD each.
  const share = (stated * contracts) / of;
  return share < contracts ? share : contracts;
}

export function createRehearsalClaimHandler(options: RehearsalPredictionOptions): CallHandler {
  const { client, guard, db, clock } = options;
  return {
    kind: PREDICTION_CLAIM_KIND,
    async call(row, context): Promise<CallResult> {
      const params = parsePredictionClaimParams(row.params);
      const nothing = (why: string, extra: Record<string, unknown> = {}): never => {
        throw new IntentRefusedError('PREDICTION_NOTHING_TO_CLAIM', `position ${params.positionPubkey} has nothing to claim: ${why}`, extra);
      };
      const position = await positionNow(client, params.positionPubkey, context.signal);
      const taken = contractsTaken(db).get(params.positionPubkey) ?? 0n;
      if (position === null) return nothing('unknown to the API');
      if (position.claimed === true) return nothing('already claimed', { claimedUsd: position.claimedUsd?.toString() ?? null });
      const left = (position.contractsMicro ?? 0n) - taken;
      if (left <= 0n) return nothing('the rehearsal sold or claimed all of it', { rehearsedMicro: taken.toString() });

      const build = await buildClaim(client, guard.address, params, context.signal);
      const expectation: PredictionClaimExpectation = { kind: 'prediction-claim', position: params.positionPubkey };
      let judged;
      try {
        judged = await judgeTransaction(guard, build.transaction, expectation, { strategy: row.strategy, intentId: row.id }, context);
      } catch (error) {
        // A refusal about the moment is asked again (the row stays sent; settle says repeat).
        if (error instanceof GuardRefusal && !error.transient)
          return { kind: 'failed', code: 'GUARD_REFUSED', message: error.message, data: { reason: error.reason, rehearsal: true } };
        throw error;
      }
      const now = clock.now();
      // The build declares no network fee: what the simulation shows the wallet paying in SOL.
      const networkFeeLamports = simulatedSolCost(judged);
      recordCost(db, row.id, networkFeeLamports, now);

      const market = await getMarket(client, { marketId: params.marketId }, { signal: context.signal, priority: Priority.Exit });
      const won = market.status !== 'cancelled' && market.result !== null && (market.result === 'yes') === position.isYes;
      if (!won)
        return nothing(
          `Jupiter built a claim, but market ${params.marketId} reads ${market.status}, result ${market.result ?? 'none'}: no payout is rehearsed`,
          {
            marketStatus: market.status,
            result: market.result,
          },
        );
      const contracts =
        build.position.contractsMicro !== null && build.position.contractsMicro !== undefined && build.position.contractsMicro < left
          ? build.position.contractsMicro
          : left;
      const payout = claimPayout(contracts, build.position);
      const summary = {
        rehearsal: true,
        contractsMicro: contracts.toString(),
        payoutUsd: payout.toString(),
        buildContractsMicro: build.position.contractsMicro?.toString() ?? null,
        buildPayoutAmountUsd: build.position.payoutAmountUsd?.toString() ?? null,
        result: market.result,
        networkFeeLamports: networkFeeLamports.toString(),
      };
      const fill = rehearsedPredictionFill({
        intentId: row.id,
        positionPubkey: params.positionPubkey,
        marketId: params.marketId,
        isYes: position.isYes,
        contractsMicro: contracts,
        usdcMicro: payout,
        feeUsd: 0n,
        summary,
        at: now,
      });
      return { kind: 'confirmed', data: summary, fills: [fill] };
    },
    settle: (row) => Promise.resolve(repeatUnlessStale(row, clock)),
  };
}
