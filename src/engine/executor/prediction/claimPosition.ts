/**
 * `claim-position`: `POST /prediction/v1/positions/{pubkey}/claim` builds the payout transaction of a
 * settled winning position; it is guarded as a `prediction-claim` (proceeds come in, nothing leaves
 * but fees), signed, and submitted unchanged. The payout lands with the transaction, so history's
 * `payout_claimed` event for our signature is the fill (recorded once, keyed by that signature).
 *
 * A position with nothing to claim (lost, empty, or already claimed — unclaimed winners are claimed
 * automatically after 24 h) fails the intent as `PREDICTION_NOTHING_TO_CLAIM`, with
 * the position as the API shows it; "Market not settled yet" is "not now" and leaves it planned.
 */
import { claimPosition, type ClaimPositionResponse, getMarket } from '../../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../../jupiter/transport.js';
import type { SignedRecord } from '../../../store/journal.js';
import { IntentRefusedError } from '../errors.js';
import type { IntentHandler, LandedReport, SignedRow, SubmitResult } from '../handler.js';
import { positionHistory } from '../../../jupiter/predictionHistory.js';
import { claimFill } from './predictionFills.js';
import type { PredictionHandlerOptions } from './predictionHandlerOptions.js';
import { isBuildRefusal, positionNow } from './buildRefusal.js';
import { type ExecutionContexts, sendSigned, signedBuild } from './predictionSend.js';
import { z } from 'zod';
import { Pubkey } from '../../../jupiter/schemas/common.js';
import type { ClaimPositionIntent } from '../../../strategies/intents.js';
import type { PlanInput } from '../../../store/journal.js';
import { type ExecutableKind, type IntentRoute, journalEntry, parseJournalParams } from '../intentKind.js';

export const PREDICTION_CLAIM_KIND = 'claim-position';

const ClaimParams = z.strictObject({
  positionPubkey: Pubkey,
  marketId: z.string().min(1),
  strategyHash: z.string().optional(),
});
export type PredictionClaimParams = z.output<typeof ClaimParams>;

export const parsePredictionClaimParams = (params: unknown): PredictionClaimParams => parseJournalParams(ClaimParams, PREDICTION_CLAIM_KIND, params);

import type { PredictionApiError } from '../../../jupiter/errors.js';

export function createPredictionClaimHandler(options: PredictionHandlerOptions): IntentHandler {
  const { client, rpc, signer, clock } = options;
  const contexts: ExecutionContexts = new Map();

  /** History's payout for our signature, as a report; undefined until history shows it. */
  async function payout(row: SignedRow, params: PredictionClaimParams): Promise<LandedReport | undefined> {
    const events = await positionHistory(client, { ownerPubkey: signer.address, positionPubkey: params.positionPubkey });
    const event = events.find((e) => e.eventType === 'payout_claimed' && e.signature === row.signature);
    if (!event) return undefined;
    const contractsMicro = event.contractsMicro ?? event.payoutAmountUsd ?? 0n;
    const fill = claimFill(event, {
      positionPubkey: params.positionPubkey,
      marketId: params.marketId,
      isYes: event.isYes ?? true,
      contractsMicro,
      fallbackSignature: row.signature,
      now: clock.now(),
    });
    const data = { via: 'history', historyId: event.id, payoutAmountUsd: event.payoutAmountUsd?.toString() ?? null };
    return fill ? { data, fills: [fill] } : { data, fills: [], fillUnknown: 'payout_claimed carries no payout amount' };
  }

  return {
    kind: PREDICTION_CLAIM_KIND,

    async prepare(row, context): Promise<SignedRecord> {
      const params = parsePredictionClaimParams(row.params);
      const build = await buildClaim(client, signer.address, params, context.signal);
      const p = build.position;
      const signed = await signer.signBase64(
        build.transaction,
        { kind: 'prediction-claim', position: params.positionPubkey },
        { strategy: row.strategy, intentId: row.id },
      );
      const execution = (build as { execution?: { context?: unknown } }).execution;
      if (execution && typeof execution.context === 'object' && execution.context !== null)
        contexts.set(signed.signature, execution.context as Record<string, unknown>);
      else contexts.set(signed.signature, {});
      return signedBuild(rpc, signed, build.txMeta, {
        contractsMicro: p.contractsMicro?.toString() ?? null,
        payoutAmountUsd: p.payoutAmountUsd?.toString() ?? null,
        isYes: p.isYes,
      });
    },

    async submit(row, mode): Promise<SubmitResult> {
      const sent = await sendSigned(client, rpc, contexts, row, mode);
      if (sent.kind !== 'landed') return sent;
      contexts.delete(row.signature);
      try {
        const report = await payout(row, parsePredictionClaimParams(row.params));
        if (report) return { kind: 'confirmed', data: report.data, fills: report.fills };
      } catch {
        // History unreadable now: the chain and the next pass decide.
      }
      return {
        kind: 'unknown',
        code: 'PREDICTION_PAYOUT_NOT_IN_HISTORY',
        message: 'the claim landed; history does not show its payout yet',
        data: { via: sent.via, mode, signature: sent.signature },
      };
    },

    async landed(row): Promise<LandedReport> {
      const report = await payout(row, parsePredictionClaimParams(row.params));
      if (!report) throw new Error(`claim ${row.signature} landed but history does not show its payout yet`);
      return report;
    },
  };
}

/**
 * Asks Jupiter to build the claim, and checks that it claims our position for us. A refusal that
 * reading the position back shows to be final fails the intent; any other is rethrown ("not now").
 */
export async function buildClaim(client: JupiterClient, owner: string, params: PredictionClaimParams, signal: AbortSignal): Promise<ClaimPositionResponse> {
  let build: ClaimPositionResponse;
  try {
    build = await claimPosition(client, { positionPubkey: params.positionPubkey, ownerPubkey: owner }, { signal, priority: Priority.Exit });
  } catch (error) {
    if (isBuildRefusal(error)) await explainClaimRefusal(client, params, error, signal);
    throw error;
  }
  const p = build.position;
  if (p.positionPubkey !== params.positionPubkey || p.ownerPubkey !== owner) {
    throw new IntentRefusedError(
      'PREDICTION_BUILD_MISMATCH',
      `the claim build is for position ${p.positionPubkey} of ${p.ownerPubkey}, not ours ${params.positionPubkey}`,
      {
        build: { positionPubkey: p.positionPubkey, ownerPubkey: p.ownerPubkey },
      },
    );
  }
  return build;
}

/** After a refused claim build: final when there is nothing to claim, else the refusal is "not now". */
async function explainClaimRefusal(client: JupiterClient, params: PredictionClaimParams, error: PredictionApiError, signal: AbortSignal): Promise<never> {
  const api = { apiCode: error.apiCode, status: error.status, message: error.message };
  const position = await positionNow(client, params.positionPubkey, signal);
  const nothing = (why: string, extra: Record<string, unknown> = {}): never => {
    throw new IntentRefusedError('PREDICTION_NOTHING_TO_CLAIM', `position ${params.positionPubkey} has nothing to claim: ${why}`, { ...api, ...extra });
  };
  if (position === null) return nothing('unknown to the API');
  if (position.claimed === true) return nothing('already claimed', { claimedUsd: position.claimedUsd?.toString() ?? null });
  if ((position.contractsMicro ?? 0n) <= 0n) return nothing('no contracts');
  const market = await getMarket(client, { marketId: params.marketId }, { signal, priority: Priority.Exit });
  if (market.status === 'cancelled') return nothing('the market was cancelled', { marketStatus: market.status });
  if (market.result !== null && (market.result === 'yes') !== position.isYes)
    return nothing(`the market resolved ${market.result}; the position lost`, { result: market.result });
  throw error;
}

export const claimPositionRoute: IntentRoute<'claim-position'> = {
  kind: 'claim-position',
  plan: (intent: ClaimPositionIntent): PlanInput =>
    journalEntry(intent, PREDICTION_CLAIM_KIND, { positionPubkey: intent.positionPubkey, marketId: intent.marketId }),
};

/** `claim-position`: the payout of a resolved market's winning position (`POST /positions/{pubkey}/claim`). */
export const claimPositionKind: ExecutableKind<PredictionHandlerOptions> = {
  kind: PREDICTION_CLAIM_KIND,
  routes: [claimPositionRoute],
  createHandler: createPredictionClaimHandler,
};
