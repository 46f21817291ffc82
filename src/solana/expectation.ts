/**
 * What the caller meant a transaction to do: the guard checks a transaction against one of these,
 * never against the transaction's own claims. Amounts are base units (bigint); addresses base58.
 */

/** A transaction-type Trigger login: memo-only, signed but never sent. */
export interface LoginChallengeExpectation {
  readonly kind: 'login-challenge';
}

/** A swap from /order: at most `maxInAmount` of `inputMint` leaves, the output lands in our own account. */
export interface SwapExpectation {
  readonly kind: 'swap';
  readonly inputMint: string;
  readonly outputMint: string;
  readonly maxInAmount: bigint;
  /** Gasless orders are paid by Jupiter's gas wallet (reference §3.2). @default false */
  readonly gasless?: boolean;
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

/** A prediction sell (whole or partial) or claim: proceeds come in; nothing leaves the wallet but fees. */
export interface PredictionExitExpectation {
  readonly kind: 'prediction-sell' | 'prediction-partial-sell' | 'prediction-claim';
}

export type Expectation =
  | LoginChallengeExpectation
  | SwapExpectation
  | VaultDepositExpectation
  | VaultWithdrawalExpectation
  | PredictionBuyExpectation
  | PredictionExitExpectation;

export type ExpectationKind = Expectation['kind'];

/** A JSON-safe description of an expectation, for audit rows and refusal details. */
export function describeExpectation(expectation: Expectation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expectation)) out[key] = typeof value === 'bigint' ? value.toString() : value;
  return out;
}
