/**
 * What `/status` (and so `jupbot status`) adds from the database: the open Trigger orders (as the
 * API lists them, leg by leg, and grouped one order per placement for the operator's view), the
 * last fills, today's figures — the P&L realized since midnight UTC (first in, first out over the
 * whole history, so a sale today is matched with what was bought before), the trades and fees —
 * and the unrealized P&L against the basis (unrealizedFigures.ts), at the live prices given.
 */
import { formatFixed } from '../money/decimal.js';
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';
import { openOrderViews, type OrderView } from './orderViews.js';
import { DAY_MS } from '../strategies/snapshot.js';
import { computePnl } from './pnl.js';
import { tokenNamer } from './tokenNames.js';
import { pendingFillJson, type PendingFillJson, toTrade, type Trade, tradeJson } from './trades.js';
import { listPendingFills } from '../store/pendingFills.js';
import type { Fixed } from '../money/decimal.js';
import { openOrderRows, type OpenOrderRow } from './openOrderRows.js';
import { unrealizedFigures, type UnrealizedJson } from './unrealizedFigures.js';

export interface StatusFigures {
  readonly openOrders: readonly Omit<OrderView, 'events'>[];
  readonly lastFills: readonly Record<string, unknown>[];
  readonly today: { readonly since: string; readonly trades: number; readonly realizedUsd: string; readonly feesUsd: string };
  /** Landed trades whose fill is not known yet. */
  readonly pendingFills: readonly PendingFillJson[];
  readonly unrealized: UnrealizedJson;
}

/** The figures, and the open orders grouped per placement (without prices: the caller measures them). */
export interface StatusReading {
  readonly figures: StatusFigures;
  readonly orderRows: readonly OpenOrderRow[];
}

/** `live`: the price feed's latest dollar prices, which the unrealized P&L is valued at first. */
export function statusReading(db: Db, now: number, live: ReadonlyMap<string, Fixed> = new Map()): StatusReading {
  return { figures: statusFigures(db, now, 5, live), orderRows: openOrderRows(db, new Map(), now) };
}

export function statusFigures(db: Db, now: number, lastFills = 5, live: ReadonlyMap<string, Fixed> = new Map()): StatusFigures {
  const { name, trades } = allTrades(db);
  return {
    openOrders: openOrderViews(db).map(({ events: _events, ...order }) => order),
    lastFills: trades.slice(-lastFills).reverse().map(tradeJson),
    pendingFills: listPendingFills(db).map(pendingFillJson),
    today: todayFigures(trades, now),
    unrealized: unrealizedFigures(db, trades, name, live, now),
  };
}

/**
 * Every fill as a trade, the newest last, and today's figures from them, as `/status` has them;
 * without the unrealized P&L, which values every holding (the fleet roster's heartbeat needs neither).
 */
export function todayTrades(db: Db, now: number): { readonly trades: readonly Trade[]; readonly today: StatusFigures['today'] } {
  const { trades } = allTrades(db);
  return { trades, today: todayFigures(trades, now) };
}

/** Every fill as a trade, tokens named by their pinned symbols, the newest last. */
function allTrades(db: Db): { readonly name: ReturnType<typeof tokenNamer>; readonly trades: Trade[] } {
  const name = tokenNamer(pinnedSymbols(db));
  return { name, trades: listFills(db).map((fill) => toTrade(fill, name)) };
}

function todayFigures(trades: readonly Trade[], now: number): StatusFigures['today'] {
  const since = Math.floor(now / DAY_MS) * DAY_MS;
  // Each strategy's realized P&L just before midnight and now: today's is the difference.
  const before = new Map<string | null, bigint>();
  const latest = new Map<string | null, bigint>();
  computePnl(trades, undefined, (strategy, at, realized) => {
    if (at < since) before.set(strategy, realized);
    latest.set(strategy, realized);
  });
  let realized = 0n;
  for (const [strategy, value] of latest) realized += value - (before.get(strategy) ?? 0n);
  const todays = trades.filter((t) => t.at >= since);
  return {
    since: new Date(since).toISOString(),
    trades: todays.length,
    realizedUsd: formatFixed(realized),
    feesUsd: formatFixed(todays.reduce((sum, t) => sum + (t.fee?.usd ?? 0n), 0n)),
  };
}
