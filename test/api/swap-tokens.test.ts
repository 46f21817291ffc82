import bs58 from 'bs58';
import nock from 'nock';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ScaledClock } from '../../src/scaledClock.js';
import { ApiError, ExecuteFailedError, ParamsError, SwapOrderError, TransportError } from '../../src/jupiter/errors.js';
import { execute, isGasless, order } from '../../src/jupiter/swapApi.js';
import { prices, searchTokens, searchUltra } from '../../src/jupiter/tokens.js';
import { executeSuccess, mintJup, orderQuote } from './fixtures.js';
import { API_KEY, BASE, errorText, JUP, keyOnly, SOL, TAKER, testClient, USDC } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

const RID = { 'x-api-gateway-request-id': 'gw-req-1' };

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('token search', () => {
  for (const [name, fn, path] of [
    ['searchTokens', searchTokens, '/tokens/v2/search'],
    ['searchUltra', searchUltra, '/ultra/v1/search'],
  ] as const) {
    it(`${name}: GET ${path}?query= with the key only, parses MintInformation and keeps unknown fields`, async () => {
      const { client } = testClient();
      keyOnly().get(path).query({ query: 'JUP' }).reply(200, [mintJup], RID);
      const result = await fn(client, { query: 'JUP' });
      expect(result[0]).toMatchObject({ id: JUP, symbol: 'JUP', decimals: 6, usdPrice: 0.1415, audit: { topHoldersPercentage: 15.45 } });
      expect(result[0]?.audit?.isSus).toBeUndefined();
      expect((result[0] as Record<string, unknown>)['someFutureField']).toEqual({ nested: true });
    });

    it.each([
      [400, { error: 'Invalid query' }, 'JUPITER_BAD_REQUEST', 'Invalid query'],
      [500, { error: 'Internal error' }, 'JUPITER_SERVER_ERROR', 'Internal error'],
      [401, { code: 401, message: 'Invalid API key' }, 'JUPITER_UNAUTHORIZED', 'Invalid API key'],
      [403, { code: 403, message: 'API key does not have access to this endpoint' }, 'JUPITER_FORBIDDEN', 'does not have access'],
      [429, { code: 429, message: '[API Gateway] Too many requests' }, 'JUPITER_RATE_LIMITED', 'Too many requests'],
    ])(`${name}: %s maps to its typed error`, async (status, body, code, text) => {
      const { client } = testClient();
      keyOnly().get(path).query({ query: 'JUP' }).reply(status, body, RID);
      const error = await rejection(fn(client, { query: 'JUP' }));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code, status, route: path, method: 'GET', requestId: 'gw-req-1', body });
      expect(error.message).toContain(text);
      expect(error.message).toContain(`GET ${path}`);
    });
  }

  it('rejects an empty query and more than 100 mints before sending', async () => {
    const { client } = testClient();
    await expect(searchTokens(client, { query: '  ' })).rejects.toMatchObject({ code: 'JUPITER_INVALID_PARAMS', field: 'query' });
    await expect(searchTokens(client, { query: Array(101).fill(SOL).join(',') })).rejects.toBeInstanceOf(ParamsError);
  });

  it('an empty search result is []', async () => {
    const { client } = testClient();
    keyOnly().get('/tokens/v2/search').query({ query: 'nothing' }).reply(200, []);
    expect(await searchTokens(client, { query: 'nothing' })).toEqual([]);
  });
});

describe('prices', () => {
  it('splits 250 mints into ceil(250/100) = 3 calls and maps prices by mint', async () => {
    const { client } = testClient();
    const mints = Array.from({ length: 250 }, (_, i) =>
      bs58.encode(Uint8Array.from({ length: 32 }, (_v, j) => (j === 0 ? i % 256 : j === 1 ? 1 + Math.floor(i / 256) : 7))),
    );
    const seen: number[] = [];
    keyOnly()
      .get('/tokens/v2/search')
      .query(true)
      .times(3)
      .reply((uri) => {
        const query = new URL(uri, BASE).searchParams.get('query') ?? '';
        const batch = query.split(',');
        seen.push(batch.length);
        return [200, batch.map((id, i) => ({ id, name: 'T', symbol: 'T', decimals: 6, usdPrice: i === 0 ? null : 1.5 }))];
      });
    const result = await prices(client, [...mints, mints[0] ?? '']);
    expect(seen.sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(result.size).toBe(250);
    expect(result.get(mints[1] ?? '')).toEqual({ mint: mints[1], symbol: 'T', decimals: 6, usdPrice: 1.5, priceBlockId: null });
    expect(result.get(mints[0] ?? '')?.usdPrice).toBeNull();
  });

  it('rejects a non-mint before sending', async () => {
    const { client } = testClient();
    await expect(prices(client, ['not a mint'])).rejects.toMatchObject({ code: 'JUPITER_INVALID_PARAMS', field: '0' });
  });
});

describe('swap order', () => {
  const fullParams = {
    inputMint: SOL,
    outputMint: USDC,
    amount: 1_000_000_000n,
    taker: TAKER,
    receiver: JUP,
    swapMode: 'ExactIn' as const,
    slippageBps: 50,
    referralAccount: 'REFer4cYJ2mPm6u8dDQE4wAD6VoTPkkWZwZq7mhUwJV',
    referralFee: 50,
    payer: 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB',
    priorityFeeLamports: 10_000,
    jitoTipLamports: 1_000,
    broadcastFeeType: 'maxCap' as const,
    excludeRouters: ['jupiterz', 'dflow'] as ('jupiterz' | 'dflow')[],
    excludeDexes: ['Raydium', 'Orca V2', 'Meteora DLMM'],
  };

  it('GET /swap/v2/order with every documented parameter under its real name', async () => {
    const { client } = testClient();
    keyOnly()
      .get('/swap/v2/order')
      .query({
        inputMint: SOL,
        outputMint: USDC,
        amount: '1000000000',
        taker: TAKER,
        receiver: JUP,
        swapMode: 'ExactIn',
        slippageBps: '50',
        referralAccount: 'REFer4cYJ2mPm6u8dDQE4wAD6VoTPkkWZwZq7mhUwJV',
        referralFee: '50',
        payer: 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB',
        priorityFeeLamports: '10000',
        jitoTipLamports: '1000',
        broadcastFeeType: 'maxCap',
        excludeRouters: 'jupiterz,dflow',
        excludeDexes: 'Raydium,Orca V2,Meteora DLMM',
      })
      .reply(200, orderQuote, RID);
    const quote = await order(client, fullParams);
    expect(quote).toMatchObject({ requestId: orderQuote.requestId, router: 'metis', inAmount: '1000000000', outAmount: '171340000' });
  });

  it('a quote without taker has transaction null and is not an error', async () => {
    const { client } = testClient();
    keyOnly()
      .get('/swap/v2/order')
      .query({ inputMint: SOL, outputMint: USDC, amount: '5' })
      .reply(200, { ...orderQuote, taker: null, transaction: null });
    expect((await order(client, { inputMint: SOL, outputMint: USDC, amount: '5' })).transaction).toBeNull();
  });

  it.each([
    ['metis', 1, 'SWAP_ORDER_INSUFFICIENT_FUNDS', 'insufficient_funds'],
    ['metis', 2, 'SWAP_ORDER_INSUFFICIENT_SOL', 'insufficient_sol'],
    ['dflow', 3, 'SWAP_ORDER_BELOW_GASLESS_MINIMUM', 'below_gasless_minimum'],
    ['okx', 2, 'SWAP_ORDER_INSUFFICIENT_SOL', 'insufficient_sol'],
    ['jupiterz', 1, 'SWAP_ORDER_INSUFFICIENT_FUNDS', 'insufficient_funds'],
    ['jupiterz', 2, 'SWAP_ORDER_MISSING_TOKEN_ACCOUNT', 'missing_token_account'],
    ['jupiterz', 3, 'SWAP_ORDER_RFQ_UNBUILDABLE', 'rfq_unbuildable'],
    ['metis', 9, 'SWAP_ORDER_UNBUILDABLE', 'unknown'],
  ])('router %s errorCode %s → %s (matched on router + code, not the message)', async (router, errorCode, code, reason) => {
    const { client } = testClient();
    keyOnly()
      .get('/swap/v2/order')
      .query(true)
      .reply(200, { ...orderQuote, router, transaction: '', errorCode, errorMessage: 'Top up 0.01 SOL for gas', error: 'Top up 0.01 SOL for gas' }, RID);
    const error = await rejection(order(client, { inputMint: SOL, outputMint: USDC, amount: '1', taker: TAKER }));
    expect(error).toBeInstanceOf(SwapOrderError);
    expect(error).toMatchObject({ code, reason, router, errorCode, status: 200, orderRequestId: orderQuote.requestId, requestId: 'gw-req-1' });
    expect((error as SwapOrderError).quote).toMatchObject({ outAmount: '171340000' });
  });

  it.each([
    [400, { requestId: 'r-1', error: 'Failed to get quotes' }, 'JUPITER_BAD_REQUEST'],
    [500, { error: 'Internal server error' }, 'JUPITER_SERVER_ERROR'],
  ])('HTTP %s maps to %s', async (status, body, code) => {
    const { client } = testClient();
    keyOnly().get('/swap/v2/order').query(true).reply(status, body, RID);
    const error = await rejection(order(client, { inputMint: SOL, outputMint: USDC, amount: '1' }));
    expect(error).toMatchObject({ code, status, requestId: 'gw-req-1', route: '/swap/v2/order' });
    expect(error.message).toContain(body.error);
  });

  it.each([
    [{ referralFee: 49, referralAccount: JUP }, 'referralFee'],
    [{ referralFee: 256, referralAccount: JUP }, 'referralFee'],
    [{ referralAccount: JUP }, 'referralFee'],
    [{ referralFee: 100 }, 'referralAccount'],
    [{ taker: TAKER, receiver: TAKER }, 'receiver'],
    [{ broadcastFeeType: 'exactFee' }, 'broadcastFeeType'],
    [{ slippageBps: 10_001 }, 'slippageBps'],
    [{ amount: '0' }, 'amount'],
    [{ amount: '1.5' }, 'amount'],
    [{ excludeRouters: ['iris'] }, 'excludeRouters.0'],
    [{ mevTipLamports: 1000 }, ''],
    [{ taker: 'not-base58!' }, 'taker'],
  ])('validates %j before sending (field %s)', async (patch, field) => {
    const { client } = testClient();
    const error = await rejection(order(client, { inputMint: SOL, outputMint: USDC, amount: '1', ...patch } as Parameters<typeof order>[1]));
    expect(error).toBeInstanceOf(ParamsError);
    expect((error as ParamsError).field).toBe(field);
    expect(error.message).toContain('/swap/v2/order');
  });

  it('isGasless compares signatureFeePayer with the taker', () => {
    expect(isGasless({ signatureFeePayer: TAKER, taker: TAKER })).toBe(false);
    expect(isGasless({ signatureFeePayer: 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB', taker: TAKER })).toBe(true);
    expect(isGasless({ signatureFeePayer: null, taker: TAKER })).toBe(false);
    expect(isGasless({ signatureFeePayer: TAKER, taker: null })).toBe(false);
    expect(isGasless({ signatureFeePayer: TAKER, taker: null }, JUP)).toBe(true);
  });

  it('a legacy /ultra/v1 base is accepted, mapped to /swap/v2, with one warning', async () => {
    const { client, logs } = testClient({ baseUrl: `${BASE}/ultra/v1/` });
    keyOnly().get('/swap/v2/order').query(true).twice().reply(200, orderQuote);
    await order(client, { inputMint: SOL, outputMint: USDC, amount: '1' });
    await order(client, { inputMint: SOL, outputMint: USDC, amount: '1' });
    expect(client.baseUrl).toBe(BASE);
    expect(client.warnings.map((w) => w.code)).toEqual(['JUPITER_LEGACY_BASE_URL']);
    expect(logs.lines().filter((l) => l['level'] === 'warn')).toHaveLength(1);
  });
});

describe('swap execute', () => {
  const params = { signedTransaction: 'AQAAsignedtx', requestId: orderQuote.requestId, lastValidBlockHeight: '379220000' };

  it('POST /swap/v2/execute with the exact body, in the execute bucket', async () => {
    const { client } = testClient();
    const buckets: string[] = [];
    client.events.on('request', (e) => buckets.push(e.bucket));
    keyOnly().post('/swap/v2/execute', params).matchHeader('content-type', 'application/json').reply(200, executeSuccess, RID);
    const result = await execute(client, params);
    expect(result).toMatchObject({ status: 'Success', code: 0, totalOutputAmount: '171300000' });
    expect(buckets).toEqual(['execute']);
  });

  it.each([
    [-1, 'order not found'],
    [-1000, 'aggregator: failed to land'],
    [-2003, 'rfq: quote expired'],
    [6001, 'on-chain program error 6001'],
  ])('200 status "Failed" code %s is an ExecuteFailedError carrying the code', async (code, text) => {
    const { client } = testClient();
    keyOnly().post('/swap/v2/execute', params).reply(200, { status: 'Failed', signature: 'sigX', slot: '0', code, error: 'Transaction failed' }, RID);
    const error = await rejection(execute(client, params));
    expect(error).toBeInstanceOf(ExecuteFailedError);
    expect(error).toMatchObject({
      code: 'SWAP_EXECUTE_FAILED',
      executeCode: code,
      signature: 'sigX',
      status: 200,
      requestId: 'gw-req-1',
      outcomeUnknown: false,
    });
    expect(error.message).toContain(text);
  });

  it('400 { error, code } → SWAP_EXECUTE_FAILED with the code', async () => {
    const { client } = testClient();
    keyOnly().post('/swap/v2/execute', params).reply(400, { error: 'Invalid signed transaction', code: -2 }, RID);
    const error = await rejection(execute(client, params));
    expect(error).toMatchObject({ code: 'SWAP_EXECUTE_FAILED', executeCode: -2, status: 400, outcomeUnknown: false, requestId: 'gw-req-1' });
  });

  it('500 → JUPITER_SERVER_ERROR, outcome unknown, signature kept, not retried', async () => {
    const { client } = testClient({ maxReadAttempts: 4 });
    keyOnly().post('/swap/v2/execute', params).once().reply(500, { signature: 'sigY', error: 'landing failed' });
    const error = await rejection(execute(client, params));
    expect(error).toMatchObject({ code: 'JUPITER_SERVER_ERROR', outcomeUnknown: true, signature: 'sigY' });
  });

  it('a network failure is a TransportError with cause, outcome unknown, not retried', async () => {
    const { client } = testClient({ maxReadAttempts: 4 });
    keyOnly().post('/swap/v2/execute', params).once().replyWithError('socket hang up');
    const error = await rejection(execute(client, params));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'JUPITER_NETWORK_ERROR', outcomeUnknown: true });
    expect(String((error.cause as Error | undefined)?.message)).toMatch(/socket hang up/);
  });
});

describe('transport behaviour', () => {
  it('retries an idempotent read on 503 then succeeds; never without the key', async () => {
    const { client, clock } = testClient({ maxReadAttempts: 3 });
    keyOnly().get('/tokens/v2/search').query({ query: 'JUP' }).reply(503, 'Service Unavailable');
    keyOnly().get('/tokens/v2/search').query({ query: 'JUP' }).reply(200, [mintJup]);
    const retries: number[] = [];
    client.events.on('retry', (e) => retries.push(e.delayMs));
    const p = searchTokens(client, { query: 'JUP' });
    await clock.advance(0);
    await client.events.next('retry');
    await clock.advance(1000);
    expect(await p).toHaveLength(1);
    expect(retries).toHaveLength(1);
  });

  it('malformed JSON on a 200 is JUPITER_MALFORMED_RESPONSE; a wrong shape is JUPITER_UNEXPECTED_RESPONSE naming the field', async () => {
    const { client } = testClient();
    keyOnly().get('/tokens/v2/search').query(true).reply(200, '[{"id":', { 'content-type': 'application/json' });
    await expect(searchTokens(client, { query: 'a' })).rejects.toMatchObject({ code: 'JUPITER_MALFORMED_RESPONSE', status: 200 });
    keyOnly()
      .get('/tokens/v2/search')
      .query(true)
      .reply(200, [{ id: JUP, name: 'J', symbol: 'J', decimals: 'six' }]);
    const error = await rejection(searchTokens(client, { query: 'a' }));
    expect(error).toMatchObject({ code: 'JUPITER_UNEXPECTED_RESPONSE' });
    expect(error.message).toContain('0.decimals');
  });

  it('times out on the injected clock', async () => {
    const { clock } = testClient();
    const { createJupiterClient } = await import('../../src/jupiter/transport.js');
    const { createRandom } = await import('../../src/random.js');
    const client = createJupiterClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      requestsPerSecond: 10,
      clock,
      random: createRandom('t'),
      timeoutMs: 5000,
      maxReadAttempts: 1,
    });
    keyOnly().get('/tokens/v2/search').query(true).delay(60_000).reply(200, []);
    const p = rejection(searchTokens(client, { query: 'a' }));
    await clock.advance(0);
    await clock.advance(5000);
    expect(await p).toMatchObject({ code: 'JUPITER_TIMEOUT', kind: 'timeout' });
  });

  it("a sped-up clock (paper mode's sim.speed) does not shorten the timeout: it runs on the real clock beneath", async () => {
    const real = new ManualClock();
    const { createJupiterClient } = await import('../../src/jupiter/transport.js');
    const { createRandom } = await import('../../src/random.js');
    const client = createJupiterClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      requestsPerSecond: 10,
      clock: new ScaledClock(real, 120),
      random: createRandom('t'),
      timeoutMs: 5000,
      maxReadAttempts: 1,
    });
    keyOnly().get('/tokens/v2/search').query(true).delay(60_000).reply(200, []);
    let settled = false;
    const p = rejection(searchTokens(client, { query: 'a' })).finally(() => {
      settled = true;
    });
    await real.advance(0);
    // 5000 / 120 ms of real time is 5 simulated seconds: on the old scaled timer the request would be abandoned here.
    await real.advance(4_999);
    expect(settled).toBe(false);
    await real.advance(1);
    expect(await p).toMatchObject({ code: 'JUPITER_TIMEOUT', kind: 'timeout', message: expect.stringContaining('no answer within 5000 ms') as string });
  });

  it('the API key never appears in an error or a log line, even when the server echoes it', async () => {
    const { client, logs } = testClient();
    const errors: unknown[] = [];
    keyOnly()
      .get('/tokens/v2/search')
      .query(true)
      .reply(401, { code: 401, message: `Invalid API key ${API_KEY}` });
    keyOnly()
      .get('/tokens/v2/search')
      .query(true)
      .reply(400, { error: `bad key=${API_KEY}` });
    keyOnly().get('/tokens/v2/search').query(true).replyWithError(`connect failed for ${API_KEY}`);
    keyOnly().get('/tokens/v2/search').query(true).reply(200, `not json ${API_KEY}`);
    for (let i = 0; i < 4; i++) errors.push(await rejection(searchTokens(client, { query: 'a' })));
    expect(errors.map((e) => (e as { code: string }).code)).toEqual([
      'JUPITER_UNAUTHORIZED',
      'JUPITER_BAD_REQUEST',
      'JUPITER_NETWORK_ERROR',
      'JUPITER_MALFORMED_RESPONSE',
    ]);
    for (const e of errors) expect(errorText(e)).not.toContain(API_KEY);
    expect(logs.text.length).toBeGreaterThan(0);
    expect(logs.text).not.toContain(API_KEY);
    expect(errorText(errors[0])).toContain('[redacted]');
  });
});
