/**
 * `jupbot report --db A --db B …`: one page over several wallets, each report made exactly as one
 * `--db` makes it. First the wallets side by side with their P&L and equity and the exact sum of
 * each figure; then a section per wallet (its address and file, what it verified, its P&L per
 * strategy, holdings, open orders and newest trades). No charts: one wallet's page draws them
 * (`jupbot report --db <file>`). Only verified databases reach this page (the command refuses a
 * broken chain before writing it), so it carries no NOT VERIFIED banner of its own.
 */
import { formatFixed, type Fixed } from '../money/decimal.js';
import { dollarsText, fixedOf, signedDollarsText } from './figureText.js';
import { esc, figure, table, type Column } from './htmlText.js';
import type { ReportData } from './reportData.js';
import { REPORT_CSS } from './reportStyle.js';
import { pnlOf, type PnlRow, pnlTableHtml } from './reportSummary.js';
import { holdingsHtml, ordersTableHtml, tradesTableHtml } from './reportTables.js';

export interface WalletReport {
  readonly wallet: string;
  readonly file: string;
  readonly data: ReportData;
}

/** The figures the total row adds up, exact decimal text: null when one wallet's is unknown. */
export interface WalletsTotal {
  readonly trades: number;
  readonly realizedUsd: string;
  readonly unrealizedUsd: string | null;
  readonly feesUsd: string;
  readonly unmatchedProceedsUsd: string;
  readonly basisCostUsd: string;
  readonly equityUsd: string | null;
}

const sumOf = (texts: readonly (string | null | undefined)[]): string | null => {
  const values = texts.map((t) => fixedOf(t ?? null));
  return values.some((v) => v === null) ? null : formatFixed(values.reduce<Fixed>((a, b) => a + (b as Fixed), 0n));
};

/** Each figure the exact sum of the wallets' (their P&L totals as `audit pnl --json` gives them, and their equity now). */
export function walletsTotal(reports: readonly WalletReport[]): WalletsTotal {
  const totals = reports.map((r) => pnlOf(r.data).total);
  return {
    trades: totals.reduce((n, t) => n + t.trades, 0),
    realizedUsd: sumOf(totals.map((t) => t.realizedUsd)) ?? '0',
    unrealizedUsd: sumOf(totals.map((t) => t.unrealizedUsd)),
    feesUsd: sumOf(totals.map((t) => t.feesUsd)) ?? '0',
    unmatchedProceedsUsd: sumOf(totals.map((t) => t.unmatchedProceedsUsd)) ?? '0',
    basisCostUsd: sumOf(totals.map((t) => t.basisCostUsd ?? '0')) ?? '0',
    equityUsd: sumOf(reports.map((r) => r.data.equity.nowUsd)),
  };
}

const COLUMNS: readonly Column[] = [
  { label: 'wallet' },
  { label: 'trades', num: true },
  { label: 'realized', num: true },
  { label: 'unrealized', num: true, hint: 'unknown when a holding has no price' },
  { label: 'fees', num: true, hint: 'already inside the amounts: shown, never taken twice' },
  { label: 'sold without known cost', num: true },
  { label: 'cost from basis', num: true },
  { label: 'equity', num: true, hint: 'each wallet at the newest kept prices (the fills’ running sum where it records no balances)' },
];

function totalsTable(reports: readonly WalletReport[], total: WalletsTotal): string {
  const usd = (text: string | null, field: string, tone = false): string => {
    const value = fixedOf(text);
    return figure(value === null ? null : tone ? signedDollarsText(value) : dollarsText(value), text, field, { tone, missing: 'unknown' });
  };
  const row = (name: string, key: string, t: Omit<PnlRow, 'unrealizedUsd'> & { unrealizedUsd: string | null }, equity: string | null): { cells: string[] } => ({
    cells: [
      `<th scope="row">${esc(name)}</th>`,
      figure(String(t.trades), String(t.trades), `${key}.trades`),
      usd(t.realizedUsd, `${key}.realizedUsd`, true),
      usd(t.unrealizedUsd, `${key}.unrealizedUsd`, true),
      usd(t.feesUsd, `${key}.feesUsd`),
      usd(t.unmatchedProceedsUsd, `${key}.unmatchedProceedsUsd`),
      usd(t.basisCostUsd ?? '0', `${key}.basisCostUsd`),
      usd(equity, `${key}.equityUsd`),
    ],
  });
  return table(
    COLUMNS,
    [
      ...reports.map((r, i) => row(r.wallet, `wallets.${i}`, pnlOf(r.data).total, r.data.equity.nowUsd)),
      row(`total of ${reports.length} wallets`, 'total', total, total.equityUsd),
    ],
    'no wallets',
  );
}

function walletSection(r: WalletReport): string {
  const d = r.data;
  return `<section class="wallet" data-wallet="${esc(r.wallet)}" data-file="${esc(r.file)}">
<h2>${esc(d.mode.mode === null ? '' : `${d.mode.mode.toUpperCase()}: `)}wallet ${esc(r.wallet)}</h2>
<p class="asof">${esc(r.file)} · as of <time datetime="${esc(d.generatedAt)}">${esc(d.generatedAt)}</time>, ${esc(d.clock)}</p>
<p class="banner chain-ok">Audit chain verified, with every fill, intent and order as sealed: ${esc(d.chain.actions)} actions, head ${esc(d.chain.headId)} <code>${esc(d.chain.headHash)}</code></p>
${d.pendingFills.length === 0 ? '' : `<p class="banner chain-broken" role="alert">${esc(d.pendingFills.length)} landed trade(s) whose fill is not known yet, so not in the figures.</p>`}
<h3>P&amp;L by strategy</h3>${pnlTableHtml(d)}
<h3>Holdings</h3>${holdingsHtml(d)}
<h3>Open orders</h3>${ordersTableHtml(d)}
<h3>Trades</h3>${tradesTableHtml(d)}
</section>`;
}

export function renderWalletsReport(reports: readonly WalletReport[]): string {
  const total = walletsTotal(reports);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>jupbot report: ${reports.length} wallets</title>
<style>${REPORT_CSS}</style></head>
<body><main>
<header><h1>jupbot report: ${reports.length} wallets</h1>
<p class="asof">Each wallet’s figures are its own database’s, as <code>jupbot report --db</code> shows them; the total is their exact sum. No charts here: each wallet’s own report draws them.</p></header>
<h2>All wallets</h2>
<section id="wallets-total">${totalsTable(reports, total)}</section>
${reports.map(walletSection).join('\n')}
<footer>Figures are rounded for reading; hover one for its exact value. P&amp;L is first in, first out per strategy, each wallet on its own (docs/audit.md, "Trades and P&amp;L").</footer>
</main></body></html>
`;
}
