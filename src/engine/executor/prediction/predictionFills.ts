/**
 * The fills a position's history proves. A sell transaction only opens an order that a keeper fills
 * later, and a claim pays out on landing: in both cases the amounts are the history's
 * (`order_filled`, `payout_claimed`), never the build's estimate.
 */
import type { HistoryEvent } from '../../../jupiter/predictionHistory.js';
import { USDC_MINT } from '../../../jupiter/schemas/prediction.js';
import { canonicalJson } from '../../../store/canonicalJson.js';
import type { FillInput } from '../../../store/journal.js';

/** The leg of contracts in `fills`: docs/audit.md (`prediction:<marketId>:yes|no`, 6 decimals). */
export function contractMint(marketId: string, isYes: boolean): string {
  return `prediction:${marketId}:${isYes ? 'yes' : 'no'}`;
}

export type PredictionFill = FillInput & { readonly positionPubkey: string };

/** Which position a history event belongs to, and what to use where the event is silent. */
interface Leg {
  readonly positionPubkey: string;
  readonly marketId: string;
  readonly isYes: boolean;
  readonly fallbackSignature: string;
  readonly now: number;
}

/** The fill of a keeper's `order_filled` event for a sell: contracts in, net USDC out, the fee apart. */
export function sellFill(event: HistoryEvent, leg: Leg): PredictionFill | undefined {
  const contracts = event.filledContractsMicro ?? event.contractsMicro;
  const net = event.netProceedsUsd;
  if (contracts === null || contracts === undefined || net === null || net === undefined || contracts <= 0n || net < 0n) return undefined;
  const fee = event.feeUsd;
  return historyFill(event, leg, contracts, net, fee === null || fee === undefined || fee <= 0n ? null : { mint: USDC_MINT, amount: fee, decimals: 6 });
}

/** The fill of a `payout_claimed` event: the contracts settled, the payout in USDC (claims are free). */
export function claimFill(event: HistoryEvent, leg: Leg & { readonly contractsMicro: bigint }): PredictionFill | undefined {
  const payout = event.payoutAmountUsd;
  if (payout === null || payout === undefined || payout < 0n) return undefined;
  return historyFill(event, leg, leg.contractsMicro, payout, null);
}

/** Contracts (6 decimals) in, USDC (6 decimals) out, as the event states them. */
function historyFill(event: HistoryEvent, leg: Leg, contracts: bigint, usdc: bigint, fee: FillInput['fee']): PredictionFill {
  return {
    signature: event.signature || leg.fallbackSignature,
    idx: 0,
    source: 'prediction',
    positionPubkey: leg.positionPubkey,
    inMint: contractMint(leg.marketId, leg.isYes),
    inAmount: contracts,
    inDecimals: 6,
    outMint: USDC_MINT,
    outAmount: usdc,
    outDecimals: 6,
    fee,
    raw: canonicalJson(summary(event)),
    at: typeof event.timestamp === 'number' ? event.timestamp * 1000 : leg.now,
  };
}

function summary(event: HistoryEvent): Record<string, unknown> {
  const str = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : v.toString());
  return {
    id: event.id,
    eventType: event.eventType,
    signature: event.signature ?? null,
    timestamp: event.timestamp ?? null,
    orderPubkey: event.orderPubkey ?? null,
    positionPubkey: event.positionPubkey ?? null,
    filledContractsMicro: str(event.filledContractsMicro),
    feeUsd: str(event.feeUsd),
    grossProceedsUsd: str(event.grossProceedsUsd),
    netProceedsUsd: str(event.netProceedsUsd),
    payoutAmountUsd: str(event.payoutAmountUsd),
  };
}
