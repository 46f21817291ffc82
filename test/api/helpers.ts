import nock from 'nock';
import { ManualClock } from '../../src/clock.js';
import { createRandom } from '../../src/random.js';
import { Redactor } from '../../src/ops/redact.js';
import { createLogger, type Logger } from '../../src/ops/log.js';
import { createJupiterClient, withBearer, type AuthedJupiterClient, type JupiterClient } from '../../src/jupiter/transport.js';
import { MemoryStream } from '../support/memoryStream.js';

export const BASE = 'https://api.jup.test';
export const API_KEY = 'jup-test-key-5f0c2a9e7d3b41c8a6e2';
export const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJCUTcyIn0.c2lnbmF0dXJlLW9mLXRlc3Q';

/** Addresses in the OpenAPI examples. */
export const WALLET = 'BQ72nSv9f3PRyRKCBnHLVrerrv37CYTHm5h3s9VSGQDV';
export const VAULT = '7nE9GJoYHNmtaQvTQpota3KV2oz4pQ2dA6nvYK8EUJHV';
export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const TAKER = 'GkwFnmMDvn3HGMpJpWBg8tgJxr3NxNvg3AXxvXVPbRGJ';
export const POSITION = '5Y8tbdpnYrzmf8RvTVVWgtJm6P6KMiNMhoT5ZtsMMHG8';
export const ORDER_PUBKEY = '9mBcAvYkRnYrYhUyeVxvUKrdEFAqGhhV5HbfRtLT2sNT';

export interface TestClient {
  client: JupiterClient;
  authed: AuthedJupiterClient;
  clock: ManualClock;
  logs: MemoryStream;
  logger: Logger;
}

/** A client against nock: real key, manual clock, no timeouts, single attempts (retries are tested apart). */
export function testClient(options: { maxReadAttempts?: number; baseUrl?: string } = {}): TestClient {
  const clock = new ManualClock();
  const logs = new MemoryStream();
  const redactor = new Redactor();
  const logger = createLogger({ level: 'debug', destination: logs, redactor, clock });
  const client = createJupiterClient({
    baseUrl: options.baseUrl ?? BASE,
    apiKey: API_KEY,
    requestsPerSecond: 50,
    clock,
    random: createRandom('api-tests'),
    logger,
    redactor,
    timeoutMs: 0,
    maxReadAttempts: options.maxReadAttempts ?? 1,
  });
  return { client, authed: withBearer(client, () => Promise.resolve(JWT)), clock, logs, logger };
}

/** A nock scope that requires the API key and forbids Authorization. */
export function keyOnly(): nock.Scope {
  return nock(BASE, { reqheaders: { 'x-api-key': API_KEY }, badheaders: ['authorization'] });
}

/** A nock scope that requires the API key and the JWT. */
export function withJwt(): nock.Scope {
  return nock(BASE, { reqheaders: { 'x-api-key': API_KEY, authorization: `Bearer ${JWT}` } });
}

/** Everything an error exposes as text, to check that no secret leaks. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return JSON.stringify(error);
  return [
    error.message,
    error.stack ?? '',
    JSON.stringify(error),
    JSON.stringify((error as { details?: unknown }).details ?? null),
    JSON.stringify((error as { body?: unknown }).body ?? null),
  ].join('\n');
}
