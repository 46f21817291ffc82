/**
 * The trading-status feed: `GET /prediction/v1/trading-status` → whether prediction trading is open
 * at all (a maintenance window closes it). Strategies that require it hold their sells while it is
 * false, and while it is unknown (never read, or the feed is failing: see buildSnapshot).
 */
import type { Clock } from '../../clock.js';
import { getTradingStatus } from '../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import { createPoller, type Poller } from './poller.js';

export interface TradingStatusFeedOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  /** How often to read it (e.g. `poll.scores`: the same pace as the data the sells act on). */
  readonly intervalMs: number;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now (its API area is off, or nothing needs it), else null (poller.ts). */
  readonly paused?: (() => string | null) | undefined;
  /** @default 'trading-status' */
  readonly name?: string;
}

export function createTradingStatusFeed(options: TradingStatusFeedOptions): Poller<boolean> {
  const { client } = options;
  return createPoller<boolean>({
    name: options.name ?? 'trading-status',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    paused: options.paused,
    poll: async (signal) => (await getTradingStatus(client, { priority: Priority.PollMarket, signal })).trading_active,
  });
}
