/**
 * The report as one self-contained HTML file: styles, the chart library (uPlot) and the data are
 * inline, so opening it needs no network. Tables are rendered here, so every figure reads without
 * scripts; the script only draws the charts. A chain that does not verify is the first thing shown.
 */
import { pendingFillWords } from './trades.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ReportData } from './reportData.js';

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

function esc(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a script element: no `</script>` can close it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function table(headers: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  return `<table><thead><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
}

/** A cell; `field` names the figure for readers and tests (`total.realizedUsd`). */
const cell = (value: string | number | null | undefined, field?: string): string =>
  `<td${field === undefined ? '' : ` data-field="${esc(field)}"`}>${esc(value ?? '—')}</td>`;

interface PnlRow {
  strategy?: string | null;
  trades: number;
  realizedUsd: string;
  unrealizedUsd: string | null;
  feesUsd: string;
  unmatchedProceedsUsd: string;
  holdings?: {
    symbol: string;
    amount: string;
    units: string;
    costUsd: string;
    priceUsd: string | null;
    valueUsd: string | null;
    unrealizedUsd: string | null;
  }[];
}

export function renderReport(data: ReportData, options: { readonly refreshSeconds?: number } = {}): string {
  const { js, css } = chartAssets();
  const pnl = data.pnl as { strategies: PnlRow[]; total: PnlRow };
  const pnlRow = (row: PnlRow, key: string): string[] => [
    `<th scope="row">${esc(key)}</th>`,
    cell(row.trades, `${key}.trades`),
    cell(row.realizedUsd, `${key}.realizedUsd`),
    cell(row.unrealizedUsd, `${key}.unrealizedUsd`),
    cell(row.feesUsd, `${key}.feesUsd`),
    cell(row.unmatchedProceedsUsd, `${key}.unmatchedProceedsUsd`),
  ];
  const chain = data.chain.ok
    ? `<section id="chain" class="chain-ok">Audit chain verified: ${esc(data.chain.actions)} actions, head ${esc(data.chain.headId)} <code>${esc(data.chain.headHash)}</code></section>`
    : `<section id="chain" class="chain-broken" role="alert">NOT VERIFIED: ${esc(data.chain.firstBreak)}. The figures below come from a database that was changed after it was written; do not rely on them.</section>`;
  const holdings = pnl.strategies.flatMap((s) =>
    (s.holdings ?? []).map((h) => [
      cell(s.strategy ?? '(adopted)'),
      cell(h.symbol),
      cell(h.amount),
      cell(h.costUsd),
      cell(h.priceUsd),
      cell(h.valueUsd),
      cell(h.unrealizedUsd),
    ]),
  );
  const orders = data.openOrders.map((o) => [
    cell(o.id),
    cell(`${o.family} ${o.orderType}`),
    cell(o.adopted ? '(adopted)' : o.strategy),
    cell(o.state),
    cell(`${o.input.amount} ${o.input.symbol} → ${o.output.symbol}`),
    cell(o.triggerPriceUsd),
    cell(o.expiresAt),
  ]);
  const versions = data.versions.map((v) => [cell(v.strategy), cell(v.version), cell(v.appliedAt), cell(v.sha256.slice(0, 16))]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${options.refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${options.refreshSeconds}">`}
<title>${data.rehearsal ? 'REHEARSAL: ' : ''}jupbot report</title>
<style>${css}
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1b1b1b;max-width:1100px}
h1{font-size:1.4rem;margin:0 0 .5rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
#chain{padding:.6rem .8rem;border-radius:4px;margin:.5rem 0 1rem;word-break:break-all}
.chain-ok{background:#e6f4ea;border:1px solid #34a853}.chain-broken{background:#fde7e7;border:2px solid #d93025;color:#a50e0e;font-weight:bold}
table{border-collapse:collapse}th,td{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:right}th:first-child,td:first-child{text-align:left}
.empty{color:#666}.meta{color:#666}
</style></head>
<body>
<h1>${data.rehearsal ? 'REHEARSAL: ' : ''}jupbot report</h1>
${data.rehearsal ? '<section id="rehearsal" class="chain-broken" role="note">REHEARSAL: nothing here was signed or sent. Fills are at the prices Jupiter quoted for the watched wallet; vault orders were simulated. <code>jupbot rehearsal summary</code> tells what the guard made of each transaction Jupiter built.</section>' : ''}
<p class="meta">Generated ${esc(data.generatedAt)} from the audit database. Figures are exact dollars (docs/audit.md, "Trades and P&amp;L").</p>
${chain}
${
  data.pendingFills.length === 0
    ? ''
    : `<section id="pending-fills" class="chain-broken" role="alert">${esc(data.pendingFills.length)} landed trade(s) whose fill is not known yet, so not in the figures below: ${data.pendingFills.map((p) => esc(pendingFillWords(p))).join('; ')}</section>`
}
<h2>P&amp;L</h2>
${table(['strategy', 'trades', 'realized', 'unrealized', 'fees', 'no known cost'], [...pnl.strategies.map((s) => pnlRow(s, s.strategy ?? '(adopted)')), pnlRow(pnl.total, 'total')], 'no trades yet')}
<h2>Realized P&amp;L over time</h2><div id="realized-chart" class="chart"></div>
<h2>Prices at fills</h2><div id="price-chart" class="chart"></div>
<h2>Exposure</h2>
${table(['strategy', 'token', 'amount', 'cost', 'price', 'value', 'unrealized'], holdings, 'nothing held')}
<h2>Open orders</h2>
${table(['order', 'type', 'strategy', 'state', 'amount', 'trigger', 'expires'], orders, 'no open orders')}
<h2>Strategy versions</h2>
${table(['strategy', 'version', 'first applied', 'sha256'], versions, 'no strategy versions')}
<script type="application/json" id="report-data">${scriptJson({ realized: data.realizedSeries, prices: data.priceSeries })}</script>
<script>${js}</script>
<script>${CHART_SCRIPT}</script>
</body></html>
`;
}

/**
 * Draws one chart per series group: x is time (epoch s), each series its own line with points.
 * Series with different times are aligned on the union of their times (gaps left empty).
 */
const CHART_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var colors = ['#1a73e8', '#d93025', '#188038', '#f29900', '#9334e6', '#12b5cb'];
  window.jupbotCharts = [];
  function draw(id, groups, label) {
    var el = document.getElementById(id);
    if (groups.length === 0) { el.textContent = 'nothing to chart yet'; window.jupbotCharts.push({ id: id, points: 0 }); return; }
    var times = {};
    groups.forEach(function (g) { g.points.forEach(function (p) { times[p[0]] = true; }); });
    var xs = Object.keys(times).map(Number).sort(function (a, b) { return a - b; });
    var columns = [xs];
    var points = 0;
    groups.forEach(function (g) {
      var at = {};
      g.points.forEach(function (p) { at[p[0]] = p[1]; });
      columns.push(xs.map(function (x) { return x in at ? at[x] : null; }));
      points += g.points.length;
    });
    var series = [{}].concat(groups.map(function (g, i) {
      return { label: g.strategy || g.symbol, stroke: colors[i % colors.length], spanGaps: true, points: { show: true, size: 6 } };
    }));
    var chart = new uPlot({ width: Math.min(1000, el.clientWidth || 1000), height: 280, series: series, axes: [{}, { label: label }] }, columns, el);
    window.jupbotCharts.push({ id: id, points: points, series: groups.length, drawn: chart.data[0].length });
  }
  draw('realized-chart', data.realized, 'USD');
  draw('price-chart', data.prices, 'USD per token');
})();
`;
