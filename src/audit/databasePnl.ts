/**
 * The P&L of a database, the one way every command computes it (`jupbot audit pnl`, `jupbot
 * backtest`'s summary, today's figures in `/status`): its fills as trades, the units the wallet held
 * before jupbot at their basis (heldBefore.ts), valued at the closing prices (closingPrices.ts).
 *
 * Filters: `until` ends the history (trades and closing prices before it). `since`, `strategy` and
 * `token` narrow the trades counted, as before; the pre-held units are still handed out as the whole
 * history hands them out (a narrowed report replays those takes), and the wallet's pre-held
 * holdings are shown unless the report is narrowed to a strategy (they belong to none).
 */
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';
import { closingPrices } from './closingPrices.js';
import { preHeldLots } from './heldBefore.js';
import { computePnl, type PnlReport, type PositionListener, type RealizedListener } from './pnl.js';
import { allocatedPool, sharedPool } from './preHeldPool.js';
import { tokenNamer } from './tokenNames.js';
import { toTrade, type Trade } from './trades.js';

export interface PnlFilter {
  /** At or after, epoch ms. */
  readonly since?: number | undefined;
  /** Before, epoch ms: the end of the history. */
  readonly until?: number | undefined;
  readonly strategy?: string | undefined;
  /** A symbol (any case) or a mint, on either leg. */
  readonly token?: string | undefined;
}

const matchesToken = (token: string, leg: { mint: string; symbol: string }): boolean => leg.mint === token || leg.symbol.toLowerCase() === token.toLowerCase();

/** Whether a trade passes the narrowing filters (`since`, `strategy`, `token`). */
export function tradeMatches(trade: Trade, filter: PnlFilter): boolean {
  if (filter.since !== undefined && trade.at < filter.since) return false;
  if (filter.strategy !== undefined && trade.strategy !== filter.strategy) return false;
  return filter.token === undefined || matchesToken(filter.token, trade.token) || matchesToken(filter.token, trade.counter);
}

/**
 * `options.trades`: every fill of the database as a trade, oldest first, when the caller has read
 * them already (the report, the backtest summary): they are not read and converted twice. Only
 * without `filter.until`, which narrows what is read.
 */
export function databasePnl(
  db: Db,
  filter: PnlFilter = {},
  options: { onRealized?: RealizedListener; onPosition?: PositionListener; trades?: readonly Trade[] } = {},
): PnlReport {
  const name = tokenNamer(pinnedSymbols(db));
  const all =
    options.trades !== undefined && filter.until === undefined ? options.trades : listFills(db, { until: filter.until }).map((fill) => toTrade(fill, name));
  const prices = closingPrices(db, all, filter.until);
  const pool = sharedPool(preHeldLots(db, name));
  const narrowed = filter.since !== undefined || filter.strategy !== undefined || filter.token !== undefined;
  const full = computePnl(all, prices, narrowed ? undefined : options.onRealized, narrowed ? undefined : options.onPosition, pool);
  if (!narrowed) return full;
  const token = filter.token;
  const shown = filter.strategy !== undefined ? [] : pool.remaining().filter((r) => token === undefined || matchesToken(token, r.lot));
  return computePnl(
    all.filter((t) => tradeMatches(t, filter)),
    prices,
    options.onRealized,
    options.onPosition,
    allocatedPool(pool.taken, shown),
  );
}
