import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExecuteFailedError, ParamsError, PredictionApiError } from '../../src/jupiter/errors.js';
import * as prediction from '../../src/jupiter/prediction.js';
import { isClaimBuild } from '../../src/jupiter/schemas/prediction.js';
import { claimResponse, createOrderResponse, event, gameScore, market, orderStatus, pagination, position, predictionError } from './fixtures.js';
import { API_KEY, errorText, keyOnly, ORDER_PUBKEY, POSITION, testClient, USDC, WALLET, type TestClient } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

const P = '/prediction/v1';

interface Case {
  name: string;
  method: 'get' | 'post' | 'delete';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  reply: unknown;
  call: (t: TestClient) => Promise<unknown>;
  expected?: unknown;
  errors: [number, unknown, string][];
}

const notFound = predictionError('Not found');
const invalid = predictionError('Invalid input', 'invalid_type', 'ownerPubkey');

const cases: Case[] = [
  {
    name: 'listEvents (every filter)',
    method: 'get',
    path: `${P}/events`,
    query: {
      provider: 'kalshi',
      includeMarkets: 'true',
      includeAllMarkets: 'false',
      start: '0',
      end: '20',
      category: 'sports',
      subcategory: 'nba,nfl',
      sortBy: 'beginAt',
      sortDirection: 'asc',
      filter: 'live',
      tags: 'basketball',
    },
    reply: { data: [event], pagination },
    call: (t) =>
      prediction.listEvents(t.client, {
        provider: 'kalshi',
        includeMarkets: true,
        includeAllMarkets: false,
        start: 0,
        end: 20,
        category: 'sports',
        subcategory: ['nba', 'nfl'],
        sortBy: 'beginAt',
        sortDirection: 'asc',
        filter: 'live',
        tags: 'basketball',
      }),
    expected: {
      data: [{ eventId: 'evt-nba-1', volumeUsd: 125_000_500_000n, markets: [{ pricing: { buyYesPriceUsd: 550_000n, sellNoPriceUsd: null } }] }],
      pagination,
    },
    errors: [[500, predictionError('upstream'), 'JUPITER_SERVER_ERROR']],
  },
  {
    name: 'searchEvents',
    method: 'get',
    path: `${P}/events/search`,
    query: { query: 'lakers', provider: 'polymarket', limit: '5' },
    reply: { data: [event] },
    call: (t) => prediction.searchEvents(t.client, { query: 'lakers', provider: 'polymarket', limit: 5 }),
    expected: { data: [{ eventId: 'evt-nba-1' }] },
    errors: [[400, predictionError('query too long', 'invalid_type', 'query'), 'PREDICTION_INVALID_REQUEST']],
  },
  {
    name: 'getEvent',
    method: 'get',
    path: `${P}/events/evt-nba-1`,
    query: { includeMarkets: 'true' },
    reply: event,
    call: (t) => prediction.getEvent(t.client, { eventId: 'evt-nba-1', includeMarkets: true }),
    expected: { eventId: 'evt-nba-1' },
    errors: [[404, notFound, 'PREDICTION_NOT_FOUND']],
  },
  {
    name: 'getSuggestedEvents',
    method: 'get',
    path: `${P}/events/suggested/${WALLET}`,
    query: { provider: 'bisonfi' },
    reply: { data: [event] },
    call: (t) => prediction.getSuggestedEvents(t.client, { pubkey: WALLET, provider: 'bisonfi' }),
    expected: { data: [{ eventId: 'evt-nba-1' }] },
    errors: [[500, predictionError('x'), 'JUPITER_SERVER_ERROR']],
  },
  {
    name: 'getEventMarkets',
    method: 'get',
    path: `${P}/events/evt-nba-1/markets`,
    query: { start: '0', end: '10' },
    reply: { data: [market], pagination },
    call: (t) => prediction.getEventMarkets(t.client, { eventId: 'evt-nba-1', start: 0, end: 10 }),
    expected: { data: [{ marketId: 'mkt-1', status: 'open', result: null }] },
    errors: [[404, notFound, 'PREDICTION_NOT_FOUND']],
  },
  {
    name: 'getMarket',
    method: 'get',
    path: `${P}/markets/mkt-1`,
    reply: { ...market, status: 'closed', result: 'yes', resolveAt: '2026-01-02T03:05:00Z' },
    call: (t) => prediction.getMarket(t.client, { marketId: 'mkt-1' }),
    expected: { status: 'closed', result: 'yes', resolveAt: '2026-01-02T03:05:00Z', pricing: { buyNoPriceUsd: 460_000n } },
    errors: [[404, notFound, 'PREDICTION_NOT_FOUND']],
  },
  {
    name: 'getEventMarket',
    method: 'get',
    path: `${P}/events/evt-nba-1/markets/mkt-1`,
    reply: market,
    call: (t) => prediction.getEventMarket(t.client, { eventId: 'evt-nba-1', marketId: 'mkt-1' }),
    expected: { marketId: 'mkt-1', pricing: { sellYesPriceUsd: 540_000n } },
    errors: [[404, notFound, 'PREDICTION_NOT_FOUND']],
  },
  {
    name: 'getOrderbook',
    method: 'get',
    path: `${P}/orderbook/mkt-1`,
    reply: {
      yes: [
        [1, 346014],
        [55, 120.5],
      ],
      no: [[45, 219]],
      yes_dollars: [
        ['0.0100', 346014],
        ['0.5500', 120.5],
      ],
      no_dollars: [['0.4500', 219]],
    },
    call: (t) => prediction.getOrderbook(t.client, { marketId: 'mkt-1' }),
    expected: {
      yes: [
        [1, 346014],
        [55, 120.5],
      ],
      no_dollars: [['0.4500', 219]],
    },
    errors: [[502, predictionError('upstream failed', 'orderbook_bad_status'), 'PREDICTION_UPSTREAM_ERROR']],
  },
  {
    name: 'getEventScore',
    method: 'get',
    path: `${P}/events/evt-nba-1/score`,
    reply: gameScore,
    call: (t) => prediction.getEventScore(t.client, { eventId: 'evt-nba-1' }),
    expected: { score: '88-80', live: true, ended: false },
    errors: [[500, predictionError('x'), 'JUPITER_SERVER_ERROR']],
  },
  {
    name: 'getTradingStatus',
    method: 'get',
    path: `${P}/trading-status`,
    reply: { trading_active: true },
    call: (t) => prediction.getTradingStatus(t.client),
    expected: { trading_active: true },
    errors: [[500, predictionError('x'), 'JUPITER_SERVER_ERROR']],
  },
  {
    name: 'getPositions (filters, pagination)',
    method: 'get',
    path: `${P}/positions`,
    query: { ownerPubkey: WALLET, marketId: 'mkt-1', isYes: 'true', start: '0', end: '10' },
    reply: { data: [position], pagination },
    call: (t) => prediction.getPositions(t.client, { ownerPubkey: WALLET, marketId: 'mkt-1', isYes: true, start: 0, end: 10 }),
    expected: {
      data: [
        { pubkey: POSITION, contractsMicro: 10_500_000n, valueUsd: 5_775_000n, pnlUsd: -120_000n, realizedPnlUsd: 0n, markPriceUsd: 550_000n, contracts: '10' },
      ],
    },
    errors: [[400, invalid, 'PREDICTION_INVALID_REQUEST']],
  },
  {
    name: 'getPosition',
    method: 'get',
    path: `${P}/positions/${POSITION}`,
    reply: position,
    call: (t) => prediction.getPosition(t.client, { positionPubkey: POSITION }),
    expected: { pubkey: POSITION },
    errors: [
      [400, invalid, 'PREDICTION_INVALID_REQUEST'],
      [404, notFound, 'PREDICTION_NOT_FOUND'],
    ],
  },
  {
    name: 'getOrderStatus',
    method: 'get',
    path: `${P}/orders/status/${ORDER_PUBKEY}`,
    reply: orderStatus,
    call: (t) => prediction.getOrderStatus(t.client, { orderPubkey: ORDER_PUBKEY }),
    expected: { status: 'filled', history: [{ eventType: 'order_created' }, { eventType: 'order_filled' }] },
    errors: [
      [400, invalid, 'PREDICTION_INVALID_REQUEST'],
      [404, predictionError('no order history found', 'order_history_not_found'), 'PREDICTION_NOT_FOUND'],
    ],
  },
  {
    name: 'createOrder (buy)',
    method: 'post',
    path: `${P}/orders`,
    body: { ownerPubkey: WALLET, marketId: 'mkt-1', isYes: true, isBuy: true, depositAmount: '5000000', depositMint: USDC },
    reply: { ...createOrderResponse, order: { ...createOrderResponse.order, isBuy: true } },
    call: (t) =>
      prediction.createOrder(t.client, { ownerPubkey: WALLET, marketId: 'mkt-1', isYes: true, isBuy: true, depositAmount: 5_000_000n, depositMint: USDC }),
    expected: { order: { isBuy: true } },
    errors: [[400, predictionError('Minimum order is $5'), 'PREDICTION_INVALID_REQUEST']],
  },
  {
    name: 'sellPartial (POST /orders)',
    method: 'post',
    path: `${P}/orders`,
    body: { ownerPubkey: WALLET, positionPubkey: POSITION, isYes: true, contractsMicro: '5000000', isBuy: false },
    reply: createOrderResponse,
    call: (t) => prediction.sellPartial(t.client, { ownerPubkey: WALLET, positionPubkey: POSITION, isYes: true, contractsMicro: 5_000_000n }),
    expected: {
      order: { isBuy: false, minSellPriceUsd: 530_000n, estimatedTotalFeeUsd: 30_000n, contractsMicro: 5_000_000n },
      execution: { context: { type: 'create_order' } },
    },
    errors: [[400, predictionError('position too small', 'bisonfi_position_too_small'), 'PREDICTION_INVALID_REQUEST']],
  },
  {
    name: 'sellPosition (DELETE /positions/{pubkey})',
    method: 'delete',
    path: `${P}/positions/${POSITION}`,
    body: { ownerPubkey: WALLET },
    reply: createOrderResponse,
    call: (t) => prediction.sellPosition(t.client, { positionPubkey: POSITION, ownerPubkey: WALLET }),
    expected: { transaction: createOrderResponse.transaction, txMeta: { lastValidBlockHeight: 379220150 } },
    errors: [
      [400, invalid, 'PREDICTION_INVALID_REQUEST'],
      [404, notFound, 'PREDICTION_NOT_FOUND'],
    ],
  },
  {
    name: 'closeAllPositions (DELETE /positions)',
    method: 'delete',
    path: `${P}/positions`,
    body: { ownerPubkey: WALLET, minSellPriceSlippageBps: 200 },
    reply: { data: [createOrderResponse, claimResponse] },
    call: (t) => prediction.closeAllPositions(t.client, { ownerPubkey: WALLET, minSellPriceSlippageBps: 200 }),
    errors: [[400, invalid, 'PREDICTION_INVALID_REQUEST']],
  },
  {
    name: 'claimPosition',
    method: 'post',
    path: `${P}/positions/${POSITION}/claim`,
    body: { ownerPubkey: WALLET },
    reply: claimResponse,
    call: (t) => prediction.claimPosition(t.client, { positionPubkey: POSITION, ownerPubkey: WALLET }),
    expected: { position: { payoutAmountUsd: 10_500_000n, contractsMicro: 10_500_000n } },
    errors: [
      [400, predictionError('Market not settled yet'), 'PREDICTION_INVALID_REQUEST'],
      [404, notFound, 'PREDICTION_NOT_FOUND'],
    ],
  },
  {
    name: 'executePrediction',
    method: 'post',
    path: `${P}/execute`,
    body: { signedTransaction: 'AQAAsigned', context: { type: 'create_order', orderPubkey: ORDER_PUBKEY }, requestId: 'req-9' },
    reply: { status: 'Success', signature: 'sigP', error: null, requestId: 'req-9' },
    call: (t) =>
      prediction.executePrediction(t.client, {
        signedTransaction: 'AQAAsigned',
        context: { type: 'create_order', orderPubkey: ORDER_PUBKEY },
        requestId: 'req-9',
      }),
    expected: { status: 'Success', signature: 'sigP' },
    errors: [
      [400, predictionError('Expected string', 'invalid_type', 'signedTransaction'), 'PREDICTION_INVALID_REQUEST'],
      [400, predictionError('Execution failed', 'execute_failed'), 'PREDICTION_EXECUTE_FAILED'],
    ],
  },
];

function intercept(c: Case, status: number, reply: unknown): void {
  const scope = keyOnly();
  const interceptor =
    c.method === 'get'
      ? scope.get(c.path)
      : c.method === 'delete'
        ? scope.delete(c.path, c.body as nock.DataMatcherMap)
        : scope.post(c.path, c.body as nock.DataMatcherMap);
  (c.query ? interceptor.query(c.query) : interceptor).reply(status, reply as nock.Body, { 'x-api-gateway-request-id': `rid-${status}` });
}

describe.each(cases)('prediction $name', (c) => {
  it(`${c.method.toUpperCase()} ${c.path}: exact request, key only, parsed answer`, async () => {
    const t = testClient();
    intercept(c, 200, c.reply);
    const result = await c.call(t);
    expect(result).toMatchObject(c.expected ?? {});
  });

  it.each(c.errors)('%s maps to its typed error', async (status, body, code) => {
    const t = testClient();
    intercept(c, status, body);
    const error = await c.call(t).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PredictionApiError);
    const b = body as { type: string; message: string; code?: string; param?: string };
    expect(error).toMatchObject({ code, status, requestId: `rid-${status}`, errorType: b.type, apiCode: b.code ?? null, param: b.param ?? null });
    expect((error as Error).message).toContain(b.message);
    expect(errorText(error)).not.toContain(API_KEY);
  });
});

describe('prediction specifics', () => {
  it('scores: 250 event ids go out as batches of 100, 100 and 50', async () => {
    const t = testClient();
    const ids = Array.from({ length: 250 }, (_, i) => `evt-${i}`);
    const sizes: number[] = [];
    keyOnly()
      .get(`${P}/events/scores`)
      .query(true)
      .times(3)
      .reply((uri) => {
        const batch = (new URL(uri, 'https://x').searchParams.get('eventIds') ?? '').split(',');
        sizes.push(batch.length);
        return [200, { data: batch.map((eventId) => ({ ...gameScore, eventId })) }];
      });
    const result = await prediction.getScores(t.client, { eventIds: ids });
    expect(sizes.sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(result.data.map((s) => s.eventId).sort()).toEqual([...ids].sort());
  });

  it('scores: GET /events/scores?eventIds=a,b exactly', async () => {
    const t = testClient();
    keyOnly()
      .get(`${P}/events/scores`)
      .query({ eventIds: 'a,b' })
      .reply(200, { data: [{ ...gameScore, eventId: 'a' }] });
    expect((await prediction.getScores(t.client, { eventIds: ['a', 'b', 'a'] })).data).toHaveLength(1);
    keyOnly()
      .get(`${P}/events/scores`)
      .query(true)
      .reply(400, predictionError('bad', 'invalid_type', 'eventIds'));
    await expect(prediction.getScores(t.client, { eventIds: ['x'] })).rejects.toMatchObject({ code: 'PREDICTION_INVALID_REQUEST', param: 'eventIds' });
  });

  it('an event with no score answers null', async () => {
    const t = testClient();
    keyOnly().get(`${P}/events/evt-2/score`).reply(200, 'null', { 'content-type': 'application/json' });
    expect(await prediction.getEventScore(t.client, { eventId: 'evt-2' })).toBeNull();
  });

  it('close-all answers mix sells and claims', async () => {
    const t = testClient();
    keyOnly()
      .delete(`${P}/positions`, { ownerPubkey: WALLET, minSellPriceSlippageBps: 200 })
      .reply(200, { data: [createOrderResponse, claimResponse] });
    const { data } = await prediction.closeAllPositions(t.client, { ownerPubkey: WALLET, minSellPriceSlippageBps: 200 });
    expect(data.map(isClaimBuild)).toEqual([false, true]);
  });

  it('execute status "Failed" is PREDICTION_EXECUTE_FAILED', async () => {
    const t = testClient();
    keyOnly().post(`${P}/execute`).reply(200, { status: 'Failed', signature: null, error: 'blockhash expired' }, { 'x-api-gateway-request-id': 'rid-x' });
    const error = await prediction.executePrediction(t.client, { signedTransaction: 'AQAA' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecuteFailedError);
    expect(error).toMatchObject({ code: 'PREDICTION_EXECUTE_FAILED', status: 200, requestId: 'rid-x', outcomeUnknown: false });
    expect((error as Error).message).toContain('blockhash expired');
  });

  it('execute goes to the main bucket', async () => {
    const t = testClient();
    const buckets: string[] = [];
    t.client.events.on('request', (e) => buckets.push(e.bucket));
    keyOnly().post(`${P}/execute`).reply(200, { status: 'Success', signature: 's' });
    await prediction.executePrediction(t.client, { signedTransaction: 'AQAA' });
    expect(buckets).toEqual(['main']);
  });

  it('a { error } body (profiles-style) still maps to a PredictionApiError', async () => {
    const t = testClient();
    keyOnly().get(`${P}/markets/m`).reply(404, { error: 'Not found' });
    await expect(prediction.getMarket(t.client, { marketId: 'm' })).rejects.toMatchObject({ code: 'PREDICTION_NOT_FOUND', errorType: null });
  });

  it('a fractional micro-USD value is a schema error, never rounded', async () => {
    const t = testClient();
    keyOnly()
      .get(`${P}/positions/${POSITION}`)
      .reply(200, { ...position, valueUsd: '5775000.5' });
    await expect(prediction.getPosition(t.client, { positionPubkey: POSITION })).rejects.toMatchObject({ code: 'JUPITER_UNEXPECTED_RESPONSE' });
  });

  it('getAllPositions follows hasNext', async () => {
    const t = testClient();
    keyOnly()
      .get(`${P}/positions`)
      .query({ ownerPubkey: WALLET, start: '0', end: '1' })
      .reply(200, { data: [position], pagination: { start: 0, end: 1, total: 2, hasNext: true } });
    keyOnly()
      .get(`${P}/positions`)
      .query({ ownerPubkey: WALLET, start: '1', end: '2' })
      .reply(200, { data: [{ ...position, pubkey: 'second' }], pagination: { start: 1, end: 2, total: 2, hasNext: false } });
    const all = await prediction.getAllPositions(t.client, { ownerPubkey: WALLET, pageSize: 1 });
    expect(all.map((p) => p.pubkey)).toEqual([POSITION, 'second']);
  });

  it.each<[string, () => Promise<unknown>, string]>([
    [
      'a sell with two quantities',
      () =>
        prediction.sellPartial(testClient().client, { ownerPubkey: WALLET, positionPubkey: POSITION, isYes: true, contracts: '1', contractsMicro: '1000000' }),
      'contractsMicro',
    ],
    ['a sell with none', () => prediction.sellPartial(testClient().client, { ownerPubkey: WALLET, positionPubkey: POSITION, isYes: true }), 'contractsMicro'],
    [
      'close-all slippage over 10000',
      () => prediction.closeAllPositions(testClient().client, { ownerPubkey: WALLET, minSellPriceSlippageBps: 10_001 }),
      'minSellPriceSlippageBps',
    ],
    ['a search query over 200 chars', () => prediction.searchEvents(testClient().client, { query: 'x'.repeat(201) }), 'query'],
    ['a search limit of 21', () => prediction.searchEvents(testClient().client, { query: 'x', limit: 21 }), 'limit'],
    ['an unknown category', () => prediction.listEvents(testClient().client, { category: 'weather' as 'tech' }), 'category'],
    ['a comma inside an event id', () => prediction.getScores(testClient().client, { eventIds: ['a,b'] }), 'eventIds.0'],
  ])('rejects %s before sending', async (_name, run, field) => {
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsError);
    expect((error as ParamsError).field).toBe(field);
  });
});
