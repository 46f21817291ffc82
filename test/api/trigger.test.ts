import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ParamsError, TriggerApiError } from '../../src/jupiter/errors.js';
import * as trigger from '../../src/jupiter/trigger.js';
import { dcaItem, depositCraft, historyItem, ORDER_ID, vault } from './fixtures.js';
import { withBearer } from '../../src/jupiter/transport.js';
import { API_KEY, errorText, JWT, keyOnly, SOL, testClient, USDC, WALLET, withJwt, type TestClient } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

const T = '/trigger/v2';
const DCA_ID = dcaItem.id;
const SIG58 = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9dBzPQm7aUe9dF4bFkWmqXKL3t4y3s3g5x9r8cYQp7WnJ4';
const EXPIRES = 1_767_312_000_000; // one day after the manual clock's start

const priceOrderBody = {
  orderType: 'single',
  depositRequestId: depositCraft.requestId,
  depositSignedTx: 'AQAAsigned',
  userPubkey: WALLET,
  inputMint: SOL,
  inputAmount: '1000000000',
  outputMint: USDC,
  triggerMint: SOL,
  triggerCondition: 'above',
  triggerPriceUsd: 200,
  slippageBps: 100,
  expiresAt: EXPIRES,
} as const;

const dcaBody = {
  depositRequestId: depositCraft.requestId,
  depositSignedTx: 'AQAAsigned',
  userPubkey: WALLET,
  inputMint: USDC,
  outputMint: SOL,
  inputAmount: '100000000',
  orderCount: 5,
  intervalSeconds: 3600,
  orderType: 'price_conditional',
  maxPriceUsd: 180.5,
  triggerMint: SOL,
  beginFillAt: '2026-01-02T00:00:00Z',
} as const;

interface Case {
  name: string;
  method: 'get' | 'post' | 'patch';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  jwt: boolean;
  status?: number;
  reply: unknown;
  call: (t: TestClient) => Promise<unknown>;
  expected?: unknown;
  errors: [number, unknown, string][];
}

const validation = { error: 'Request validation failed', details: { walletPubkey: 'Invalid input: expected string, received undefined' } };

const cases: Case[] = [
  {
    name: 'requestChallenge (message)',
    method: 'post',
    path: `${T}/auth/challenge`,
    body: { walletPubkey: WALLET, type: 'message' },
    jwt: false,
    reply: { type: 'message', challenge: 'Sign this message to authenticate with Jupiter Trigger Order API: abc123' },
    call: (t) => trigger.requestChallenge(t.client, { walletPubkey: WALLET, type: 'message' }),
    expected: { type: 'message', challenge: expect.stringContaining('abc123') as unknown },
    errors: [
      [400, validation, 'TRIGGER_VALIDATION_FAILED'],
      [500, { error: 'Internal error' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'requestChallenge (transaction)',
    method: 'post',
    path: `${T}/auth/challenge`,
    body: { walletPubkey: WALLET, type: 'transaction' },
    jwt: false,
    reply: { type: 'transaction', transaction: 'AQAAmemo' },
    call: (t) => trigger.requestChallenge(t.client, { walletPubkey: WALLET, type: 'transaction' }),
    expected: { type: 'transaction', transaction: 'AQAAmemo' },
    errors: [],
  },
  {
    name: 'verifyChallenge (message)',
    method: 'post',
    path: `${T}/auth/verify`,
    body: { type: 'message', walletPubkey: WALLET, signature: SIG58 },
    jwt: false,
    reply: { token: JWT },
    call: (t) => trigger.verifyChallenge(t.client, { type: 'message', walletPubkey: WALLET, signature: SIG58 }),
    expected: { token: JWT },
    errors: [
      [400, { error: 'Challenge not found' }, 'TRIGGER_CHALLENGE_REJECTED'],
      [401, { error: 'Invalid signature' }, 'TRIGGER_CHALLENGE_REJECTED'],
      [500, { error: 'boom' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'verifyChallenge (transaction)',
    method: 'post',
    path: `${T}/auth/verify`,
    body: { type: 'transaction', walletPubkey: WALLET, signedTransaction: 'AQAAsignedmemo' },
    jwt: false,
    reply: { token: JWT },
    call: (t) => trigger.verifyChallenge(t.client, { type: 'transaction', walletPubkey: WALLET, signedTransaction: 'AQAAsignedmemo' }),
    errors: [],
  },
  {
    name: 'getVault',
    method: 'get',
    path: `${T}/vault`,
    jwt: true,
    reply: vault,
    call: (t) => trigger.getVault(t.authed),
    expected: vault,
    errors: [
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [404, { error: 'Vault not found' }, 'TRIGGER_VAULT_NOT_FOUND'],
      [500, { error: 'x' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'registerVault (201)',
    method: 'get',
    path: `${T}/vault/register`,
    jwt: true,
    status: 201,
    reply: { userPubkey: WALLET, vaultPubkey: vault.vaultPubkey, privyVaultId: 'vault-uuid' },
    call: (t) => trigger.registerVault(t.authed),
    expected: { vaultPubkey: vault.vaultPubkey },
    errors: [
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [500, { error: 'x' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'registerVault (200)',
    method: 'get',
    path: `${T}/vault/register`,
    jwt: true,
    reply: vault,
    call: (t) => trigger.registerVault(t.authed),
    expected: { vaultPubkey: vault.vaultPubkey },
    errors: [],
  },
  {
    name: 'craftDeposit',
    method: 'post',
    path: `${T}/deposit/craft`,
    body: { inputMint: SOL, outputMint: USDC, userAddress: WALLET, amount: '1000000000', orderType: 'price', orderSubType: 'single' },
    jwt: true,
    reply: depositCraft,
    call: (t) =>
      trigger.craftDeposit(t.authed, {
        inputMint: SOL,
        outputMint: USDC,
        userAddress: WALLET,
        amount: 1_000_000_000n,
        orderType: 'price',
        orderSubType: 'single',
      }),
    expected: { requestId: depositCraft.requestId, tokenDecimals: 9, amount: '1000000000' },
    errors: [
      [400, { error: 'Order must be at least 10 USD (current value: 2.5 USD)' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'User address mismatch' }, 'TRIGGER_FORBIDDEN'],
      [500, { error: 'x' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'createPriceOrder (single)',
    method: 'post',
    path: `${T}/orders/price`,
    body: priceOrderBody,
    jwt: true,
    reply: { id: ORDER_ID, txSignature: 'depositSig', depositConfirmed: true },
    call: (t) => trigger.createPriceOrder(t.authed, priceOrderBody),
    expected: { id: ORDER_ID, depositConfirmed: true },
    errors: [
      [
        400,
        { error: 'Request validation failed', details: { triggerPriceUsd: 'exactly one of triggerPriceUsd or trailingBps must be set' } },
        'TRIGGER_VALIDATION_FAILED',
      ],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Forbidden: userPubkey must match authenticated user' }, 'TRIGGER_FORBIDDEN'],
      [500, { error: 'Failed to fetch price' }, 'JUPITER_SERVER_ERROR'],
    ],
  },
  {
    name: 'createPriceOrder (oco)',
    method: 'post',
    path: `${T}/orders/price`,
    body: {
      ...priceOrderBody,
      orderType: 'oco',
      triggerCondition: undefined,
      triggerPriceUsd: undefined,
      tpPriceUsd: 250,
      slPriceUsd: 150,
      tpSlippageBps: 50,
      slSlippageBps: 2000,
    },
    jwt: true,
    reply: { id: ORDER_ID, txSignature: 's', depositConfirmed: true },
    call: (t) => {
      const { triggerCondition: _c, triggerPriceUsd: _p, ...rest } = priceOrderBody;
      return trigger.createPriceOrder(t.authed, { ...rest, orderType: 'oco', tpPriceUsd: 250, slPriceUsd: 150, tpSlippageBps: 50, slSlippageBps: 2000 });
    },
    errors: [],
  },
  {
    name: 'createPriceOrder (otoco)',
    method: 'post',
    path: `${T}/orders/price`,
    body: { ...priceOrderBody, orderType: 'otoco', triggerCondition: 'below', triggerPriceUsd: 120, tpPriceUsd: 250, slPriceUsd: 100 },
    jwt: true,
    reply: { id: ORDER_ID, txSignature: 's', depositConfirmed: false, message: 'Order already exists' },
    call: (t) =>
      trigger.createPriceOrder(t.authed, {
        ...priceOrderBody,
        orderType: 'otoco',
        triggerCondition: 'below',
        triggerPriceUsd: 120,
        tpPriceUsd: 250,
        slPriceUsd: 100,
      }),
    expected: { message: 'Order already exists' },
    errors: [],
  },
  {
    name: 'createPriceOrder (trailing)',
    method: 'post',
    path: `${T}/orders/price`,
    body: { ...priceOrderBody, triggerCondition: 'below', triggerPriceUsd: undefined, trailingBps: 500 },
    jwt: true,
    reply: { id: ORDER_ID, txSignature: 's', depositConfirmed: true },
    call: (t) => {
      const { triggerPriceUsd: _p, ...rest } = priceOrderBody;
      return trigger.createPriceOrder(t.authed, { ...rest, triggerCondition: 'below', trailingBps: 500 });
    },
    errors: [],
  },
  {
    name: 'updatePriceOrder',
    method: 'patch',
    path: `${T}/orders/price/${ORDER_ID}`,
    body: { orderType: 'single', triggerPriceUsd: 210, slippageBps: 150 },
    jwt: true,
    reply: { id: ORDER_ID },
    call: (t) => trigger.updatePriceOrder(t.authed, { orderId: ORDER_ID, orderType: 'single', triggerPriceUsd: 210, slippageBps: 150 }),
    expected: { id: ORDER_ID },
    errors: [
      [400, { error: 'Cannot set trigger price on trailing stop loss order' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Order belongs to a different wallet' }, 'TRIGGER_FORBIDDEN'],
      [404, { error: 'Order not found' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
  {
    name: 'cancelPriceOrder',
    method: 'post',
    path: `${T}/orders/price/cancel/${ORDER_ID}`,
    jwt: true,
    reply: { id: ORDER_ID, transaction: 'AQAAwithdraw', requestId: 'cancel-request-uuid' },
    call: (t) => trigger.cancelPriceOrder(t.authed, { orderId: ORDER_ID }),
    expected: { requestId: 'cancel-request-uuid' },
    errors: [
      [400, { error: 'Order not in a cancellable state' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Order belongs to a different wallet' }, 'TRIGGER_FORBIDDEN'],
      [404, { error: 'Order not found' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
  {
    name: 'confirmCancelPriceOrder',
    method: 'post',
    path: `${T}/orders/price/confirm-cancel/${ORDER_ID}`,
    body: { signedTransaction: 'AQAAsignedwithdraw', cancelRequestId: 'cancel-request-uuid' },
    jwt: true,
    reply: { id: ORDER_ID, txSignature: 'withdrawSig' },
    call: (t) =>
      trigger.confirmCancelPriceOrder(t.authed, { orderId: ORDER_ID, signedTransaction: 'AQAAsignedwithdraw', cancelRequestId: 'cancel-request-uuid' }),
    expected: { txSignature: 'withdrawSig' },
    errors: [
      [400, { error: 'Withdrawal transaction not found in cache' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Order belongs to a different wallet' }, 'TRIGGER_FORBIDDEN'],
      [404, { error: 'Order not found' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
  {
    name: 'getOrderHistory',
    method: 'get',
    path: `${T}/orders/history`,
    query: { state: 'active', mint: SOL, limit: '50', offset: '100', sort: 'expires_at', dir: 'asc' },
    jwt: true,
    reply: { orders: [historyItem], pagination: { total: 101, limit: 50, offset: 100 } },
    call: (t) => trigger.getOrderHistory(t.authed, { state: 'active', mint: SOL, limit: 50, offset: 100, sort: 'expires_at', dir: 'asc' }),
    expected: { orders: [{ id: ORDER_ID, orderState: 'open', trailingBps: 500, highWatermark: 158.16 }], pagination: { total: 101 } },
    errors: [
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Forbidden' }, 'TRIGGER_FORBIDDEN'],
    ],
  },
  {
    name: 'getPriceOrder',
    method: 'get',
    path: `${T}/orders/history/${ORDER_ID}`,
    jwt: true,
    reply: historyItem,
    call: (t) => trigger.getPriceOrder(t.authed, { orderId: ORDER_ID }),
    expected: { id: ORDER_ID },
    errors: [[404, { error: 'Order not found' }, 'TRIGGER_NOT_FOUND']],
  },
  {
    name: 'createDcaOrder',
    method: 'post',
    path: `${T}/orders/dca`,
    body: dcaBody,
    jwt: true,
    reply: { id: DCA_ID, txSignature: 'depositSig' },
    call: (t) => trigger.createDcaOrder(t.authed, dcaBody),
    expected: { id: DCA_ID },
    errors: [
      [400, { error: 'Maximum of 10 active DCA orders allowed per user' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [403, { error: 'Forbidden: userPubkey must match authenticated user' }, 'TRIGGER_FORBIDDEN'],
    ],
  },
  {
    name: 'getDcaHistory',
    method: 'get',
    path: `${T}/orders/history/dca`,
    query: { state: 'past', limit: '20', offset: '0', sort: 'next_fill_at', dir: 'desc' },
    jwt: true,
    reply: { orders: [dcaItem], pagination: { total: 1, limit: 20, offset: 0 } },
    call: (t) => trigger.getDcaHistory(t.authed, { state: 'past', limit: 20, offset: 0, sort: 'next_fill_at', dir: 'desc' }),
    expected: { orders: [{ id: DCA_ID, state: 'active', fillPercent: 0.2 }] },
    errors: [[401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED']],
  },
  {
    name: 'getDcaOrder',
    method: 'get',
    path: `${T}/orders/history/dca/${DCA_ID}`,
    jwt: true,
    reply: dcaItem,
    call: (t) => trigger.getDcaOrder(t.authed, { id: DCA_ID }),
    expected: { id: DCA_ID },
    errors: [
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [404, { error: 'DCA order not found or you do not own it' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
  {
    name: 'cancelDcaOrder',
    method: 'post',
    path: `${T}/orders/dca/cancel/${DCA_ID}`,
    jwt: true,
    reply: { id: DCA_ID, roundsRemaining: 4, refundAmount: '80000000', transaction: 'AQAAwithdraw', requestId: 'dca-cancel' },
    call: (t) => trigger.cancelDcaOrder(t.authed, { id: DCA_ID }),
    expected: { roundsRemaining: 4, refundAmount: '80000000' },
    errors: [
      [400, { error: "Cannot cancel DCA order in 'completed' state" }, 'TRIGGER_BAD_REQUEST'],
      [404, { error: 'DCA order not found or you do not own it' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
  {
    name: 'confirmCancelDcaOrder',
    method: 'post',
    path: `${T}/orders/dca/confirm-cancel/${DCA_ID}`,
    body: { signedTransaction: 'AQAAsigned', cancelRequestId: 'dca-cancel' },
    jwt: true,
    reply: { id: DCA_ID, txSignature: 'withdrawSig' },
    call: (t) => trigger.confirmCancelDcaOrder(t.authed, { id: DCA_ID, signedTransaction: 'AQAAsigned', cancelRequestId: 'dca-cancel' }),
    expected: { txSignature: 'withdrawSig' },
    errors: [
      [400, { error: 'DCA order not in cancellation state' }, 'TRIGGER_BAD_REQUEST'],
      [401, { error: 'Unauthorized' }, 'TRIGGER_UNAUTHORIZED'],
      [404, { error: 'DCA order not found or you do not own it' }, 'TRIGGER_NOT_FOUND'],
    ],
  },
];

function intercept(c: Case, status: number, reply: unknown): nock.Scope {
  const scope = c.jwt ? withJwt() : keyOnly();
  const body = c.body ? (JSON.parse(JSON.stringify(c.body)) as nock.DataMatcherMap) : undefined; // drops undefined fields, like the wire
  const interceptor =
    c.method === 'get'
      ? scope.get(c.path)
      : c.method === 'patch'
        ? scope.patch(c.path, body)
        : body
          ? scope.post(c.path, body)
          : scope.post(c.path, (b) => b === '' || b === undefined || Object.keys(b as object).length === 0);
  return (c.query ? interceptor.query(c.query) : interceptor).reply(status, reply as nock.Body, { 'x-api-gateway-request-id': `rid-${status}` });
}

describe.each(cases)('trigger $name', (c) => {
  it(`${c.method.toUpperCase()} ${c.path}: exact request, ${c.jwt ? 'key + JWT' : 'key only'}, parsed answer`, async () => {
    const t = testClient();
    intercept(c, c.status ?? 200, c.reply);
    const result = await c.call(t);
    expect(result).toMatchObject(c.expected ?? {});
  });

  if (c.errors.length > 0) {
    it.each(c.errors)('%s maps to its typed error', async (status, body, code) => {
      const t = testClient();
      intercept(c, status, body);
      const error = await c.call(t).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TriggerApiError);
      expect(error).toMatchObject({ code, status, requestId: `rid-${status}`, method: c.method.toUpperCase() });
      const details = (body as { details?: unknown }).details;
      if (details) expect((error as TriggerApiError).triggerDetails).toEqual(details);
      expect((error as Error).message).toContain((body as { error: string }).error);
      expect(errorText(error)).not.toContain(API_KEY);
      expect(errorText(error)).not.toContain(JWT);
    });
  }
});

describe('trigger specifics', () => {
  it('409 on vault register keeps the existing vault in details', async () => {
    const t = testClient();
    withJwt().get(`${T}/vault/register`).reply(409, { error: 'Vault already exists', details: vault });
    const error = await trigger.registerVault(t.authed).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRIGGER_VAULT_EXISTS', status: 409, triggerDetails: vault });
    expect(trigger.existingVault(error)).toEqual(vault);
  });

  it('a gateway 401 on a JWT route is the API key, not the JWT', async () => {
    const t = testClient();
    withJwt().get(`${T}/vault`).reply(401, { code: 401, message: 'Invalid API key' });
    await expect(trigger.getVault(t.authed)).rejects.toMatchObject({ code: 'JUPITER_UNAUTHORIZED' });
  });

  it('a failing bearer (login) propagates its own error and sends nothing', async () => {
    const t = testClient();
    const loginFailed = new Error('login failed');
    const authed = withBearer(t.client, () => Promise.reject(loginFailed));
    await expect(trigger.getVault(authed)).rejects.toBe(loginFailed);
    expect(t.client.limiter('main').window.count(t.clock.monotonic())).toBe(0);
  });

  it('sends every route exactly as documented, none with a trailing slash', async () => {
    const t = testClient();
    const sent: string[] = [];
    for (const c of cases) {
      intercept(c, c.status ?? 200, c.reply).on('request', (req: { path: string }) => sent.push(req.path.split('?')[0] ?? ''));
      await c.call(t);
    }
    expect(sent).toEqual(cases.map((c) => c.path));
    expect(sent.filter((path) => path.endsWith('/'))).toEqual([]);
  });

  it('history helpers page through offsets', async () => {
    const t = testClient();
    withJwt()
      .get(`${T}/orders/history`)
      .query({ limit: '1', offset: '0' })
      .reply(200, { orders: [historyItem], pagination: { total: 2, limit: 1, offset: 0 } });
    withJwt()
      .get(`${T}/orders/history`)
      .query({ limit: '1', offset: '1' })
      .reply(200, { orders: [{ ...historyItem, id: 'second' }], pagination: { total: 2, limit: 1, offset: 1 } });
    const all = await trigger.getAllOrderHistory(t.authed, { limit: 1 });
    expect(all.map((o) => o.id)).toEqual([ORDER_ID, 'second']);
  });

  it('DCA history pages through offsets too, and stops at a short page', async () => {
    const t = testClient();
    withJwt()
      .get(`${T}/orders/history/dca`)
      .query({ state: 'active', limit: '2', offset: '0' })
      .reply(200, { orders: [dcaItem, { ...dcaItem, id: 'b' }], pagination: { limit: 2, offset: 0 } });
    withJwt()
      .get(`${T}/orders/history/dca`)
      .query({ state: 'active', limit: '2', offset: '2' })
      .reply(200, { orders: [{ ...dcaItem, id: 'c' }], pagination: { limit: 2, offset: 2 } });
    const all = await trigger.getAllDcaHistory(t.authed, { state: 'active', limit: 2 });
    expect(all.map((o) => o.id)).toEqual([DCA_ID, 'b', 'c']);
  });

  it('the JWT is scrubbed from logs and the verify answer registers it with the redactor', async () => {
    const t = testClient();
    keyOnly().post(`${T}/auth/verify`).reply(200, { token: 'opaque-token-without-jwt-shape' });
    await trigger.verifyChallenge(t.client, { type: 'message', walletPubkey: WALLET, signature: SIG58 });
    expect(t.client.redactor.scrubText('x opaque-token-without-jwt-shape y')).toBe('x [redacted] y');
    expect(t.logs.text).not.toContain(API_KEY);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['single without condition', { triggerCondition: undefined }, 'triggerCondition'],
    ['single with both price and trailing', { trailingBps: 500 }, 'triggerPriceUsd'],
    ['trailing out of range', { triggerPriceUsd: undefined, trailingBps: 40 }, 'trailingBps'],
    ['trailing below watching the output mint', { triggerPriceUsd: undefined, trailingBps: 500, triggerCondition: 'below', triggerMint: USDC }, 'triggerMint'],
    ['oco without sl', { orderType: 'oco', triggerPriceUsd: undefined, triggerCondition: undefined, tpPriceUsd: 250 }, 'slPriceUsd'],
    ['oco with tp <= sl', { orderType: 'oco', triggerPriceUsd: undefined, triggerCondition: undefined, tpPriceUsd: 100, slPriceUsd: 150 }, 'tpPriceUsd'],
    ['expired expiresAt', { expiresAt: 1_767_225_000_000 }, 'expiresAt'],
    ['float amount', { inputAmount: '1.5' }, 'inputAmount'],
  ])('createPriceOrder rejects %s before sending', async (_name, patch, field) => {
    const t = testClient();
    const params = Object.fromEntries(Object.entries({ ...priceOrderBody, ...patch }).filter(([, v]) => v !== undefined));
    const error = await trigger.createPriceOrder(t.authed, params as unknown as trigger.CreatePriceOrderParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsError);
    expect((error as ParamsError).field).toBe(field);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['price without subtype', { orderType: 'price', orderSubType: undefined }, 'orderSubType'],
    ['dca with subtype', { orderType: 'dca', orderSubType: 'single' }, 'orderSubType'],
    ['zero amount', { amount: '0' }, 'amount'],
  ])('craftDeposit rejects %s before sending', async (_name, patch, field) => {
    const t = testClient();
    const params = Object.fromEntries(
      Object.entries({ inputMint: SOL, outputMint: USDC, userAddress: WALLET, amount: '5', orderType: 'price', orderSubType: 'single', ...patch }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    await expect(trigger.craftDeposit(t.authed, params as unknown as trigger.DepositCraftParams)).rejects.toMatchObject({
      code: 'JUPITER_INVALID_PARAMS',
      field,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['one order', { orderCount: 1 }, 'orderCount'],
    ['interval too short', { intervalSeconds: 59 }, 'intervalSeconds'],
    ['price_conditional without trigger mint', { triggerMint: undefined }, 'triggerMint'],
    ['time_based with a price bound', { orderType: 'time_based' }, 'maxPriceUsd'],
  ])('createDcaOrder rejects %s before sending', async (_name, patch, field) => {
    const t = testClient();
    const params = Object.fromEntries(Object.entries({ ...dcaBody, ...patch }).filter(([, v]) => v !== undefined));
    await expect(trigger.createDcaOrder(t.authed, params as unknown as trigger.CreateDcaOrderParams)).rejects.toMatchObject({
      code: 'JUPITER_INVALID_PARAMS',
      field,
    });
  });

  it('PATCH needs something to change and rejects a path-breaking id', async () => {
    const t = testClient();
    await expect(trigger.updatePriceOrder(t.authed, { orderId: ORDER_ID, orderType: 'single' })).rejects.toBeInstanceOf(ParamsError);
    await expect(trigger.cancelPriceOrder(t.authed, { orderId: '../vault' })).rejects.toMatchObject({ field: 'orderId' });
  });
});
