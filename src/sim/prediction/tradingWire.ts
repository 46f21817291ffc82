import { SystemWallet } from '../ledger.js';
import { MICRO, pricesOf, type PMarket, type PredictionMarkets } from './markets.js';
import type { HistoryRow, POrder, Position } from './types.js';
import { contractFields, DEFAULT_SLIPPAGE_BPS, eventMetadata, marketIdHash, marketMetadata } from './wire.js';

const M = BigInt(MICRO);

/** What the wire builders read: the market catalogue, the orders (for open-order counts), the slot. */
export interface WireContext {
  readonly markets: PredictionMarkets;
  readonly orders: readonly POrder[];
  readonly marketPubkey: (m: PMarket | string) => string;
  readonly slot: number;
}

/** The `Position` wire shape (prediction.yaml): every required field, micro-USD as strings. */
export function positionWire(ctx: WireContext, p: Position): Record<string, unknown> {
  const market = ctx.markets.market(p.marketId) as PMarket;
  const prices = pricesOf(market);
  const mark = market.result !== null ? ((market.result === 'yes') === p.isYes ? MICRO : 0) : p.isYes ? market.mid : MICRO - market.mid;
  const sell = p.isYes ? prices.sellYes : prices.sellNo;
  const value = (p.contractsMicro * BigInt(mark)) / M;
  const pnl = value - p.totalCostMicro;
  const pct = p.totalCostMicro === 0n ? 0 : Number((pnl * 10_000n) / p.totalCostMicro) / 100;
  const afterFees = pnl - p.feesPaidMicro;
  const won = market.result !== null && (market.result === 'yes') === p.isYes;
  return {
    pubkey: p.pubkey,
    owner: p.wallet,
    ownerPubkey: p.wallet,
    market: ctx.marketPubkey(market),
    marketId: p.marketId,
    marketIdHash: marketIdHash(p.marketId),
    isYes: p.isYes,
    ...contractFields('contracts', p.contractsMicro),
    source: 'jupiter',
    maxSlippageBps: DEFAULT_SLIPPAGE_BPS,
    totalCostUsd: p.totalCostMicro.toString(),
    sizeUsd: p.totalCostMicro.toString(),
    valueUsd: value.toString(),
    avgPriceUsd: p.contractsMicro === 0n ? '0' : ((p.totalCostMicro * M) / p.contractsMicro).toString(),
    markPriceUsd: String(mark),
    sellPriceUsd: sell === null ? null : String(sell),
    pnlUsd: pnl.toString(),
    pnlUsdPercent: pct,
    pnlUsdAfterFees: afterFees.toString(),
    pnlUsdAfterFeesPercent: p.totalCostMicro === 0n ? 0 : Number((afterFees * 10_000n) / p.totalCostMicro) / 100,
    openOrders: ctx.orders.filter((o) => o.positionPubkey === p.pubkey && o.status === 'pending').length,
    feesPaidUsd: p.feesPaidMicro.toString(),
    realizedPnlUsd: Number(p.realizedPnlMicro),
    claimed: p.claimed,
    claimedUsd: p.claimedMicro.toString(),
    openedAt: Math.floor(p.openedAt / 1000),
    updatedAt: Math.floor(p.updatedAt / 1000),
    claimableAt: won && market.resolvedAt !== null ? Math.floor(market.resolvedAt / 1000) : null,
    payoutUsd: won ? p.contractsMicro.toString() : '0',
    bump: 255,
    eventId: market.eventId,
    eventMetadata: eventMetadata(ctx.markets.eventOf(market)),
    marketMetadata: marketMetadata(market),
    settlementDate: market.resolvedAt === null ? null : Math.floor(market.resolvedAt / 1000),
    claimable: won && !p.claimed && p.contractsMicro > 0n,
  };
}

/** The `Order` wire shape: unix seconds, `filledAt` 0 until filled. */
export function orderWire(ctx: WireContext, o: POrder): Record<string, unknown> {
  const market = ctx.markets.market(o.marketId) as PMarket;
  return {
    pubkey: o.pubkey,
    owner: o.wallet,
    ownerPubkey: o.wallet,
    market: ctx.marketPubkey(market),
    marketId: o.marketId,
    marketIdHash: marketIdHash(o.marketId),
    eventId: market.eventId,
    position: o.positionPubkey,
    status: o.status,
    isYes: o.isYes,
    isBuy: o.isBuy,
    createdAt: Math.floor(o.createdAt / 1000),
    updatedAt: Math.floor(o.updatedAt / 1000),
    contracts: (o.contractsMicro / M).toString(),
    maxFillPriceUsd: String(o.limitPrice),
    maxBuyPriceUsd: o.isBuy ? String(o.limitPrice) : null,
    minSellPriceUsd: o.isBuy ? null : String(o.limitPrice),
    filledAt: Math.floor(o.filledAt / 1000),
    filledContracts: (o.filledMicro / M).toString(),
    avgFillPriceUsd: String(o.avgFillPrice),
    settled: o.status !== 'pending',
    orderId: o.orderId,
    sizeUsd: ((o.contractsMicro * BigInt(o.limitPrice)) / M).toString(),
    eventMetadata: eventMetadata(ctx.markets.eventOf(market)),
    marketMetadata: marketMetadata(market),
    externalOrderId: o.externalOrderId,
    bump: 254,
  };
}

/** The `HistoryEvent` wire shape. */
export function historyWire(ctx: WireContext, h: HistoryRow): Record<string, unknown> {
  const o = h.order;
  const market = ctx.markets.market(h.position.marketId) as PMarket;
  const contracts = o?.contractsMicro ?? h.position.contractsMicro;
  const gross = o ? (o.filledMicro * BigInt(o.avgFillPrice)) / M : 0n;
  return {
    id: h.id,
    eventType: h.eventType,
    signature: h.signature,
    slot: String(ctx.slot),
    timestamp: Math.floor(h.timestamp / 1000),
    orderPubkey: o?.pubkey ?? '',
    positionPubkey: h.position.pubkey,
    marketId: h.position.marketId,
    ownerPubkey: h.position.wallet,
    keeperPubkey: SystemWallet.predictionVault,
    externalOrderId: o?.externalOrderId ?? '',
    orderId: o?.orderId ?? '',
    isBuy: o?.isBuy ?? false,
    isYes: h.position.isYes,
    ...contractFields('contracts', contracts),
    ...contractFields('filledContracts', o?.filledMicro ?? 0n),
    ...contractFields('contractsSettled', h.eventType === 'payout_claimed' ? h.payoutMicro : 0n),
    maxFillPriceUsd: String(o?.limitPrice ?? 0),
    avgFillPriceUsd: String(o?.avgFillPrice ?? 0),
    maxBuyPriceUsd: o?.isBuy ? String(o.limitPrice) : null,
    minSellPriceUsd: o && !o.isBuy ? String(o.limitPrice) : null,
    depositAmountUsd: (o?.depositMicro ?? 0n).toString(),
    totalCostUsd: gross.toString(),
    feeUsd: o ? o.feeMicro.toString() : null,
    grossProceedsUsd: o && !o.isBuy ? gross.toString() : '0',
    netProceedsUsd: o && !o.isBuy ? o.proceedsMicro.toString() : '0',
    transferAmountToken: null,
    realizedPnl: h.eventType === 'payout_claimed' || (o && !o.isBuy) ? h.position.realizedPnlMicro.toString() : null,
    realizedPnlBeforeFees: null,
    payoutAmountUsd: h.payoutMicro.toString(),
    eventId: market.eventId,
    marketMetadata: marketMetadata(market),
    eventMetadata: eventMetadata(ctx.markets.eventOf(market)),
  };
}
