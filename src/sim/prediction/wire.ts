import { createHash } from 'node:crypto';
import { HttpError } from '../http.js';
import { gamePhase } from './gameClock.js';
import { MICRO, pricesOf, type PEvent, type PMarket } from './markets.js';
import { formatUnits } from '../../money/formatUnits.js';
import { derivedAddress } from '../programIds.js';

/** Slippage the builders apply to the current price to set an order's limit. */
export const DEFAULT_SLIPPAGE_BPS = 200;

/** Prediction's Stripe-like error envelope (prediction.yaml ErrorResponse). */
export function predictionError(status: number, message: string, code?: string, type = 'invalid_request_error', requestId = 'sim'): HttpError {
  return new HttpError(status, { type, message, ...(code === undefined ? {} : { code }), request_id: requestId });
}

export const marketIdHash = (marketId: string): string => createHash('sha256').update(marketId).digest('hex');

/** Contracts in the three forms the API sends: legacy floored, exact micro, decimal. */
export function contractFields(prefix: string, micro: bigint): Record<string, string> {
  return {
    [prefix]: (micro / BigInt(MICRO)).toString(),
    [`${prefix}Micro`]: micro.toString(),
    [`${prefix}Decimal`]: formatUnits(micro, 6),
  };
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

export function eventMetadata(e: PEvent): Record<string, unknown> {
  const close = Math.max(...e.markets.map((m) => m.closeTime));
  return {
    eventId: e.eventId,
    title: e.title,
    subtitle: e.subcategory,
    slug: e.eventId.toLowerCase(),
    series: e.series,
    closeTime: new Date(close).toISOString(),
    imageUrl: `https://static.jup.ag/sim/events/${e.series.toLowerCase()}.png`,
    isLive: e.game !== null && e.game.finishedAt === null,
  };
}

export function marketMetadata(m: PMarket): Record<string, unknown> {
  return {
    marketId: m.marketId,
    eventId: m.eventId,
    title: m.title,
    subtitle: m.title,
    provider: 'polymarket',
    status: m.status,
    result: m.result,
    closeTime: seconds(m.closeTime),
    openTime: seconds(m.openTime),
    isTeamMarket: m.isTeamMarket,
    marketOptions: [
      { label: 'Yes', buyYes: true },
      { label: 'No', buyYes: false },
    ],
    rulesPrimary: `Resolves YES if: ${m.title}.`,
    rulesSecondary: 'Simulated market: resolved by the jupbot simulator.',
  };
}

export function marketWire(m: PMarket, marketPubkey: string): Record<string, unknown> {
  const p = pricesOf(m);
  return {
    marketId: m.marketId,
    eventId: m.eventId,
    provider: 'polymarket',
    title: m.title,
    status: m.status,
    result: m.result,
    openTime: seconds(m.openTime),
    closeTime: seconds(m.closeTime),
    resolveAt: m.resolvedAt === null ? null : new Date(m.resolvedAt).toISOString(),
    marketResultPubkey: m.result === null ? null : marketPubkey,
    imageUrl: null,
    rulesPrimary: `Resolves YES if: ${m.title}.`,
    rulesSecondary: 'Simulated market: resolved by the jupbot simulator.',
    outcomes: ['Yes', 'No'],
    marketOptions: [
      { label: 'Yes', buyYes: true },
      { label: 'No', buyYes: false },
    ],
    isTeamMarket: m.isTeamMarket,
    team: null,
    sportsLine: null,
    sportsMarketType: m.isTeamMarket ? 'moneyline' : null,
    tradable: m.status === 'open',
    lifecycleStatus: m.result !== null ? 'settled' : m.status === 'open' ? 'open' : 'resolving',
    pricing: { buyYesPriceUsd: p.buyYes, buyNoPriceUsd: p.buyNo, sellYesPriceUsd: p.sellYes, sellNoPriceUsd: p.sellNo, volume: m.volume },
  };
}

export function gameScore(e: PEvent, now: number): Record<string, unknown> | null {
  const g = e.game;
  if (!g) return null;
  const phase = gamePhase(g, now);
  return {
    eventId: e.eventId,
    gameId: g.gameId,
    leagueAbbreviation: g.league,
    homeTeam: g.home,
    awayTeam: g.away,
    score: `${g.homeScore}-${g.awayScore}`,
    period: phase.period,
    elapsed: phase.elapsed,
    status: phase.status,
    live: phase.live,
    ended: phase.ended,
    finishedTimestamp: g.finishedAt === null ? null : new Date(g.finishedAt).toISOString(),
    updatedAt: new Date(g.updatedAt).toISOString(),
  };
}

export function eventWire(e: PEvent, now: number, withMarkets: boolean, pubkeyOf: (m: PMarket) => string): Record<string, unknown> {
  const volume = e.markets.reduce((sum, m) => sum + m.volume, 0);
  return {
    eventId: e.eventId,
    isActive: e.markets.some((m) => m.status === 'open'),
    isLive: e.game !== null && now >= e.game.startsAt && e.game.finishedAt === null,
    category: e.category,
    subcategory: e.subcategory,
    metadata: eventMetadata(e),
    ...(withMarkets ? { markets: e.markets.map((m) => marketWire(m, pubkeyOf(m))) } : {}),
    volumeUsd: String(volume * MICRO),
    volume24hr: String(Math.floor(volume / 7) * MICRO),
    liveScore: gameScore(e, now),
    closeCondition: e.game ? 'Closes when the game ends.' : 'Closes at the stated time.',
    beginAt: new Date(e.beginAt).toISOString(),
    rulesPdf: `https://static.jup.ag/sim/rules/${e.eventId}.pdf`,
  };
}

/** Orderbook levels around the market's spread, in the cents and the dollars forms. */
export function orderbookWire(m: PMarket, now: number): Record<string, unknown> | null {
  const p = pricesOf(m);
  if (p.sellYes === null || p.sellNo === null) return null;
  const levels = (best: number): [number, number][] => {
    const out: [number, number][] = [];
    for (let i = 4; i >= 0; i--) {
      const cents = Math.floor(best / 10_000) - i;
      if (cents < 1) continue;
      // Sizes from a hash, not the random stream: reading a book must not change the world.
      const h = createHash('sha256')
        .update(`${m.marketId}:${cents}:${Math.floor(now / 60_000)}`)
        .digest();
      out.push([cents, 50 + (h.readUInt16BE(0) % 2000)]);
    }
    return out;
  };
  const yes = levels(p.sellYes);
  const no = levels(p.sellNo);
  const dollars = (rows: [number, number][]): [string, number][] => rows.map(([c, s]) => [(c / 100).toFixed(4), s]);
  return { yes, no, yes_dollars: dollars(yes), no_dollars: dollars(no) };
}

/** What a create-order answer needs to say about the order and the position it changes. */
export interface CreatedOrder {
  readonly orderPubkey: string;
  readonly wallet: string;
  readonly marketId: string;
  readonly position: { readonly pubkey: string; readonly isYes: boolean; readonly contractsMicro: bigint; readonly totalCostMicro: bigint };
  readonly isBuy: boolean;
  readonly contractsMicro: bigint;
  /** The price bound, micro-USD per contract. */
  readonly limit: number;
  readonly externalOrderId: string;
  readonly costMicro: bigint;
  readonly feeMicro: bigint;
}

/** The `order` of a create-order answer: its cost and fees, and the position as it will be once it fills. */
export function createdOrderWire(c: CreatedOrder): Record<string, unknown> {
  const M = BigInt(MICRO);
  const { position } = c;
  const newContracts = position.contractsMicro + (c.isBuy ? c.contractsMicro : -c.contractsMicro);
  // A sale keeps the average price: the cost basis shrinks with the contracts.
  const newCost = c.isBuy
    ? position.totalCostMicro + c.costMicro
    : position.contractsMicro === 0n
      ? 0n
      : (position.totalCostMicro * newContracts) / position.contractsMicro;
  return {
    orderPubkey: c.orderPubkey,
    orderAtaPubkey: derivedAddress(`jupbot-sim:order-ata:${c.orderPubkey}`).toBase58(),
    userPubkey: c.wallet,
    marketId: c.marketId,
    marketIdHash: marketIdHash(c.marketId),
    positionPubkey: position.pubkey,
    isBuy: c.isBuy,
    isYes: position.isYes,
    ...contractFields('contracts', c.contractsMicro),
    ...contractFields('newContracts', newContracts),
    maxBuyPriceUsd: c.isBuy ? String(c.limit) : null,
    minSellPriceUsd: c.isBuy ? null : String(c.limit),
    externalOrderId: c.externalOrderId,
    orderCostUsd: c.costMicro.toString(),
    newAvgPriceUsd: newContracts === 0n ? '0' : ((newCost * M) / newContracts).toString(),
    newSizeUsd: newCost.toString(),
    newPayoutUsd: newContracts.toString(),
    estimatedProtocolFeeUsd: '0',
    estimatedVenueFeeUsd: c.feeMicro.toString(),
    estimatedTotalFeeUsd: c.feeMicro.toString(),
    payoutUsd: c.contractsMicro.toString(),
    slippageBps: DEFAULT_SLIPPAGE_BPS,
    maxSlippageBps: null,
  };
}
