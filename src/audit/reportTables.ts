/**
 * The report's tables: open orders (one row per order, each trigger with its distance from the
 * price now), trades with their reasons, what the wallet and each strategy hold, the newest actions
 * and the strategy versions. Figures are rounded for reading, the exact text on hover.
 */
import { formatFixed, ONE } from '../money/decimal.js';
import { amountText, dollarsText, fixedOf, percentText, priceText, signedDollarsText } from './figureText.js';
import { attrs, cell, type Column, esc, figure, table } from './htmlText.js';
import type { OpenOrderRow, OrderTrigger } from './openOrderRows.js';
import type { ReportData } from './reportData.js';
import { pnlOf } from './reportSummary.js';
import { USD_MINTS } from './tokenNames.js';

const time = (iso: string | null): string => (iso === null ? '—' : iso.replace('T', ' ').replace(/\.000Z$|Z$/, ''));

/** A price cell: rounded, exact on hover. */
function priceCell(text: string | null, field: string, missing?: string): string {
  const value = fixedOf(text);
  return figure(value === null ? null : priceText(value), text, field, missing === undefined ? {} : { missing });
}

/** A token amount with its symbol: rounded (a dollar token to the cent), exact on hover. */
function amountCell(leg: { readonly amount: string; readonly symbol: string; readonly mint: string }, field: string): string {
  const value = fixedOf(leg.amount);
  return figure(value === null ? null : `${amountText(value, { cents: USD_MINTS.has(leg.mint) })} ${leg.symbol}`, leg.amount, field);
}

function triggerCells(t: OrderTrigger | null, field: string): string[] {
  if (t === null) return [cell(null, field, 'num'), cell(null, `${field}.distance`, 'num')];
  const distance = fixedOf(t.distancePct);
  return [
    priceCell(t.priceUsd, field),
    figure(distance === null ? null : percentText(distance), t.distancePct === null ? null : `${t.distancePct}%`, `${field}.distance`, {
      missing: 'no kept price',
    }),
  ];
}

const ORDER_TYPES: Readonly<Record<string, string>> = { oco: 'OCO', otoco: 'OTOCO', single: 'single', time_based: 'DCA', price_conditional: 'DCA (price)' };

function orderRow(o: OpenOrderRow, withEntry: boolean): { attrs: string; cells: string[] } {
  const type = `${ORDER_TYPES[o.orderType] ?? o.orderType}${o.trailingBps === null ? '' : ` trailing ${o.trailingBps / 100}%`}`;
  const left = o.sells.remaining !== null && o.sells.remaining !== o.sells.amount;
  const sells = fixedOf(o.sells.remaining ?? o.sells.amount);
  return {
    attrs: attrs({ 'data-order': o.id }),
    cells: [
      cell(o.adopted ? '(adopted)' : o.strategy, 'strategy'),
      `<td data-field="type"${attrs({ title: `${o.state}; ${o.legs.length > 1 ? 'legs' : 'order'} ${o.legs.join(', ')}` })}>${esc(type)} <span class="small">${esc(o.state)}</span></td>`,
      figure(
        sells === null ? null : `${amountText(sells, { cents: USD_MINTS.has(o.sells.mint) })} ${o.sells.symbol}${left ? ' left' : ''}`,
        o.sells.remaining ?? o.sells.amount,
        'sells',
      ),
      cell(o.receives.symbol, 'receives'),
      priceCell(o.watched?.priceUsd ?? null, 'now', o.watched === null ? 'no trigger: a DCA order' : `no kept price of ${o.watched.symbol}`),
      ...(withEntry ? triggerCells(o.entry, 'entry') : []),
      ...triggerCells(o.takeProfit, 'tp'),
      ...triggerCells(o.stop, 'stop'),
      cell(time(o.expiresAt), 'expires', 'num'),
    ],
  };
}

/** Open orders, one row per order: an OCO's take-profit and stop side by side, each with its distance from the price now. */
export function ordersTableHtml(data: ReportData): string {
  const withEntry = data.openOrders.some((o) => o.entry !== null);
  const pct = 'how far the price now must move to reach it, in percent';
  const columns: Column[] = [
    { label: 'strategy' },
    { label: 'order' },
    { label: 'sells', num: true },
    { label: 'for' },
    { label: 'price now', num: true, hint: 'the newest kept price of the token the order watches' },
    ...(withEntry
      ? [
          { label: 'entry', num: true },
          { label: 'to entry', num: true, hint: pct },
        ]
      : []),
    { label: 'take-profit', num: true },
    { label: 'to take-profit', num: true, hint: pct },
    { label: 'stop', num: true },
    { label: 'to stop', num: true, hint: pct },
    { label: 'expires (UTC)', num: true },
  ];
  return table(
    columns,
    data.openOrders.map((o) => orderRow(o, withEntry)),
    'no open orders',
  );
}

const TRADE_COLUMNS: readonly Column[] = [
  { label: 'time (UTC)' },
  { label: 'strategy' },
  { label: 'side' },
  { label: 'amount', num: true },
  { label: 'for', num: true },
  { label: 'price', num: true, hint: 'dollars per token' },
  { label: 'fee', num: true, hint: 'already inside the amounts' },
  { label: 'why', hint: 'the reason the strategy planned it with, in its own words, and the rule that fired' },
];

type Leg = { mint: string; symbol: string; amount: string };

/** The newest trades first, each with its reason. */
export function tradesTableHtml(data: ReportData): string {
  const rows = data.trades.map(({ trade, reason, rule, leg }) => {
    const t = trade as {
      at: string;
      strategy: string | null;
      side: string;
      token: Leg;
      counter: Leg;
      priceUsd: string | null;
      fee: (Leg & { usd: string | null }) | null;
    };
    const via = [rule === null ? null : `rule ${rule}`, leg === null ? null : `${leg} leg`, String(trade.source)].filter((s) => s !== null).join(' · ');
    return {
      attrs: attrs({ 'data-signature': String(trade.signature), 'data-idx': String(trade.idx) }),
      cells: [
        cell(time(t.at), 'at'),
        cell(t.strategy ?? '(adopted)', 'strategy'),
        cell(t.side, 'side', t.side),
        amountCell(t.token, 'amount'),
        amountCell(t.counter, 'counter'),
        priceCell(t.priceUsd, 'price'),
        t.fee === null ? cell(null, 'fee', 'num') : amountCell(t.fee, 'fee'),
        `<td class="reason" data-field="reason"><span class="why">${esc(reason ?? (t.strategy === null ? 'an adopted order: not placed by jupbot' : 'no reason recorded'))}</span><div class="small">${esc(via)}</div></td>`,
      ],
    };
  });
  const more =
    data.tradeCount > data.trades.length
      ? `<p class="note">The newest ${data.trades.length} of ${data.tradeCount} trades; <code>jupbot audit trades</code> lists every one.</p>`
      : '';
  return `${table(TRADE_COLUMNS, rows, 'no trades yet')}${more}`;
}

/** What the wallet holds now (or what the fills moved) at the newest kept prices, and what each strategy holds as the P&L counts it. */
export function holdingsHtml(data: ReportData): string {
  const total = data.holdings.rows.reduce((sum, r) => sum + (fixedOf(r.valueUsd) ?? 0n), 0n);
  const fromWallet = data.equity.source === 'wallet';
  const wallet = data.holdings.rows.map((r) => {
    const value = fixedOf(r.valueUsd);
    const amount = fixedOf(r.amount);
    // The fills' running sum holds negative amounts: a share of it would read backwards, so it has none.
    const share = value === null || total <= 0n ? null : (value * 100n * ONE) / total;
    return {
      attrs: attrs({ 'data-mint': r.mint, 'data-where': r.where }),
      cells: [
        cell(r.where === 'wallet' ? r.symbol : `${r.symbol} (in vault orders)`, 'symbol'),
        figure(amount === null ? null : amountText(amount, { cents: USD_MINTS.has(r.mint) }), r.amount, 'amount'),
        priceCell(r.priceUsd, 'price', 'no kept price'),
        figure(value === null ? null : dollarsText(value), r.valueUsd, 'value', { missing: 'no kept price' }),
        ...(fromWallet
          ? [figure(share === null ? null : percentText(share).replace(/^\+/, ''), share === null ? null : `${formatFixed(share)}%`, 'share')]
          : []),
      ],
    };
  });
  const title =
    data.equity.source === 'wallet' ? `The wallet as last read, ${esc(time(data.holdings.at))} UTC` : 'What the fills moved in and out, summed from zero';
  const pnl = pnlOf(data);
  const owners = [
    ...pnl.strategies.map((s) => ({ owner: s.strategy ?? '(adopted)', holdings: s.holdings ?? [] })),
    ...(pnl.preHeld === undefined ? [] : [{ owner: pnl.preHeld.label, holdings: pnl.preHeld.holdings }]),
  ];
  const strategies = owners.flatMap(({ owner, holdings }) =>
    holdings.map((h) => {
      const unrealized = fixedOf(h.unrealizedUsd);
      const value = fixedOf(h.valueUsd);
      const basis = h.basis ?? null;
      return {
        attrs: basis === null ? '' : attrs({ 'data-basis': basis.source }),
        cells: [
          basis === null
            ? cell(owner)
            : `<td title="${esc(`cost is the basis: $${basis.priceUsd} per ${h.symbol}, ${basis.source === 'operator' ? 'set by the operator' : 'the first price jupbot saw'} (${basis.at})`)}">${esc(owner)} *</td>`,
          amountCell(h, 'amount'),
          figure(dollarsText(fixedOf(h.costUsd) ?? 0n), h.costUsd, 'cost'),
          priceCell(h.priceUsd, 'price', 'no fill prices it'),
          figure(value === null ? null : dollarsText(value), h.valueUsd, 'value', { missing: 'no fill prices it' }),
          figure(unrealized === null ? null : signedDollarsText(unrealized), h.unrealizedUsd, 'unrealized', { tone: true, missing: 'no fill prices it' }),
        ],
      };
    }),
  );
  return `<div class="grid2"><div><p class="note">${title}:</p>
${table([{ label: 'token' }, { label: 'amount', num: true }, { label: 'price', num: true }, { label: 'value', num: true }, ...(fromWallet ? [{ label: 'share', num: true }] : [])], wallet, 'nothing held')}</div>
<div><p class="note">Per strategy, as the P&amp;L counts it (at the newest kept price, else the latest fill’s)${strategies.some((r) => r.attrs !== '') ? '; * units held before jupbot, at their basis (hover for it)' : ''}:</p>
${table([{ label: 'strategy' }, { label: 'holds', num: true }, { label: 'cost', num: true }, { label: 'price', num: true }, { label: 'value', num: true }, { label: 'unrealized', num: true }], strategies, 'no strategy holds anything it bought')}</div></div>`;
}

/** The newest actions, newest first, in plain words. */
export function timelineHtml(data: ReportData): string {
  const rows = data.timeline.map((a) => ({
    attrs: attrs({ 'data-action': a.id }),
    cells: [cell(time(a.at), 'at'), `<td data-field="kind"><code>${esc(a.kind)}</code></td>`, cell(a.strategy ?? '', 'strategy'), cell(a.words, 'words')],
  }));
  return table([{ label: 'time (UTC)' }, { label: 'action' }, { label: 'strategy' }, { label: 'what happened' }], rows, 'nothing recorded yet');
}

export function versionsHtml(data: ReportData): string {
  const rows = data.versions.map((v) => ({
    cells: [cell(v.strategy), cell(v.version, undefined, 'num'), cell(time(v.appliedAt)), `<td><code>${esc(v.sha256.slice(0, 16))}</code></td>`],
  }));
  return table([{ label: 'strategy' }, { label: 'version', num: true }, { label: 'first applied (UTC)' }, { label: 'sha256' }], rows, 'no strategy versions');
}
