import { describe, expect, it } from 'vitest';
import { linkSignals } from '../../../src/jupiter/abort.js';
import { buildUrl, normaliseBaseUrl, withBearer, createJupiterClient } from '../../../src/jupiter/transport.js';
import { orderFailureReason } from '../../../src/jupiter/errors.js';
import { BaseUnits, MicroUsd, openEnum, prediction, swap, tokens, trigger } from '../../../src/jupiter/schemas/index.js';
import { ManualClock } from '../../../src/clock.js';
import { createRandom } from '../../../src/random.js';

describe('money schemas', () => {
  it.each([
    ['123', 123n],
    [456, 456n],
    ['-120000', -120000n],
    ['9007199254740993', 9007199254740993n],
  ])('MicroUsd parses %j exactly to a bigint', (input, out) => {
    expect(MicroUsd.parse(input)).toBe(out);
  });

  it.each([['1.5'], [1.5], ['abc'], [''], [null]])('MicroUsd refuses %j (never rounds)', (input) => {
    expect(MicroUsd.safeParse(input).success).toBe(false);
  });

  it('BaseUnits are decimal integer strings', () => {
    expect(BaseUnits.safeParse('1000').success).toBe(true);
    expect(BaseUnits.safeParse('1e3').success).toBe(false);
    expect(BaseUnits.safeParse(1000).success).toBe(false);
  });

  it('open enums accept unknown values', () => {
    expect(openEnum(['a', 'b']).parse('c')).toBe('c');
  });
});

describe('wire schemas are tolerant where Jupiter may change and strict where we send', () => {
  it('response objects keep unknown fields and accept null for optional ones', () => {
    const parsed = trigger.OrderHistoryItem.parse({
      id: 'x',
      orderType: 'single',
      orderState: 'a_new_state',
      userPubkey: 'u',
      inputMint: 'i',
      outputMint: 'o',
      slippageBps: null,
      extra: 1,
    });
    expect(parsed).toMatchObject({ orderState: 'a_new_state', slippageBps: null, extra: 1 });
  });

  it('request objects refuse unknown fields', () => {
    expect(swap.ExecuteParams.safeParse({ signedTransaction: 'a', requestId: 'b', extra: 1 }).success).toBe(false);
    expect(
      prediction.CloseAllPositionsParams.safeParse({ ownerPubkey: 'BQ72nSv9f3PRyRKCBnHLVrerrv37CYTHm5h3s9VSGQDV', minSellPriceSlippageBps: 1, x: 1 }).success,
    ).toBe(false);
  });

  it('the search limit constants match the API', () => {
    expect(tokens.MAX_MINTS_PER_SEARCH).toBe(100);
    expect(prediction.MAX_EVENT_IDS_PER_SCORES).toBe(100);
  });

  it('the wire and parsed faces of a position differ only in money types', () => {
    const wire: prediction.PositionWire = { pubkey: 'p', ownerPubkey: 'o', marketId: 'm', isYes: true, valueUsd: '5' };
    const parsed: prediction.Position = prediction.Position.parse(wire);
    expect(parsed.valueUsd).toBe(5n);
  });
});

describe('helpers', () => {
  it('linkSignals follows any source and detaches on dispose', () => {
    const a = new AbortController();
    const link = linkSignals(a.signal, undefined);
    a.abort('why');
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('why');
    const b = new AbortController();
    const link2 = linkSignals(b.signal);
    link2.dispose();
    b.abort();
    expect(link2.signal.aborted).toBe(false);
  });

  it('normaliseBaseUrl strips area suffixes and refuses credentials in the URL', () => {
    expect(normaliseBaseUrl('https://api.jup.ag/')).toEqual({ root: 'https://api.jup.ag', legacy: false, stripped: null });
    expect(normaliseBaseUrl('https://api.jup.ag/ultra/v1')).toEqual({ root: 'https://api.jup.ag', legacy: true, stripped: '/ultra/v1' });
    expect(normaliseBaseUrl('http://127.0.0.1:8080/swap/v2/')).toMatchObject({ root: 'http://127.0.0.1:8080', legacy: false });
    expect(() => normaliseBaseUrl('https://user:secret@api.jup.ag')).toThrow(/credentials/);
  });

  it('buildUrl joins arrays with commas and skips undefined', () => {
    expect(buildUrl('https://x', '/a', { a: ['1', '2'], b: undefined, c: true, d: 3 })).toBe('https://x/a?a=1%2C2&c=true&d=3');
  });

  it('withBearer keeps the client working and adds the bearer', async () => {
    const client = createJupiterClient({ baseUrl: 'https://x', requestsPerSecond: 1, clock: new ManualClock(), random: createRandom('x') });
    const authed = withBearer(client, () => Promise.resolve('token-123456'));
    expect(authed.limiter('main')).toBe(client.limiter('main'));
    expect(await authed.bearer()).toBe('token-123456');
  });

  it('createJupiterClient validates its options', () => {
    const base = { baseUrl: 'https://x', requestsPerSecond: 1, clock: new ManualClock(), random: createRandom('x') };
    expect(() => createJupiterClient({ ...base, apiKey: 'short' })).toThrow(/apiKey/);
    expect(() => createJupiterClient({ ...base, requestsPerSecond: 0 })).toThrow(/requestsPerSecond/);
    expect(() => createJupiterClient({ ...base, maxReadAttempts: 0 })).toThrow(/maxReadAttempts/);
    expect(() => createJupiterClient({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it.each([
    ['metis', 1, 'insufficient_funds'],
    ['iris', 2, 'insufficient_sol'],
    ['jupiterz', 2, 'missing_token_account'],
    [null, 1, 'unknown'],
    ['metis', null, 'unknown'],
  ] as const)('orderFailureReason(%s, %s) = %s', (router, code, reason) => {
    expect(orderFailureReason(router, code)).toBe(reason);
  });
});
