/**
 * `GET /prediction/v1/history` for one position: the keeper's answers to our orders (`order_filled`,
 * `order_failed`) and claim payouts (`payout_claimed`), with the amounts that really moved.
 */
import { z } from 'zod';
import { predictionError } from './prediction.js';
import { MicroUnits, MicroUsd } from './schemas/common.js';
import { type JupiterClient, Priority } from './transport.js';
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
export async function positionHistory(
  client: JupiterClient,
  params: { ownerPubkey: string; positionPubkey: string },
  signal?: AbortSignal,
): Promise<HistoryEvent[]> {
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
