/**
 * A prediction build that Jupiter refused (a 4xx): "refused for good" or "not now" is told by reading
 * the position and its market back, never by the refusal's wording.
 */
import { PredictionApiError } from '../../../jupiter/errors.js';
import { getMarket, getPosition, type Position } from '../../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../../jupiter/transport.js';
import { IntentRefusedError } from '../errors.js';

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
export async function explainSellRefusal(
  client: JupiterClient,
  params: { positionPubkey: string; marketId: string },
  error: PredictionApiError,
  signal: AbortSignal,
): Promise<never> {
  const api = { apiCode: error.apiCode, status: error.status, message: error.message };
  const position = await positionNow(client, params.positionPubkey, signal);
  const contracts = position?.contractsMicro ?? 0n;
  if (position === null || contracts <= 0n || position.claimed === true) {
    throw new IntentRefusedError(
      'PREDICTION_POSITION_GONE',
      `position ${params.positionPubkey} has nothing left to sell (${position === null ? 'unknown to the API' : position.claimed === true ? 'claimed' : 'no contracts'})`,
      {
        ...api,
        contractsMicro: contracts.toString(),
        claimed: position?.claimed ?? null,
      },
    );
  }
  const market = await getMarket(client, { marketId: params.marketId }, { signal, priority: Priority.Exit });
  if (market.status !== 'open') {
    throw new IntentRefusedError(
      'PREDICTION_MARKET_CLOSED',
      `market ${params.marketId} is ${market.status}${market.result ? ` (result ${market.result})` : ''}: it cannot be sold`,
      { ...api, marketStatus: market.status, result: market.result },
    );
  }
  throw error;
}
