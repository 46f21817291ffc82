/** The feeds: batched pollers over the one Jupiter client. See docs/operations.md "Feeds". */
export {
  createPoller,
  errorCode,
  FRESH_INTERVALS,
  type Feed,
  type FeedError,
  type FeedEvents,
  type FeedState,
  type Poller,
  type PollerOptions,
} from './poller.js';
export { InterestSet, type InterestEvents } from './interest.js';
export { createPricesFeed, type PriceMap, type PricesFeedOptions, type TokenPrice } from './prices.js';
export { createScoresFeed, type GameScore, type ScoreMap, type ScoresFeedOptions } from './scores.js';
export { createPositionsFeed, type Position, type PositionsFeedOptions } from './positions.js';
export {
  createDcaOrdersFeed,
  createPriceOrdersFeed,
  type DcaHistoryItem,
  type OrderHistoryItem,
  type OrderSnapshot,
  type OrdersFeedOptions,
} from './orders.js';
export { feedReadinessChecks, feedStatus, type FeedStatusSource } from './readiness.js';
export { createFeedSet, type FeedSet, type FeedSetOptions } from './feedSet.js';
