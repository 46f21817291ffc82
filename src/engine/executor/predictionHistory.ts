/**
 * `GET /prediction/v1/history` for one position, and the fills it proves. A sell transaction only
 * opens an order that a keeper fills later (reference §6.2), and a claim pays out on landing: in both
 * cases the amounts are the history's (`order_filled`, `payout_claimed`), never the build's estimate.
 *
 * The client (src/jupiter/prediction.ts) has no history call yet; this one uses the same transport
 * and error mapping. It belongs there once that file is free to change.
 */
import { z } from 'zod';
import { predictionError } from '../../jupiter/prediction.js';
import { MicroUnits, MicroUsd } from '../../jupiter/schemas/common.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import type { FillInput } from '../../store/journal.js';

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ROUTE = '/prediction/v1/history';
/** Events of one position are few; a bounded scan keeps a misbehaving server from looping us. */
const PAGE = 50;
const MAX_PAGES = 20;

const HistoryEvent = z.looseObject({
  id: z.number().int(),
  eventType: z.string(),
  signature: z.string().nullish(),
  timestamp: z.number().nullish(),
  orderPubkey: z.string().nullish(),
  positionPubkey: z.string().nullish(),
  marketId: z.string().nullish(),
  isBuy: z.boolean().nullish(),
  isYes: z.boolean().nullish(),
  filledContractsMicro: MicroUnits.nullish(),
  contractsMicro: MicroUnits.nullish(),
  feeUsd: MicroUsd.nullish(),
  grossProceedsUsd: MicroUsd.nullish(),
  netProceedsUsd: MicroUsd.nullish(),
  payoutAmountUsd: MicroUsd.nullish(),
});
export type HistoryEvent = z.output<typeof HistoryEvent>;

const HistoryResponse = z.looseObject({
  data: z.array(HistoryEvent),
  pagination: z.looseObject({ start: z.number().int(), end: z.number().int(), hasNext: z.boolean() }).nullish(),
});

/** Every history event of a position (newest first, as the API lists them). */
export async function positionHistory(client: JupiterClient, params: { ownerPubkey: string; positionPubkey: string }, signal?: AbortSignal): Promise<HistoryEvent[]> {
  const out: HistoryEvent[] = [];
  let start = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.request({
      method: 'GET',
      path: ROUTE,
      route: ROUTE,
      query: { ownerPubkey: params.ownerPubkey, positionPubkey: params.positionPubkey, start, end: start + PAGE },
      schema: HistoryResponse,
      priority: Priority.PollState,
      mapError: predictionError,
      signal,
    });
    out.push(...answer.data);
    const p = answer.pagination;
    if (!p?.hasNext || p.end <= start) break;
    start = p.end;
  }
  return out;
}

/** The leg of contracts in `fills`: docs/audit.md (`prediction:<marketId>:yes|no`, 6 decimals). */
export function contractMint(marketId: string, isYes: boolean): string {
  return `prediction:${marketId}:${isYes ? 'yes' : 'no'}`;
}

export type PredictionFill = FillInput & { readonly positionPubkey: string };

/** The fill of a keeper's `order_filled` event for a sell: contracts in, net USDC out, the fee apart. */
export function sellFill(event: HistoryEvent, leg: { positionPubkey: string; marketId: string; isYes: boolean; fallbackSignature: string; now: number }): PredictionFill | undefined {
  const contracts = event.filledContractsMicro ?? event.contractsMicro;
  const net = event.netProceedsUsd;
  if (contracts === null || contracts === undefined || net === null || net === undefined || contracts <= 0n || net < 0n) return undefined;
  const fee = event.feeUsd;
  return {
    signature: event.signature || leg.fallbackSignature,
    idx: 0,
    source: 'prediction',
    positionPubkey: leg.positionPubkey,
    inMint: contractMint(leg.marketId, leg.isYes),
    inAmount: contracts,
    inDecimals: 6,
    outMint: USDC_MINT,
    outAmount: net,
    outDecimals: 6,
    fee: fee === null || fee === undefined || fee <= 0n ? null : { mint: USDC_MINT, amount: fee, decimals: 6 },
    raw: canonicalJson(summary(event)),
    at: typeof event.timestamp === 'number' ? event.timestamp * 1000 : leg.now,
  };
}

/** The fill of a `payout_claimed` event: the contracts settled, the payout in USDC (claims are free). */
export function claimFill(event: HistoryEvent, leg: { positionPubkey: string; marketId: string; isYes: boolean; contractsMicro: bigint; fallbackSignature: string; now: number }): PredictionFill | undefined {
  const payout = event.payoutAmountUsd;
  if (payout === null || payout === undefined || payout < 0n) return undefined;
  return {
    signature: event.signature || leg.fallbackSignature,
    idx: 0,
    source: 'prediction',
    positionPubkey: leg.positionPubkey,
    inMint: contractMint(leg.marketId, leg.isYes),
    inAmount: leg.contractsMicro,
    inDecimals: 6,
    outMint: USDC_MINT,
    outAmount: payout,
    outDecimals: 6,
    fee: null,
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
