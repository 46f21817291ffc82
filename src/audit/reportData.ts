/**
 * Everything the HTML report shows, read from the database in one pass and checked first: the audit
 * chain is verified in the same run, so a report never shows figures from a log that was tampered
 * with without saying so. Every figure is exact decimal text (the P&L the same as `jupbot audit pnl
 * --json`, each trade as `jupbot audit trades --json` gives it); charts also carry a float per point,
 * for drawing only. Every time is UTC on the clock that wrote the data: in paper mode the simulated one.
 */
import { firstProblem, walkAuditChain } from '../store/chainVerifier.js';
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';
import { iterateActions } from '../store/actionQueries.js';
import { listPendingFills } from '../store/pendingFills.js';
import { newestRecordAt } from '../store/reportRecords.js';
import { versionHistory } from '../store/strategyVersions.js';
import { type Fixed, formatFixed, unitsToFixed } from '../money/decimal.js';
import { actionWords } from './actionWords.js';
import { databaseMode, type DatabaseMode } from './databaseMode.js';
import { equitySeries, valueUsd } from './equitySeries.js';
import { keptPrices, priceAt, type PriceTrack } from './keptPrices.js';
import { openOrderRows, type OpenOrderRow } from './openOrderRows.js';
import { databasePnl } from './databasePnl.js';
import { pnlJson } from './pnlJson.js';
import { thinPoints } from './thinPoints.js';
import { tokenNamer, type TokenNamer, USD_MINTS } from './tokenNames.js';
import { tradeReasons, type TradeWithReason } from './tradeReasons.js';
import { pendingFillJson, type PendingFillJson, toTrade, type Trade } from './trades.js';
import { alignedToReadings, heldAt, type VaultHolding, vaultHoldings, withVaultFunds } from './vaultHoldings.js';
import { type BalanceSnapshot, walletHistory } from './walletSnapshots.js';

/** The newest trades and actions the page lists (every one is in `jupbot audit trades` and `audit actions`). */
export const TRADES_SHOWN = 100;
export const ACTIONS_SHOWN = 40;
/** Points per chart at most: about one per two pixels of a chart 1,400 pixels wide. */
const CHART_POINTS = 700;

/** A point to draw: epoch seconds, the value as a float (drawing only), and the exact value. */
export type ChartPoint = readonly [number, number, string];

export interface HoldingRow {
  /** In the wallet's own accounts, or deposited in its open vault orders. */
  readonly where: 'wallet' | 'vault orders';
  readonly mint: string;
  readonly symbol: string;
  /** Whole tokens, exact; negative only in the fills' running sum. */
  readonly amount: string;
  readonly priceUsd: string | null;
  readonly valueUsd: string | null;
}

export interface PriceChart {
  readonly mint: string;
  readonly symbol: string;
  readonly priceUsd: string | null;
  readonly at: string | null;
  readonly points: readonly ChartPoint[];
  /** The fills of this token with a dollar price: where each was bought or sold. */
  readonly fills: readonly (readonly [number, number, 'buy' | 'sell', string])[];
}

export interface ReportData {
  /** The instant the page stands for, ISO UTC, on `clock`. */
  readonly generatedAt: string;
  /** Which clock every time on the page is read on, in words. */
  readonly clock: string;
  readonly mode: DatabaseMode;
  /** A rehearsal's database: nothing in it was signed or sent; its fills are at the prices Jupiter quoted. */
  readonly rehearsal: boolean;
  readonly chain: { readonly ok: boolean; readonly actions: number; readonly headId: number; readonly headHash: string; readonly firstBreak: string | null };
  readonly pnl: Record<string, unknown>;
  readonly equity: {
    /** `wallet`: the recorded balances; `fills`: no balances recorded, the running sum of the fills from zero. */
    readonly source: 'wallet' | 'fills';
    readonly nowUsd: string | null;
    /** Tokens held that no kept price values: left out of every figure. */
    readonly unpriced: readonly string[];
    /** `wallet.balances` actions this report could not read. */
    readonly unreadable: number;
    readonly points: readonly ChartPoint[];
  };
  readonly holdings: { readonly at: string | null; readonly rows: readonly HoldingRow[] };
  readonly prices: readonly PriceChart[];
  /** The newest {@link TRADES_SHOWN} trades, newest first. */
  readonly trades: readonly TradeWithReason[];
  readonly tradeCount: number;
  readonly openOrders: readonly OpenOrderRow[];
  /** The newest {@link ACTIONS_SHOWN} actions, newest first. */
  readonly timeline: readonly { readonly id: number; readonly at: string; readonly kind: string; readonly strategy: string | null; readonly words: string }[];
  readonly versions: readonly { readonly strategy: string; readonly version: number; readonly sha256: string; readonly appliedAt: string }[];
  /** Landed trades whose fill is not known yet: counted nowhere above until it is. */
  readonly pendingFills: readonly PendingFillJson[];
}

/**
 * The report of `db` at `now`. `clock` says whose clock `now` is: `daemon` for the daemon's own page
 * (in paper mode its simulated clock: the data's), `wall` for `jupbot report`, whose clock is not a
 * paper database's — such a page stands at the newest instant the database records.
 */
export function reportData(db: Db, now: number, clock: 'daemon' | 'wall' = 'daemon'): ReportData {
  const chain = walkAuditChain(db, () => undefined);
  const mode = databaseMode(db);
  const simulated = mode.mode === 'paper';
  const asOf = clock === 'wall' && mode.mode !== 'live' && mode.mode !== 'rehearsal' ? (newestRecordAt(db) ?? now) : now;
  const name = tokenNamer(pinnedSymbols(db));
  const trades = listFills(db).map((fill) => toTrade(fill, name));
  const prices = keptPrices(db);
  const wallet = walletHistory(db, trades);
  // Deposits are not fills: the fills' running sum never saw them leave, so only recorded balances add them back.
  const vaults = wallet.source === 'wallet' ? alignedToReadings(vaultHoldings(db), wallet.snapshots) : [];
  const equity = equitySeries(withVaultFunds(wallet.snapshots, vaults), prices, asOf);
  const reasons = tradeReasons(db);
  return {
    generatedAt: new Date(asOf).toISOString(),
    clock: simulated
      ? `UTC, on the paper world's simulated clock${clock === 'wall' ? ' (as of the newest record)' : ''}`
      : mode.mode === null
        ? `UTC, on the clock of the daemon that wrote it${clock === 'wall' ? ' (as of the newest record)' : ''}`
        : 'UTC',
    mode,
    rehearsal: mode.mode === 'rehearsal',
    chain: {
      ok: chain.ok,
      actions: chain.checked,
      headId: chain.headId,
      headHash: chain.headHash,
      firstBreak: chain.ok ? null : (firstProblem(chain) ?? null),
    },
    pnl: pnlJson(databasePnl(db, {}, { trades })),
    equity: {
      source: wallet.source,
      nowUsd: equity.points.length === 0 ? null : formatFixed((equity.points[equity.points.length - 1] as { usd: Fixed }).usd),
      unpriced: equity.unpriced.map(name),
      unreadable: wallet.unreadable,
      points: thinPoints(
        equity.points.map((p): ChartPoint => [p.at / 1000, Number(formatFixed(p.usd)), formatFixed(p.usd)]),
        CHART_POINTS,
        (p) => p[1],
      ),
    },
    holdings: holdingsAt(wallet.snapshots, vaults, prices, asOf, name),
    prices: priceCharts(prices, trades, asOf, name),
    trades: trades.slice(-TRADES_SHOWN).reverse().map(reasons),
    tradeCount: trades.length,
    openOrders: openOrderRows(db, prices, asOf),
    timeline: [...iterateActions(db, { limit: ACTIONS_SHOWN })].reverse().map((a) => ({
      id: a.id,
      at: new Date(a.at).toISOString(),
      kind: a.kind,
      strategy: a.strategy,
      words: actionWords(a, name),
    })),
    pendingFills: listPendingFills(db).map(pendingFillJson),
    versions: versionHistory(db).map((v) => ({ ...v, appliedAt: new Date(v.appliedAt).toISOString() })),
  };
}

/**
 * What the last snapshot at or before `at` holds, and what the open vault orders hold then, each
 * token at its newest kept price, most valuable first.
 */
function holdingsAt(
  snapshots: readonly BalanceSnapshot[],
  vaults: readonly VaultHolding[],
  prices: ReadonlyMap<string, PriceTrack>,
  at: number,
  name: TokenNamer,
): ReportData['holdings'] {
  const last = snapshots.filter((s) => s.at <= at).pop();
  if (last === undefined) return { at: null, rows: [] };
  const held: { where: HoldingRow['where']; mint: string; units: bigint; decimals: number }[] = [...last.balances].map(([mint, b]) => ({
    where: 'wallet',
    mint,
    ...b,
  }));
  const inVaults = new Map<string, { units: bigint; decimals: number }>();
  for (const v of vaults) {
    const units = heldAt(v, at);
    if (units > 0n) inVaults.set(v.mint, { decimals: v.decimals, units: (inVaults.get(v.mint)?.units ?? 0n) + units });
  }
  for (const [mint, v] of inVaults) held.push({ where: 'vault orders', mint, ...v });
  const rows = held.map((h) => {
    const price = priceAt(prices, h.mint, at);
    return { ...h, symbol: name(h.mint), price, value: price === null ? null : valueUsd(h.units, h.decimals, price) };
  });
  rows.sort((a, b) => (a.value === null ? 1 : b.value === null ? -1 : a.value > b.value ? -1 : a.value < b.value ? 1 : a.symbol.localeCompare(b.symbol)));
  return {
    at: new Date(last.at).toISOString(),
    rows: rows.map((r) => ({
      where: r.where,
      mint: r.mint,
      symbol: r.symbol,
      amount: formatFixed(unitsToFixed(r.units, r.decimals)),
      priceUsd: r.price === null ? null : formatFixed(r.price),
      valueUsd: r.value === null ? null : formatFixed(r.value),
    })),
  };
}

/** One chart per token with kept prices (dollars aside), those traded first, with the fills priced in dollars marked. */
function priceCharts(prices: ReadonlyMap<string, PriceTrack>, trades: readonly Trade[], asOf: number, name: TokenNamer): PriceChart[] {
  const fills = new Map<string, Trade[]>();
  for (const t of trades) {
    if (t.priceUsd === null || t.side === 'swap') continue;
    const list = fills.get(t.token.mint);
    if (list === undefined) fills.set(t.token.mint, [t]);
    else list.push(t);
  }
  const charts: (PriceChart & { traded: number })[] = [];
  for (const track of prices.values()) {
    if (USD_MINTS.has(track.mint)) continue;
    const points: ChartPoint[] = [];
    let lastAt: number | undefined;
    track.times.forEach((at, i) => {
      if (at > asOf) return;
      const usd = formatFixed(track.usd[i] as Fixed);
      points.push([at / 1000, Number(usd), usd]);
      lastAt = at;
    });
    const last = points[points.length - 1];
    if (last === undefined || lastAt === undefined) continue;
    const marks = (fills.get(track.mint) ?? []).map((t) => {
      const usd = formatFixed(t.priceUsd as Fixed);
      return [t.at / 1000, Number(usd), t.side as 'buy' | 'sell', usd] as const;
    });
    const bySide = (side: 'buy' | 'sell'): (typeof marks)[number][] =>
      thinPoints(
        marks.filter((m) => m[2] === side),
        CHART_POINTS,
        (m) => m[1],
      );
    charts.push({
      mint: track.mint,
      symbol: name(track.mint),
      priceUsd: last[2],
      at: new Date(lastAt).toISOString(),
      points: thinPoints(points, CHART_POINTS, (p) => p[1]),
      fills: [...bySide('buy'), ...bySide('sell')].sort((a, b) => a[0] - b[0]),
      traded: marks.length,
    });
  }
  charts.sort((a, b) => b.traded - a.traded || a.symbol.localeCompare(b.symbol));
  return charts.map(({ traded: _traded, ...chart }) => chart);
}
