/**
 * The Jupiter client layer: one transport (rate limiter, retries, typed errors) and one module per
 * API area. Import areas as namespaces: `tokens.prices(client, mints)`, `swap.order(client, …)`.
 * See docs/jupiter.md.
 */
export * from './transport.js';
export * from './errors.js';
export { bucketFor, EXECUTE_ROUTES, type Bucket } from './bucket.js';
export { Priority, quotaPerWindow, executeRequestsPerSecond, SlidingWindow, BucketLimiter, LimiterClosedError, type WindowSlot } from './limiter.js';
export { linkSignals } from './abort.js';
export { isRetryable, retryDelayMs, backoffMs, rateLimitPauseMs, parseRetryAfter, parseResetMs } from './retry.js';
export type { JupiterEvents } from './events.js';
export * as tokens from './tokens.js';
export * as swap from './swapApi.js';
export * as trigger from './trigger.js';
export * as prediction from './prediction.js';
export * as schemas from './schemas/index.js';
