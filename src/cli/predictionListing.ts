/**
 * Prediction events and their markets as `jupbot markets search` and `jupbot events` print them:
 * one table row per market, both ids on every row (what a strategy's `positions.market` and
 * `positions.event` take), or exact JSON. Prices are what one contract of each side sells for now
 * (what exit rules compare), in dollars to the cent for people and exact decimal text in JSON.
 */
import { usdText } from '../money/humanFigures.js';
import type { Event, Market } from '../jupiter/prediction.js';
import { formatFixed, microToFixed, parseFixed } from '../money/decimal.js';
import { renderTable } from './table.js';

export interface MarketJson {
  readonly marketId: string;
  readonly title: string | null;
  /** `open`, `closed`, `cancelled`, or what the API says. */
  readonly status: string;
  readonly result: string | null;
  /** ISO time, or null when the API gives none. */
  readonly closeTime: string | null;
  /** USD per contract, exact decimal text; null when that side has no price. */
  readonly sellYesUsd: string | null;
  readonly sellNoUsd: string | null;
  readonly buyYesUsd: string | null;
  readonly buyNoUsd: string | null;
}

export interface EventJson {
  readonly eventId: string;
  readonly title: string | null;
  readonly category: string | null;
  readonly subcategory: string | null;
  /** As the API gives it (an ISO time), or null. */
  readonly beginAt: string | null;
  readonly live: boolean | null;
  readonly markets: readonly MarketJson[];
}

const exact = (micro: bigint | null | undefined): string | null => (micro === null || micro === undefined ? null : formatFixed(microToFixed(micro)));

export function marketJson(m: Market): MarketJson {
  return {
    marketId: m.marketId,
    title: m.title ?? null,
    status: m.status,
    result: m.result,
    closeTime: typeof m.closeTime === 'number' ? new Date(m.closeTime * 1000).toISOString() : null,
    sellYesUsd: exact(m.pricing?.sellYesPriceUsd),
    sellNoUsd: exact(m.pricing?.sellNoPriceUsd),
    buyYesUsd: exact(m.pricing?.buyYesPriceUsd),
    buyNoUsd: exact(m.pricing?.buyNoPriceUsd),
  };
}

export function eventJson(e: Event): EventJson {
  return {
    eventId: e.eventId,
    title: e.metadata?.title ?? null,
    category: e.category ?? null,
    subcategory: e.subcategory ?? null,
    beginAt: e.beginAt ?? null,
    live: e.isLive ?? null,
    markets: (e.markets ?? []).map(marketJson),
  };
}

const TITLE_WIDTH = 64;

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_WIDTH ? line : `${line.slice(0, TITLE_WIDTH - 1)}…`;
}

/** "2026-01-31T00:00Z": minutes unless the seconds matter. */
function minute(iso: string | null): string {
  return iso === null ? '—' : iso.replace(/:00\.000Z$/, 'Z').replace(/\.000Z$/, 'Z');
}

const dollars = (text: string | null): string => (text === null ? '—' : usdText(parseFixed(text) ?? null));

function status(m: MarketJson): string {
  return m.result === null ? m.status : `${m.status} (${m.result})`;
}

/** The table: one row per market (an event without markets gets one row of its own). */
export function eventsTable(events: readonly EventJson[]): string {
  const rows: string[][] = [];
  for (const e of events) {
    const title = e.title ?? '';
    if (e.markets.length === 0) rows.push([e.eventId, '—', e.category ?? '—', shorten(title), '—', '—', '—', '—']);
    for (const m of e.markets) {
      const both = m.title === null || m.title === title ? title : title === '' ? m.title : `${title}: ${m.title}`;
      rows.push([e.eventId, m.marketId, e.category ?? '—', shorten(both), status(m), dollars(m.sellYesUsd), dollars(m.sellNoUsd), minute(m.closeTime)]);
    }
  }
  return renderTable(['event', 'market', 'category', 'title', 'status', 'sell YES', 'sell NO', 'closes (UTC)'], rows, [
    'left',
    'left',
    'left',
    'left',
    'left',
    'right',
    'right',
    'left',
  ]);
}

/** "3 markets in 2 events" */
export function countText(events: readonly EventJson[]): string {
  const markets = events.reduce((n, e) => n + e.markets.length, 0);
  return `${markets} market${markets === 1 ? '' : 's'} in ${events.length} event${events.length === 1 ? '' : 's'}`;
}
