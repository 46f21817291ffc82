/**
 * The top of the report: a broken chain first of all, the mode mark and the clock every time is on,
 * then the headline figures (equity, realized and unrealized P&L, fees, trades, open orders), and
 * the P&L per strategy as `jupbot audit pnl` computes it.
 */
import { dollarsText, fixedOf, signedDollarsText } from './figureText.js';
import { attrs, type Column, esc, figure, table } from './htmlText.js';
import { pendingFillWords } from './trades.js';
import type { ReportData } from './reportData.js';

/** What `jupbot audit pnl --json` gives per strategy and in total. */
export interface PnlRow {
  readonly strategy?: string | null;
  readonly trades: number;
  readonly realizedUsd: string;
  readonly unrealizedUsd: string | null;
  readonly feesUsd: string;
  readonly unmatchedProceedsUsd: string;
  /** The part of the cost of what was sold that came from the basis of units held before jupbot. */
  readonly basisCostUsd?: string;
  readonly holdings?: readonly PnlHolding[];
}

export interface PnlHolding {
  readonly mint: string;
  readonly symbol: string;
  readonly amount: string;
  readonly costUsd: string;
  readonly priceUsd: string | null;
  readonly valueUsd: string | null;
  readonly unrealizedUsd: string | null;
  /** Units held before jupbot: where their cost comes from. */
  readonly basis?: { readonly source: 'first-price' | 'operator'; readonly priceUsd: string; readonly at: string } | null;
}

export interface PnlFigures {
  readonly strategies: PnlRow[];
  readonly total: PnlRow;
  /** What the wallet held before jupbot traded it and still holds, at its basis. */
  readonly preHeld?: { readonly label: string; readonly unrealizedUsd: string | null; readonly holdings: readonly PnlHolding[] };
}

export const pnlOf = (data: ReportData): PnlFigures => data.pnl as unknown as PnlFigures;

const MODE_WORDS: Readonly<Record<string, string>> = { paper: 'PAPER', rehearsal: 'REHEARSAL', live: 'LIVE' };

/** The title's prefix: "PAPER: ", "LIVE: ", … (none when the mode is unknown). */
export function modePrefix(data: ReportData): string {
  return data.mode.mode === null ? '' : `${MODE_WORDS[data.mode.mode] ?? ''}: `;
}

/** A broken chain, then the mode mark and the clock; the rehearsal's and pending fills' warnings. */
export function headerHtml(data: ReportData): string {
  const chain = data.chain.ok
    ? ''
    : `<section id="chain" class="banner chain-broken" role="alert">NOT VERIFIED: ${esc(data.chain.firstBreak)}. The figures below come from a database that was changed after it was written; do not rely on them.</section>`;
  const mode = data.mode.mode;
  const mark = `<span id="mode" class="mode mode-${mode ?? 'unknown'}"${attrs({ title: data.mode.evidence })}>${mode === null ? 'mode unknown' : MODE_WORDS[mode]}</span>`;
  const rehearsal = data.rehearsal
    ? '<section id="rehearsal" class="banner warn" role="note">REHEARSAL: nothing here was signed or sent. Fills are at the prices Jupiter quoted for the watched wallet; vault orders were simulated. <code>jupbot rehearsal summary</code> tells what the guard made of each transaction Jupiter built.</section>'
    : '';
  const pending =
    data.pendingFills.length === 0
      ? ''
      : `<section id="pending-fills" class="banner chain-broken" role="alert">${esc(data.pendingFills.length)} landed trade(s) whose fill is not known yet, so not in the figures below: ${data.pendingFills.map((p) => esc(pendingFillWords(p))).join('; ')}</section>`;
  const verified = data.chain.ok
    ? `<section id="chain" class="banner chain-ok">Audit chain verified, with every fill, intent and order as sealed: ${esc(data.chain.actions)} actions, head ${esc(data.chain.headId)} <code>${esc(data.chain.headHash)}</code></section>`
    : '';
  return `${chain}
<header>${mark}<h1>jupbot report</h1>
<p class="asof">As of <time id="as-of" datetime="${esc(data.generatedAt)}">${esc(data.generatedAt)}</time> · every time on this page is ${esc(data.clock)}${mode === null ? ` · ${esc(data.mode.evidence)}` : ''}</p></header>
${rehearsal}${pending}${verified}`;
}

function card(label: string, shown: string, exact: string | null, field: string, sub: string, tone = false): string {
  const value = fixedOf(exact);
  const toneClass = tone && value !== null ? (value < 0n ? ' neg' : value > 0n ? ' pos' : '') : '';
  return `<div class="card"><div class="label">${esc(label)}</div><div class="value${toneClass}"${attrs({ 'data-field': field, title: exact ?? undefined })}>${esc(shown)}</div><div class="sub">${sub}</div></div>`;
}

/** The headline: what the wallet is worth and what trading made, with a line on where the equity comes from. */
export function headlineHtml(data: ReportData): string {
  const total = pnlOf(data).total;
  const equity = fixedOf(data.equity.nowUsd);
  const realized = fixedOf(total.realizedUsd) ?? 0n;
  const unrealized = fixedOf(total.unrealizedUsd);
  const fromWallet = data.equity.source === 'wallet';
  const cards = [
    card(
      fromWallet ? 'Equity' : 'Equity (fills only)',
      equity === null ? '—' : dollarsText(equity),
      data.equity.nowUsd,
      'equity.nowUsd',
      fromWallet ? 'the whole wallet at the newest kept prices' : 'what the fills moved, at the newest kept prices',
    ),
    card('Realized P&L', signedDollarsText(realized), total.realizedUsd, 'total.realizedUsd', 'first in, first out, per strategy', true),
    card(
      'Unrealized P&L',
      unrealized === null ? 'unknown' : signedDollarsText(unrealized),
      total.unrealizedUsd,
      'total.unrealizedUsd',
      unrealized === null ? 'a holding has no price' : 'holdings at the newest kept price, else the latest fill’s',
      true,
    ),
    card('Fees', dollarsText(fixedOf(total.feesUsd) ?? 0n), total.feesUsd, 'total.feesUsd', 'inside the amounts, shown apart'),
    card('Trades', String(total.trades), String(total.trades), 'total.trades', `${esc(data.pendingFills.length)} pending`),
    card('Open orders', String(data.openOrders.length), String(data.openOrders.length), 'openOrders', 'vault orders that may still fill'),
  ];
  const notes: [string, string][] = [];
  if (!fromWallet)
    notes.push([
      'fills-only',
      'No wallet balances are recorded in this database (<code>wallet.balances</code>): equity here is the running sum of what the fills took out and brought in, from zero, valued at the kept prices — not the wallet’s own holdings.',
    ]);
  if (data.equity.unpriced.length > 0) notes.push(['unpriced', `Held but never priced, so left out of equity: ${esc(data.equity.unpriced.join(', '))}.`]);
  if (data.equity.unreadable > 0) notes.push(['unreadable', `${esc(data.equity.unreadable)} wallet balance record(s) could not be read and are left out.`]);
  return `<section id="headline" class="cards">${cards.join('')}</section>
${notes.map(([id, words]) => `<p class="note" id="note-${id}">${words}</p>`).join('\n')}`;
}

const PNL_COLUMNS: readonly Column[] = [
  { label: 'strategy' },
  { label: 'trades', num: true },
  { label: 'realized', num: true, hint: 'dollars received less the cost of what was sold, first in first out' },
  { label: 'unrealized', num: true, hint: 'what is still held, at the newest kept price (else the latest fill’s), less its cost' },
  { label: 'fees', num: true, hint: 'already inside the amounts: shown, never taken twice' },
  {
    label: 'sold without known cost',
    num: true,
    hint: 'proceeds of units neither a buy of the strategy nor the wallet’s holdings before jupbot cover: not profit',
  },
  {
    label: 'cost from basis',
    num: true,
    hint: 'the part of the cost of what was sold that is the basis of units held before jupbot (first price seen, or set by the operator)',
  },
];

/** The P&L per strategy and in total, each figure rounded with the exact one on hover. */
export function pnlTableHtml(data: ReportData): string {
  const pnl = pnlOf(data);
  const usd = (text: string | null, field: string, tone = false): string => {
    const value = fixedOf(text);
    return figure(value === null ? null : tone ? signedDollarsText(value) : dollarsText(value), text, field, {
      tone,
      missing: 'unknown: a holding has no price',
    });
  };
  const row = (r: PnlRow, key: string): { cells: string[] } => ({
    cells: [
      `<th scope="row">${esc(key)}</th>`,
      figure(String(r.trades), String(r.trades), `${key}.trades`),
      usd(r.realizedUsd, `${key}.realizedUsd`, true),
      usd(r.unrealizedUsd, `${key}.unrealizedUsd`, true),
      usd(r.feesUsd, `${key}.feesUsd`),
      usd(r.unmatchedProceedsUsd, `${key}.unmatchedProceedsUsd`),
      usd(r.basisCostUsd ?? '0', `${key}.basisCostUsd`),
    ],
  });
  return table(PNL_COLUMNS, [...pnl.strategies.map((s) => row(s, s.strategy ?? '(adopted)')), row(pnl.total, 'total')], 'no trades yet');
}
