/**
 * The fill of a rehearsed prediction sale or claim, in the shape a live one has (predictionFills.ts):
 * source `prediction`, the position it came from, the contracts (`prediction:<market>:yes|no`, 6
 * decimals) as the leg that leaves and USDC (6 decimals) as the leg that comes in, the fee apart in
 * USDC. Reports, P&L and the ledger read it exactly as they read a live one; the rehearsal's positions
 * overlay reads its contract leg back to know what the rehearsal no longer holds.
 */
import { contractMint, type PredictionFill } from '../engine/executor/prediction/predictionFills.js';
import { USDC_MINT } from '../jupiter/schemas/prediction.js';
import { canonicalJson } from '../store/canonicalJson.js';
import { rehearsalFillId } from './rehearsalFillId.js';

export interface RehearsedLeg {
  readonly intentId: string;
  readonly positionPubkey: string;
  readonly marketId: string;
  readonly isYes: boolean;
  /** Micro-contracts sold or claimed. */
  readonly contractsMicro: bigint;
  /** Micro-USD received, net of the fee. */
  readonly usdcMicro: bigint;
  /** Micro-USD the venue keeps; 0 for none. */
  readonly feeUsd: bigint;
  /** What the figures were taken from, kept as the fill's `raw`. */
  readonly summary: Record<string, unknown>;
  readonly at: number;
}

export function rehearsedPredictionFill(leg: RehearsedLeg): PredictionFill {
  return {
    signature: rehearsalFillId(leg.intentId),
    idx: 0,
    source: 'prediction',
    positionPubkey: leg.positionPubkey,
    inMint: contractMint(leg.marketId, leg.isYes),
    inAmount: leg.contractsMicro,
    inDecimals: 6,
    outMint: USDC_MINT,
    outAmount: leg.usdcMicro,
    outDecimals: 6,
    fee: leg.feeUsd > 0n ? { mint: USDC_MINT, amount: leg.feeUsd, decimals: 6 } : null,
    raw: canonicalJson(leg.summary),
    at: leg.at,
  };
}
