/**
 * Everything the HTML report shows, read from the database in one pass and checked first: the audit
 * chain is verified in the same run, so a report never shows figures from a log that was tampered
 * with without saying so. Every figure is exact decimal text, the same as `jupbot audit pnl --json`.
 */
import { firstProblem, walkAuditChain } from '../store/chainVerifier.js';
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';
import { versionHistory } from '../store/strategyVersions.js';
import { formatFixed } from '../strategies/decimal.js';
import { type OrderView, openOrderViews } from './orderViews.js';
import { computePnl } from './pnl.js';
import { pnlJson } from './pnlJson.js';
import { tokenNamer } from './tokenNames.js';
import { pendingFillJson, type PendingFillJson, toTrade } from './trades.js';
import { listPendingFills } from '../store/pendingFills.js';
import { isRehearsalDatabase } from '../store/rehearsalMark.js';

export interface ReportData {
  readonly generatedAt: string;
  /** A rehearsal's database: nothing in it was signed or sent; its fills are at the prices Jupiter quoted. */
  readonly rehearsal: boolean;
  readonly chain: { readonly ok: boolean; readonly actions: number; readonly headId: number; readonly headHash: string; readonly firstBreak: string | null };
  readonly pnl: Record<string, unknown>;
  /** Cumulative realized P&L per strategy, after each of its sells: [epoch s, dollars]. */
  readonly realizedSeries: readonly { readonly strategy: string; readonly points: readonly [number, number][] }[];
  /** Dollar price of each token at each priced fill: [epoch s, dollars]. */
  readonly priceSeries: readonly { readonly symbol: string; readonly points: readonly [number, number][] }[];
  readonly openOrders: readonly OrderView[];
  readonly versions: readonly { readonly strategy: string; readonly version: number; readonly sha256: string; readonly appliedAt: string }[];
  /** Landed trades whose fill is not known yet: counted nowhere above until it is. */
  readonly pendingFills: readonly PendingFillJson[];
}

export function reportData(db: Db, now: number): ReportData {
  const chain = walkAuditChain(db, () => undefined);
  const name = tokenNamer(pinnedSymbols(db));
  const trades = listFills(db).map((fill) => toTrade(fill, name));
  // Charts take numbers: the series are the exact figures rounded to a float only here, for drawing.
  const realized = new Map<string, [number, number][]>();
  const report = computePnl(trades, undefined, (strategy, at, value) => {
    const key = strategy ?? '(adopted)';
    const list = realized.get(key) ?? [];
    list.push([at / 1000, Number(formatFixed(value))]);
    realized.set(key, list);
  });
  const prices = new Map<string, [number, number][]>();
  for (const trade of trades) {
    if (trade.priceUsd === null) continue;
    const list = prices.get(trade.token.symbol) ?? [];
    list.push([trade.at / 1000, Number(formatFixed(trade.priceUsd))]);
    prices.set(trade.token.symbol, list);
  }
  return {
    generatedAt: new Date(now).toISOString(),
    rehearsal: isRehearsalDatabase(db),
    chain: {
      ok: chain.ok,
      actions: chain.checked,
      headId: chain.headId,
      headHash: chain.headHash,
      firstBreak: chain.ok ? null : (firstProblem(chain) ?? null),
    },
    pnl: pnlJson(report),
    realizedSeries: [...realized].map(([strategy, points]) => ({ strategy, points })),
    priceSeries: [...prices].map(([symbol, points]) => ({ symbol, points })),
    openOrders: openOrderViews(db),
    pendingFills: listPendingFills(db).map(pendingFillJson),
    versions: versionHistory(db).map((v) => ({ ...v, appliedAt: new Date(v.appliedAt).toISOString() })),
  };
}
