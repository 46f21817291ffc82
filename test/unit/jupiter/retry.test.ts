import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../src/random.js';
import { ApiError, ExecuteFailedError, ParamsError, SwapOrderError, TransportError, type HttpMethod } from '../../../src/jupiter/errors.js';
import { backoffMs, isRetryable, parseResetMs, parseRetryAfter, rateLimitPauseMs, retryDelayMs } from '../../../src/jupiter/retry.js';

const ctx = (method: HttpMethod) => ({ method, route: '/x', idempotent: method === 'GET' });
const api = (status: number, method: HttpMethod = 'GET') =>
  new ApiError({
    ...ctx(method),
    code: status === 429 ? 'JUPITER_RATE_LIMITED' : status >= 500 ? 'JUPITER_SERVER_ERROR' : 'JUPITER_BAD_REQUEST',
    status,
    requestId: null,
    body: null,
  });
const transport = (kind: ConstructorParameters<typeof TransportError>[1], method: HttpMethod = 'GET') => new TransportError(ctx(method), kind, 'x');

describe('isRetryable', () => {
  it.each<[string, unknown, HttpMethod, boolean]>([
    ['429 read', api(429), 'GET', true],
    ['500 read', api(500), 'GET', true],
    ['502 read', api(502), 'GET', true],
    ['503 read', api(503), 'GET', true],
    ['501 read', api(501), 'GET', false],
    ['400 read', api(400), 'GET', false],
    ['404 read', api(404), 'GET', false],
    ['network read', transport('network'), 'GET', true],
    ['timeout read', transport('timeout'), 'GET', true],
    ['malformed read', transport('malformed'), 'GET', true],
    ['schema read', transport('schema'), 'GET', false],
    ['aborted read', transport('aborted'), 'GET', false],
    ['closed read', transport('closed'), 'GET', false],
    ['429 POST', api(429, 'POST'), 'POST', false],
    ['500 POST', api(500, 'POST'), 'POST', false],
    ['network POST', transport('network', 'POST'), 'POST', false],
    ['timeout PATCH', transport('timeout', 'PATCH'), 'PATCH', false],
    ['500 DELETE', api(500, 'DELETE'), 'DELETE', false],
    ['params error', new ParamsError('/x', [{ field: 'a', message: 'b' }]), 'GET', false],
    ['foreign error', new Error('boom'), 'GET', false],
    [
      'order errorCode (200)',
      new SwapOrderError({ ...ctx('GET'), status: 200, requestId: null, body: null }, { router: 'metis', errorCode: 1, orderRequestId: null, quote: null }),
      'GET',
      false,
    ],
    [
      'execute Failed (200)',
      new ExecuteFailedError(
        { ...ctx('POST'), code: 'SWAP_EXECUTE_FAILED', status: 200, requestId: null, body: null },
        { executeCode: -1000, signature: null, response: null },
      ),
      'POST',
      false,
    ],
  ])('%s → %s', (_name, error, method, expected) => {
    expect(isRetryable(error, method)).toBe(expected);
  });

  it('an explicitly non-idempotent GET (vault register) never retries', () => {
    expect(isRetryable(api(500), 'GET', false)).toBe(false);
  });
});

describe('backoff', () => {
  it.each([
    [1, 250, 500],
    [2, 500, 1000],
    [3, 1000, 2000],
    [7, 15_000, 30_000],
    [40, 15_000, 30_000],
  ])('attempt %s waits within [%s, %s]', (attempt, lo, hi) => {
    const random = createRandom(`b${attempt}`);
    for (let i = 0; i < 50; i++) {
      const ms = backoffMs(attempt, random);
      expect(ms).toBeGreaterThanOrEqual(lo);
      expect(ms).toBeLessThanOrEqual(hi);
    }
  });

  it('is reproducible from the seed', () => {
    const a = createRandom('same');
    const b = createRandom('same');
    expect([1, 2, 3].map((n) => backoffMs(n, a))).toEqual([1, 2, 3].map((n) => backoffMs(n, b)));
  });

  it('defers 429s to the bucket pause and backs off everything else', () => {
    const random = createRandom('r');
    expect(retryDelayMs(api(429), 1, random)).toBe(0);
    expect(retryDelayMs(api(503), 1, random)).toBeGreaterThan(0);
    expect(retryDelayMs(transport('network'), 2, random)).toBeGreaterThanOrEqual(500);
  });
});

describe('rateLimitPauseMs', () => {
  const now = 1_767_225_600_000; // 2026-01-01T00:00:00Z
  const random = createRandom('p');
  it.each<[string, { retryAfter: string | null; reset: string | null }, number, string]>([
    ['Retry-After seconds', { retryAfter: '7', reset: String(now / 1000 + 30) }, 7_000, 'retry-after'],
    ['Retry-After date', { retryAfter: new Date(now + 12_000).toUTCString(), reset: null }, 12_000, 'retry-after'],
    ['reset in 30 s', { retryAfter: null, reset: String(now / 1000 + 30) }, 30_000, 'reset'],
    ['reset far away is clamped to one window', { retryAfter: null, reset: String(now / 1000 + 3600) }, 61_000, 'reset'],
    ['reset now is floored (no hot loop)', { retryAfter: '0', reset: null }, 250, 'retry-after'],
  ])('%s', (_name, headers, waitMs, source) => {
    expect(rateLimitPauseMs(headers, now, 1, random)).toEqual({ waitMs, source });
  });

  it('falls back to backoff when the reset is in the past or absent', () => {
    const r = rateLimitPauseMs({ retryAfter: null, reset: String(now / 1000 - 5) }, now, 1, random);
    expect(r.source).toBe('backoff');
    expect(r.waitMs).toBeGreaterThanOrEqual(500);
    expect(rateLimitPauseMs({ retryAfter: null, reset: null }, now, 10, random).waitMs).toBeLessThanOrEqual(30_000);
  });

  it('parses headers defensively', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseResetMs('abc')).toBeNull();
    expect(parseResetMs('-3')).toBeNull();
    expect(parseResetMs('1767225630')).toBe(1_767_225_630_000);
  });
});
