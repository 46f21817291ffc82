/**
 * A trade as the trades commands print it: its CSV record and its cells in the table, shared by
 * `audit trades` over one database and over several.
 */
import { formatFixed } from '../money/decimal.js';
import { amountText, significantText } from '../money/humanFigures.js';
import { tradeMatches } from '../audit/databasePnl.js';
import { tokenNamer } from '../audit/tokenNames.js';
import { pendingFillJson, type PendingFillJson, toTrade, type Trade } from '../audit/trades.js';
import { listPendingFills } from '../store/pendingFills.js';
import type { Db } from '../store/db.js';
import { type FillFilter, listFills, pinnedSymbols } from '../store/fillRecords.js';

export interface TradeOptions {
  json?: true;
  csv?: true;
  since?: number;
  until?: number;
  strategy?: string;
  token?: string;
}

/** Trades of the database matching the options; a `--token` symbol is looked up among the names fills use. */
export function tradesOf(db: Db, options: TradeOptions): Trade[] {
  const name = tokenNamer(pinnedSymbols(db));
  const filter: FillFilter = { since: options.since, until: options.until, strategy: options.strategy };
  const trades = listFills(db, filter).map((fill) => toTrade(fill, name));
  return options.token === undefined ? trades : trades.filter((t) => tradeMatches(t, { token: options.token }));
}

/** The landed trades of the database whose fill is not known yet: listed as pending, never left out. */
export function pendingOf(db: Db, options: TradeOptions): PendingFillJson[] {
  return listPendingFills(db)
    .filter((p) => options.strategy === undefined || p.strategy === options.strategy)
    .map(pendingFillJson);
}

/** The trades CSV's columns. */
export const CSV_HEADER = [
  'at',
  'strategy',
  'strategy_version',
  'source',
  'side',
  'token',
  'token_mint',
  'token_amount',
  'counter',
  'counter_mint',
  'counter_amount',
  'price_usd',
  'fee_token',
  'fee_amount',
  'fee_usd',
  'intent_id',
  'order_id',
  'signature',
  'idx',
];

/** A pending fill in the trades CSV: side `pending`, no amounts. */
export function pendingCsvRow(p: PendingFillJson): (string | number | null)[] {
  return [p.since, p.strategy, null, null, 'pending', null, null, null, null, null, null, null, null, null, null, p.intentId, null, p.signature, null];
}

/** A trade as a CSV record matching {@link CSV_HEADER}. */
export function csvRow(t: Trade): (string | number | null)[] {
  return [
    new Date(t.at).toISOString(),
    t.strategy,
    t.strategyVersion,
    t.source,
    t.side,
    t.token.symbol,
    t.token.mint,
    formatFixed(t.token.amount),
    t.counter.symbol,
    t.counter.mint,
    formatFixed(t.counter.amount),
    t.priceUsd === null ? null : formatFixed(t.priceUsd),
    t.fee?.symbol ?? null,
    t.fee === null ? null : formatFixed(t.fee.amount),
    t.fee?.usd === null || t.fee === null ? null : formatFixed(t.fee.usd),
    t.intentId,
    t.orderId,
    t.signature,
    t.idx,
  ];
}

/** The table's cells: time, strategy, side, token, what for, price, fee, signature (shortened). */
export function tradeCells(t: Trade): string[] {
  return [
    `${new Date(t.at).toISOString().slice(0, 19)}Z`,
    t.strategy ?? '(adopted)',
    t.side,
    `${amountText(t.token.amount)} ${t.token.symbol}`,
    `${amountText(t.counter.amount)} ${t.counter.symbol}`,
    t.priceUsd === null ? '—' : `$${significantText(t.priceUsd)}`,
    t.fee === null ? '—' : `${amountText(t.fee.amount)} ${t.fee.symbol}`,
    t.signature.slice(0, 12),
  ];
}
