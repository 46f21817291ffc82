/**
 * A fill as the auditor reads it: which token was bought or sold, for how much, at what price in
 * dollars, with which fee. A fill with a dollar leg (USDC, USDT) is a `buy` (dollars in) or a `sell`
 * (dollars out) of the other token; a fill between two other tokens is a `swap` of the one given for
 * the one received, and has no dollar price. Amounts are exact decimal text, never floats.
 */
import type { PendingFill } from '../store/pendingFills.js';
import type { FillRecord } from '../store/fillRecords.js';
import { divFixed, formatFixed, type Fixed, mulFixed, unitsToFixed } from '../money/decimal.js';
import { type TokenNamer, USD_MINTS } from './tokenNames.js';

export interface TradeLeg {
  readonly mint: string;
  readonly symbol: string;
  /** Base units, as stored. */
  readonly units: bigint;
  readonly decimals: number;
  /** The same amount in whole tokens, exact. */
  readonly amount: Fixed;
}

export interface Trade {
  readonly at: number;
  readonly strategy: string | null;
  readonly strategyVersion: number | null;
  readonly source: FillRecord['source'];
  readonly side: 'buy' | 'sell' | 'swap';
  /** The token bought or sold (for a swap: the one given). */
  readonly token: TradeLeg;
  /** What was paid or received for it (for a swap: the one received). */
  readonly counter: TradeLeg;
  /** Dollars per token, when the counter leg is a dollar. */
  readonly priceUsd: Fixed | null;
  readonly fee: (TradeLeg & { readonly usd: Fixed | null }) | null;
  readonly intentId: string | null;
  readonly orderId: string | null;
  readonly signature: string;
  readonly idx: number;
}

function leg(mint: string, units: bigint, decimals: number, name: TokenNamer): TradeLeg {
  return { mint, symbol: name(mint), units, decimals, amount: unitsToFixed(units, decimals) };
}

export function toTrade(fill: FillRecord, name: TokenNamer): Trade {
  const given = leg(fill.in_mint, BigInt(fill.in_amount), fill.in_decimals, name);
  const received = leg(fill.out_mint, BigInt(fill.out_amount), fill.out_decimals, name);
  const side =
    USD_MINTS.has(given.mint) && !USD_MINTS.has(received.mint) ? 'buy' : USD_MINTS.has(received.mint) && !USD_MINTS.has(given.mint) ? 'sell' : 'swap';
  const [token, counter] = side === 'buy' ? [received, given] : [given, received];
  const priceUsd = side !== 'swap' && token.amount > 0n ? divFixed(counter.amount, token.amount) : null;
  let fee: Trade['fee'] = null;
  if (fill.fee_mint !== null && fill.fee_amount !== null && fill.fee_decimals !== null) {
    const paid = leg(fill.fee_mint, BigInt(fill.fee_amount), fill.fee_decimals, name);
    const usd = USD_MINTS.has(paid.mint) ? paid.amount : paid.mint === token.mint && priceUsd !== null ? mulFixed(paid.amount, priceUsd) : null;
    fee = { ...paid, usd };
  }
  return {
    at: fill.at,
    strategy: fill.strategy,
    strategyVersion: fill.strategy_version,
    source: fill.source,
    side,
    token,
    counter,
    priceUsd,
    fee,
    intentId: fill.intent_id,
    orderId: fill.trigger_order_id,
    signature: fill.signature,
    idx: fill.idx,
  };
}

/** A trade as JSON: amounts and prices as exact decimal text. */
export function tradeJson(trade: Trade): Record<string, unknown> {
  const legJson = (l: TradeLeg): Record<string, unknown> => ({ mint: l.mint, symbol: l.symbol, amount: formatFixed(l.amount), units: l.units.toString() });
  return {
    at: new Date(trade.at).toISOString(),
    strategy: trade.strategy,
    strategyVersion: trade.strategyVersion,
    source: trade.source,
    side: trade.side,
    token: legJson(trade.token),
    counter: legJson(trade.counter),
    priceUsd: trade.priceUsd === null ? null : formatFixed(trade.priceUsd),
    fee: trade.fee === null ? null : { ...legJson(trade.fee), usd: trade.fee.usd === null ? null : formatFixed(trade.fee.usd) },
    intentId: trade.intentId,
    orderId: trade.orderId,
    signature: trade.signature,
    idx: trade.idx,
  };
}

/** A landed trade whose fill is not known yet (`pending_fills`), as the audit commands show it. */
export interface PendingFillJson {
  readonly pending: true;
  readonly intentId: string;
  readonly strategy: string | null;
  readonly signature: string | null;
  readonly since: string;
  readonly attempts: number;
  readonly nextLookAt: string;
  readonly reason: string;
}

export function pendingFillJson(p: PendingFill): PendingFillJson {
  return {
    pending: true,
    intentId: p.intentId,
    strategy: p.strategy,
    signature: p.signature,
    since: new Date(p.since).toISOString(),
    attempts: p.attempts,
    nextLookAt: new Date(p.nextAt).toISOString(),
    reason: p.reason,
  };
}

/** One line for people: which trade, since when, why its amounts are not known. */
export function pendingFillWords(p: PendingFillJson): string {
  return `fill pending: ${p.strategy ?? '(no strategy)'} ${p.intentId} landed${p.signature ? ` as ${p.signature}` : ''}; its amounts are not known since ${p.since} (${p.reason}); looked ${p.attempts} time(s), next at ${p.nextLookAt}`;
}
