/**
 * Reading one Trigger order without reading the whole history. After a create or a PATCH the daemon
 * knows which order it wants; the whole history (up to 100 pages of 100) would cost calls in
 * proportion to everything the wallet ever did. Trigger V2's OpenAPI has no single price-order read
 * (`GET /orders/history/{id}` is reported seen live but is not in the spec), so the narrowest read
 * the API documents is used: the history of the order's input mint, newest created first
 * (`mint`, `sort=created_at`, `dir=desc`), from the instant the order can have been created on, and
 * at most {@link RECENT_PAGES} pages. Its cost follows the orders of that mint created since, not the
 * history's length. DCA orders have a documented single read (`GET /orders/history/dca/{id}`), used
 * whenever the order's id is known.
 *
 * "Not found" is only said after the read reached back past `since` (or the history's end): a read
 * that ran out of pages first throws {@link HistoryIncompleteError}, so no caller takes a bounded
 * read's silence for absence.
 */
import { JupbotError } from '../errors.js';
import type { CallOptions } from './transport.js';
import { type AuthedJupiterClient } from './transport.js';
import { type DcaHistoryItem, getDcaHistory, getOrderHistory, type OrderHistoryItem } from './trigger.js';

/** How much earlier than our own record of its start an order's server-side `createdAt` may read: clock differences. */
export const CLOCK_SKEW_MS = 10 * 60_000;
/** Pages of 100 a bounded read may take before it gives up as incomplete. */
export const RECENT_PAGES = 5;
const LIMIT = 100;

/** A bounded history read ran out of pages before it reached back to the instant it was asked about. */
export class HistoryIncompleteError extends JupbotError {
  override name = 'HistoryIncompleteError';

  constructor(family: 'price' | 'dca', mint: string, since: number, pages: number) {
    super(
      'TRIGGER_HISTORY_INCOMPLETE',
      `${pages} pages of ${family} orders of ${mint} did not reach back to ${new Date(since).toISOString()}: the order is neither found nor shown absent`,
      { details: { family, mint, since, pages } },
    );
  }
}

export interface RecentQuery {
  /** The order's input mint (the API's `mint` filter matches input or output). */
  readonly mint: string;
  /** Epoch ms: the earliest `createdAt` the order can have (already less {@link CLOCK_SKEW_MS}). */
  readonly since: number;
}

/** Price orders of `mint` created at or after `since`, newest first: all of them, or a {@link HistoryIncompleteError}. */
export async function recentPriceOrders(client: AuthedJupiterClient, query: RecentQuery, options: CallOptions = {}): Promise<OrderHistoryItem[]> {
  return await recentPages(
    'price',
    query,
    (item) => (typeof item.createdAt === 'number' ? item.createdAt : null),
    (offset) => getOrderHistory(client, { mint: query.mint, sort: 'created_at', dir: 'desc', limit: LIMIT, offset }, options),
  );
}

/** DCA orders of `mint` created at or after `since`, newest first: all of them, or a {@link HistoryIncompleteError}. */
export async function recentDcaOrders(client: AuthedJupiterClient, query: RecentQuery, options: CallOptions = {}): Promise<DcaHistoryItem[]> {
  return await recentPages(
    'dca',
    query,
    (item) => {
      const ms = typeof item.createdAt === 'string' ? Date.parse(item.createdAt) : Number.NaN;
      return Number.isFinite(ms) ? ms : null;
    },
    (offset) => getDcaHistory(client, { mint: query.mint, sort: 'created_at', dir: 'desc', limit: LIMIT, offset }, options),
  );
}

async function recentPages<T>(
  family: 'price' | 'dca',
  query: RecentQuery,
  createdAt: (item: T) => number | null,
  page: (offset: number) => Promise<{ orders: T[]; pagination: { total?: number | null | undefined } }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let n = 0; n < RECENT_PAGES; n++) {
    const offset = n * LIMIT;
    const { orders, pagination } = await page(offset);
    let older = false;
    for (const item of orders) {
      const at = createdAt(item);
      // An item without a creation time cannot be ruled out: it is kept, and says nothing about where the read is.
      if (at === null || at >= query.since) out.push(item);
      else older = true;
    }
    const total = pagination.total ?? null;
    if (older || orders.length < LIMIT || (total !== null && offset + LIMIT >= total)) return out;
  }
  throw new HistoryIncompleteError(family, query.mint, query.since, RECENT_PAGES);
}
