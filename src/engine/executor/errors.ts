import { JupbotError } from '../../errors.js';

/**
 * Why the executor failed an intent for good (besides a GuardRefusal, `GUARD_REFUSED`). Stable codes,
 * listed in docs/executor.md; they land in `intents.error_code` and the `intent.failed` action.
 */
export type ExecutorErrorCode =
  /** The quote's price impact exceeds the intent's `maxPriceImpactBps`. */
  | 'RISK_PRICE_IMPACT'
  /** The intent limits price impact but the quote does not report one. */
  | 'RISK_PRICE_IMPACT_UNKNOWN'
  /** The quote is not for what the intent asked (mints or amount differ). */
  | 'QUOTE_MISMATCH'
  /** Jupiter cannot build the transaction (insufficient funds, gas, …); the `SWAP_ORDER_*` code is in details. */
  | 'QUOTE_UNBUILDABLE'
  /** The landed transaction failed on chain (program error, e.g. slippage); fees were paid. */
  | 'LANDED_FAILED'
  /** Every allowed attempt expired without landing. */
  | 'ATTEMPTS_EXHAUSTED'
  /** No handler for the intent's kind (recorded as `intent.error`; the intent stays pending). */
  | 'NO_HANDLER'
  /** The journal row's params do not parse for its kind. */
  | 'PARAMS_INVALID'
  /** Planned too long ago to act on safely (reconcile's `staleAfterMs`). */
  | 'STALE_INTENT'
  /** Trigger V2 crafted a deposit that is not the intent's (mint, amount or vault differ): nothing signed. */
  | 'DEPOSIT_MISMATCH'
  /** A vault order's `expiresAt` passed before it could be placed: nothing signed. */
  | 'VAULT_ORDER_EXPIRED'
  /** The order to cancel was adopted (placed elsewhere): the daemon never acts on it. */
  | 'VAULT_ORDER_ADOPTED'
  /** The order to cancel or update is no longer open (filled, completed, cancelled): nothing to act on. */
  | 'VAULT_ORDER_NOT_OPEN'
  /** A prediction sell build's floor (`minSellPriceUsd`) is below the intent's minimum sell price: nothing signed. */
  | 'RISK_MIN_SELL_PRICE'
  /** The intent has a minimum sell price but the build states no floor: nothing signed. */
  | 'RISK_MIN_SELL_PRICE_UNKNOWN'
  /** The prediction build is not the intent's (position, market, side, contracts) or has no transaction. */
  | 'PREDICTION_BUILD_MISMATCH'
  /** The position to sell no longer exists, holds no contracts or was claimed: nothing to sell. */
  | 'PREDICTION_POSITION_GONE'
  /** The position's market is closed or cancelled: it cannot be sold (a winner is claimed instead). */
  | 'PREDICTION_MARKET_CLOSED'
  /** The sell transaction landed but the keeper failed or closed its order: nothing sold, fee paid. */
  | 'PREDICTION_ORDER_FAILED'
  /** Nothing to claim: the position is unknown, lost, empty or already claimed (e.g. auto-claimed). */
  | 'PREDICTION_NOTHING_TO_CLAIM';

/** The intent must not be carried out: it is failed (recorded) and never retried. */
export class IntentRefusedError extends JupbotError {
  override name = 'IntentRefusedError';
  declare readonly code: ExecutorErrorCode;

  constructor(code: ExecutorErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}

/**
 * Not a failure: the intent is waiting for someone else (a keeper to fill the order its landed
 * transaction opened). It stays where it is and the next pass looks again; recorded as
 * `intent.waiting`, logged at info, and not counted as an error.
 */
export class IntentWaitingError extends JupbotError {
  override name = 'IntentWaitingError';

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}
