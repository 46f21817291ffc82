/**
 * The Trigger V2 order feeds of the logged-in wallet: price orders (`GET /trigger/v2/orders/history`)
 * and DCA orders (`GET /trigger/v2/orders/history/dca`), at state-polling priority.
 *
 * Each poll reads every `active` order (all pages) and the most recent `past` ones (one page,
 * newest `updated_at` first, `recentPast` items, default 100): enough to see each order leave the
 * active set (filled, cancelled, expired) as long as fewer than `recentPast` orders finish within
 * one interval, while the cost per poll stays bounded however long the history grows. Reconciliation
 * reads older history itself when it needs it.
 *
 * Authentication is the session's job: pass the client the session built (`withBearer(client,
 * () => session.token())`), or a function returning it. A failed login throws from the bearer
 * function; the poll fails with that error, keeps the last value, and the next poll tries again.
 */
import type { Clock } from '../../clock.js';
import type { DcaHistoryItem, OrderHistoryItem } from '../../jupiter/schemas/trigger.js';
import { type AuthedJupiterClient, Priority } from '../../jupiter/transport.js';
import { getAllDcaHistory, getAllOrderHistory, getDcaHistory, getOrderHistory } from '../../jupiter/trigger.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';

export type { DcaHistoryItem, OrderHistoryItem } from '../../jupiter/schemas/trigger.js';

export interface OrderSnapshot<T> {
  /** Every order the API lists as active. */
  readonly active: readonly T[];
  /** The most recently updated finished orders (newest first). */
  readonly recentPast: readonly T[];
}

export interface OrdersFeedOptions {
  /** An authed client, or a function giving the current one (read at every poll). */
  readonly client: AuthedJupiterClient | (() => AuthedJupiterClient);
  readonly clock: Clock;
  /** `poll.orders` from the config. */
  readonly intervalMs: number;
  /** How many finished orders to read per poll (1–100). @default 100 */
  readonly recentPast?: number;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** @default 'orders' (price orders) / 'dca' */
  readonly name?: string;
}

const resolveClient = (client: OrdersFeedOptions['client']): AuthedJupiterClient => (typeof client === 'function' ? client() : client);

function checkRecentPast(n: number): number {
  if (!(Number.isInteger(n) && n >= 1 && n <= 100)) throw new RangeError(`recentPast must be an integer 1–100, got ${n}`);
  return n;
}

type HistoryCall = { readonly priority: Priority; readonly signal: AbortSignal };
type PageQuery = { state: 'past'; limit: number; offset: 0; sort: 'updated_at'; dir: 'desc' };

/** One order family's feed: every active order (all pages) and the `recentPast` most recently updated past ones. */
function historyFeed<T>(
  options: OrdersFeedOptions,
  name: string,
  all: (client: AuthedJupiterClient, query: { state: 'active'; limit: number }, call: HistoryCall) => Promise<T[]>,
  page: (client: AuthedJupiterClient, query: PageQuery, call: HistoryCall) => Promise<{ orders: T[] }>,
): Poller<OrderSnapshot<T>> {
  const recentPast = checkRecentPast(options.recentPast ?? 100);
  return createPoller<OrderSnapshot<T>>({
    name: options.name ?? name,
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    async poll(signal) {
      const client = resolveClient(options.client);
      const call = { priority: Priority.PollState, signal };
      const active = await all(client, { state: 'active', limit: 100 }, call);
      const past = await page(client, { state: 'past', limit: recentPast, offset: 0, sort: 'updated_at', dir: 'desc' }, call);
      return { active, recentPast: past.orders };
    },
  });
}

/** Trigger price orders (single, OCO, OTOCO, trailing) of the JWT's wallet. */
export function createPriceOrdersFeed(options: OrdersFeedOptions): Poller<OrderSnapshot<OrderHistoryItem>> {
  return historyFeed(options, 'orders', getAllOrderHistory, getOrderHistory);
}

/** Trigger DCA orders of the JWT's wallet. */
export function createDcaOrdersFeed(options: OrdersFeedOptions): Poller<OrderSnapshot<DcaHistoryItem>> {
  return historyFeed(options, 'dca', getAllDcaHistory, getDcaHistory);
}
