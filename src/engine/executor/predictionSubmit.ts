/**
 * What the prediction handlers share: sending signed bytes (`POST /prediction/v1/execute` with the
 * build's `execution.context`, or the RPC when that context is gone after a restart — both are
 * documented ways to submit, reference §6.2), the lifetime of a build's blockhash, and reading the
 * position back to tell "refused for good" from "not now" when a build is refused.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { ExecuteFailedError, PredictionApiError } from '../../jupiter/errors.js';
import { executePrediction, getMarket, getPosition, type Position } from '../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { IntentRefusedError } from './errors.js';
import type { SignedRow, SubmitResult } from './handler.js';
import { classify } from './vaultOrders.js';

/** Solana: a blockhash is accepted for 150 blocks after it was issued. */
const BLOCKHASH_VALID_BLOCKS = 150;

/**
 * The `execution.context` of builds this process signed, by signature. Not journaled: after a
 * restart the same bytes go through the RPC instead, which needs no context.
 */
export type ExecutionContexts = Map<string, Record<string, unknown>>;

/** What a send did: `landed` (/execute reports it landed without error), else a result to hand back as is. */
export type SendOutcome = SubmitResult | { readonly kind: 'landed'; readonly signature: string; readonly via: string };

/** Sends the row's bytes unchanged. */
export async function sendSigned(client: JupiterClient, rpc: SolanaRpc, contexts: ExecutionContexts, row: SignedRow, mode: 'first' | 'resend'): Promise<SendOutcome> {
  const base64 = Buffer.from(row.signedTx).toString('base64');
  const context = contexts.get(row.signature);
  if (context !== undefined) {
    try {
      // No stop signal: a submission that has started finishes, so its answer is not lost needlessly.
      const answer = await executePrediction(client, { signedTransaction: base64, context }, { priority: Priority.Exit });
      return { kind: 'landed', signature: answer.signature ?? row.signature, via: 'execute' };
    } catch (error) {
      if (error instanceof ExecuteFailedError) {
        // "Failed" with a signature may have landed with a program error: the chain says which.
        // Without one, this call did not land it; the bytes may still land until they expire.
        const data = { via: 'execute', mode, signature: error.signature };
        return error.signature ? { kind: 'unknown', code: error.code, message: error.message, data } : { kind: 'rejected', code: error.code, message: error.message, data };
      }
      return classify(error, mode);
    }
  }
  try {
    const signature = await rpc.sendTransaction(base64, { skipPreflight: false, maxRetries: 0 });
    return { kind: 'unknown', code: 'SENT_VIA_RPC', message: 'sent through RPC sendTransaction (no execution context after a restart)', data: { via: 'rpc', mode, signature } };
  } catch (error) {
    return classify(error, mode);
  }
}

/** The build's lastValidBlockHeight, else now + 150 (an upper bound: waiting longer is safe, expiring early is not). */
export async function lifetimeOf(rpc: SolanaRpc, bytes: Uint8Array, txMeta: { lastValidBlockHeight: number } | null | undefined): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
  const blockhash = VersionedTransaction.deserialize(bytes).message.recentBlockhash;
  const lastValidBlockHeight = txMeta ? txMeta.lastValidBlockHeight : (await rpc.getBlockHeight()) + BLOCKHASH_VALID_BLOCKS;
  return { blockhash, lastValidBlockHeight };
}

/** A 4xx from a builder: Jupiter answered and refused (as opposed to a 5xx or a lost answer). */
export function isBuildRefusal(error: unknown): error is PredictionApiError {
  return error instanceof PredictionApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/** The position as the API has it now, or null when it does not know it (404). */
export async function positionNow(client: JupiterClient, positionPubkey: string, signal: AbortSignal): Promise<Position | null> {
  try {
    return await getPosition(client, { positionPubkey }, { signal, priority: Priority.Exit });
  } catch (error) {
    if (error instanceof PredictionApiError && error.code === 'PREDICTION_NOT_FOUND') return null;
    throw error;
  }
}

/**
 * After a refused sell build: fails the intent for good when the position is gone (no contracts,
 * claimed, unknown) or its market no longer trades; otherwise rethrows `error` — a paused trading
 * status, say, is "not now", and the intent stays planned (reconcile's stale limit bounds it).
 */
export async function explainSellRefusal(client: JupiterClient, params: { positionPubkey: string; marketId: string }, error: PredictionApiError, signal: AbortSignal): Promise<never> {
  const api = { apiCode: error.apiCode, status: error.status, message: error.message };
  const position = await positionNow(client, params.positionPubkey, signal);
  const contracts = position?.contractsMicro ?? 0n;
  if (position === null || contracts <= 0n || position.claimed === true) {
    throw new IntentRefusedError('PREDICTION_POSITION_GONE', `position ${params.positionPubkey} has nothing left to sell (${position === null ? 'unknown to the API' : position.claimed === true ? 'claimed' : 'no contracts'})`, {
      ...api,
      contractsMicro: contracts.toString(),
      claimed: position?.claimed ?? null,
    });
  }
  const market = await getMarket(client, { marketId: params.marketId }, { signal, priority: Priority.Exit });
  if (market.status !== 'open') {
    throw new IntentRefusedError('PREDICTION_MARKET_CLOSED', `market ${params.marketId} is ${market.status}${market.result ? ` (result ${market.result})` : ''}: it cannot be sold`, { ...api, marketStatus: market.status, result: market.result });
  }
  throw error;
}
