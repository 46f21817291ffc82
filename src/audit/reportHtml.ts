/**
 * The report as one self-contained HTML file: styles, the chart library (uPlot) and the data are
 * inline, so opening it needs no network. Tables are rendered here, so every figure reads without
 * scripts; the script only draws the charts. A chain that does not verify is the first thing shown.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fixedOf, priceText } from './figureText.js';
import { esc, scriptJson } from './htmlText.js';
import { ACTIONS_SHOWN, type ReportData } from './reportData.js';
import { CHART_SCRIPT } from './reportScript.js';
import { REPORT_CSS } from './reportStyle.js';
import { headerHtml, headlineHtml, modePrefix, pnlTableHtml } from './reportSummary.js';
import { holdingsHtml, ordersTableHtml, timelineHtml, tradesTableHtml, versionsHtml } from './reportTables.js';

const require = createRequire(import.meta.url);
let assets: { readonly js: string; readonly css: string } | undefined;

/** uPlot's script and styles, read once from the installed package. */
function chartAssets(): { readonly js: string; readonly css: string } {
  assets ??= {
    js: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
  return assets;
}

/** One small chart per token: its own scale, so a $150 token and a $0.50 contract both read. */
function priceFigures(data: ReportData): string {
  if (data.prices.length === 0) return '<p class="empty">no kept prices: the daemon keeps the prices it polls (price_samples)</p>';
  return `<div class="grid">${data.prices
    .map((c, i) => {
      const now = fixedOf(c.priceUsd);
      return `<figure data-mint="${esc(c.mint)}"><figcaption>${esc(c.symbol)} <span title="${esc(c.priceUsd)}">${esc(now === null ? '' : priceText(now))} at ${esc(c.at?.replace('T', ' ').replace(/\.000Z$/, ''))}</span></figcaption><div id="price-chart-${i}" class="chart"></div></figure>`;
    })
    .join('')}</div>`;
}

export function renderReport(data: ReportData, options: { readonly refreshSeconds?: number } = {}): string {
  const { js, css } = chartAssets();
  const equityWords =
    data.equity.source === 'wallet'
      ? 'The whole wallet marked to market: each token held times its kept price, stepping when a balance or a price changes.'
      : 'What the fills moved, summed from zero and marked to market at the kept prices: the value trading added, not the wallet’s.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${options.refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${options.refreshSeconds}">`}
<title>${esc(modePrefix(data))}jupbot report</title>
<style>${css}
${REPORT_CSS}</style></head>
<body><main>
${headerHtml(data)}
${headlineHtml(data)}
<h2>Equity over time</h2><p class="note">${equityWords}</p><div class="panel"><div id="equity-chart" class="chart"></div></div>
<h2>Prices kept, with fills</h2><p class="note">The prices the daemon kept, one chart per token on its own scale; buys are green, sells red.</p>
${priceFigures(data)}
<h2>Open orders</h2>
<section id="orders">${ordersTableHtml(data)}</section>
<h2>Holdings</h2>
<section id="holdings">${holdingsHtml(data)}</section>
<h2>Trades</h2>
<section id="trades">${tradesTableHtml(data)}</section>
<h2>P&amp;L by strategy</h2>
<section id="pnl">${pnlTableHtml(data)}</section>
<h2>Latest actions</h2><p class="note">The newest ${ACTIONS_SHOWN} entries of the audit log; <code>jupbot audit actions</code> lists them all, with every field.</p>
<section id="timeline">${timelineHtml(data)}</section>
<h2>Strategy versions</h2>
${versionsHtml(data)}
<footer>Figures are rounded for reading; hover one for its exact value (the page's JSON has them all). P&amp;L is first in, first out per strategy (docs/audit.md, "Trades and P&amp;L").</footer>
</main>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${js}</script>
<script>${CHART_SCRIPT}</script>
</body></html>
`;
}
