/**
 * What the caller meant a transaction to do: the guard checks a transaction against one of these,
 * never against the transaction's own claims. Amounts are base units (bigint); addresses base58.
 */

/** A transaction-type Trigger login: memo-only, signed but never sent. */
export interface LoginChallengeExpectation {
  readonly kind: 'login-challenge';
}

/** A swap from /order: at most `maxInAmount` of `inputMint` leaves, at least `minOutAmount` of the output lands in our own account. */
export interface SwapExpectation {
  readonly kind: 'swap';
  readonly inputMint: string;
  readonly outputMint: string;
  readonly maxInAmount: bigint;
  /**
   * The least output the intent accepts once slippage is spent: the checked quote's output less
   * floor(output × the slippage cap / 10 000), rounded as the program rounds, so the answer's own
   * `otherAmountThreshold` at that slippage equals it.
   */
  readonly minOutAmount: bigint;
  /** The output the checked quote promised: a route may not quote less. */
  readonly quotedOutAmount?: bigint | undefined;
  /** The strategy's (or the config's) slippage cap. */
  readonly maxSlippageBps: number;
  /**
   * The fee the answer declares (`feeBps`): Jupiter's fee inside the route, or an RFQ fill's fee
   * transfer, may be up to this and no more. @default 0 (no fee)
   */
  readonly feeBps?: number | undefined;
  /**
   * The answer said someone else pays the fees (`gasless: true`, or an RFQ maker): the fee payer may
   * be that account. Its slot may still be empty (it signs at `/execute`, after us); a signature
   * already there must verify. @default false
   */
  readonly gasless?: boolean | undefined;
  /** Who the answer says pays the signature fee (`signatureFeePayer`), when not us. */
  readonly feePayer?: string | undefined;
  /** Lamports the answer declares the taker pays back to a gasless fee payer (signature + prioritization fees). @default 0 */
  readonly declaredFeeLamports?: bigint | undefined;
  /** RFQ (`router: jupiterz`): the market maker the answer names, whose signature slot may be empty. */
  readonly rfqMaker?: string | undefined;
}

/** A Trigger V2 deposit: exactly `amount` of `mint` to our own vault, nothing else out. */
export interface VaultDepositExpectation {
  readonly kind: 'vault-deposit';
  readonly mint: string;
  readonly amount: bigint;
  /** Our vault (`GET /vault` → `vaultPubkey`). */
  readonly vault: string;
}

/** A Trigger V2 cancel (withdrawal): funds come from our vault to us; nothing leaves the wallet but fees. */
export interface VaultWithdrawalExpectation {
  readonly kind: 'vault-withdrawal';
  /** Our vault: the one co-signer allowed, and the only source of funds. */
  readonly vault: string;
}

/** A prediction buy: at most `maxAmount` of `mint` (USDC by default) is spent through the prediction program. */
export interface PredictionBuyExpectation {
  readonly kind: 'prediction-buy';
  readonly mint: string;
  readonly maxAmount: bigint;
}

/**
 * A prediction sell (whole or partial): the order instruction must sell (never buy) at most
 * `maxContracts` of our `position` on side `isYes`, at a price floor of at least `minPriceMicroUsd`,
 * under the order id the API answered. Proceeds come in; nothing leaves the wallet.
 */
export interface PredictionSellExpectation {
  readonly kind: 'prediction-sell' | 'prediction-partial-sell';
  readonly position: string;
  readonly isYes: boolean;
  /** Millionths of a contract. */
  readonly maxContracts: bigint;
  /** The strategy's floor, micro-USD per contract (0 when it sets none). */
  readonly minPriceMicroUsd: bigint;
  /** The `externalOrderId` the API answered; null when it gave none. */
  readonly externalOrderId: string | null;
}

/** A claim of a settled position: payout comes in; nothing leaves the wallet. */
export interface PredictionClaimExpectation {
  readonly kind: 'prediction-claim';
  readonly position: string;
}

export type PredictionExitExpectation = PredictionSellExpectation | PredictionClaimExpectation;

export type Expectation =
  | LoginChallengeExpectation
  | SwapExpectation
  | VaultDepositExpectation
  | VaultWithdrawalExpectation
  | PredictionBuyExpectation
  | PredictionSellExpectation
  | PredictionClaimExpectation;

export type ExpectationKind = Expectation['kind'];

/** A JSON-safe description of an expectation, for audit rows and refusal details. */
export function describeExpectation(expectation: Expectation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expectation)) out[key] = typeof value === 'bigint' ? value.toString() : value;
  return out;
}
