import { afterEach, describe, expect, it } from 'vitest';
import { GatewayErrorBody } from '../../src/jupiter/schemas/index.js';
import { startSim, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

describe('gateway', () => {
  it('accepts any key by default and puts a request id on every answer', async () => {
    h = await startSim();
    const ok = await h.call('GET', '/ultra/v1/search?query=SOL', { key: 'anything' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-api-gateway-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('599');
    const missing = await h.call('GET', '/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-api-gateway-request-id')).toBeTruthy();
  });

  it('limits keyless calls to 30 per sliding 60 s, with reset at the oldest call + 60 s', async () => {
    h = await startSim();
    const start = h.clock.now();
    for (let i = 0; i < 30; i++) {
      const r = await h.call('GET', '/ultra/v1/search?query=SOL', { key: null });
      expect(r.status).toBe(200);
      await h.clock.advance(1000);
    }
    const limited = await h.call('GET', '/ultra/v1/search?query=SOL', { key: null });
    expect(limited.status).toBe(429);
    expect(GatewayErrorBody.parse(limited.body).code).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-current')).toBe('30');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((start + 60_000) / 1000));
    // One slot frees when the oldest call leaves the window; no lockout.
    await h.clock.advance(start + 60_000 - h.clock.now());
    expect((await h.call('GET', '/ultra/v1/search?query=SOL', { key: null })).status).toBe(200);
    expect((await h.call('GET', '/ultra/v1/search?query=SOL', { key: null })).status).toBe(429);
  });

  it('keeps /execute in its own bucket', async () => {
    h = await startSim({ gateway: { keyedRequestsPerMinute: 2 } });
    await h.call('GET', '/ultra/v1/search?query=SOL');
    await h.call('GET', '/ultra/v1/search?query=SOL');
    expect((await h.call('GET', '/ultra/v1/search?query=SOL')).status).toBe(429);
    const exec = await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: 'AA==', requestId: 'x' } });
    expect(exec.status).toBe(200);
    expect(exec.headers.get('x-ratelimit-remaining')).toBe('2999');
  });

  it('answers 401 for unknown keys and 403 out of scope when a key list is configured, without rate headers', async () => {
    h = await startSim({ gateway: { keys: { swapOnly: { scopes: ['Swap'] }, all: {} } } });
    const unknown = await h.call('GET', '/ultra/v1/search?query=SOL', { key: 'stolen' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ code: 401, message: 'Invalid API key' });
    expect(unknown.headers.get('x-ratelimit-remaining')).toBeNull();
    const scoped = await h.call('GET', '/tokens/v2/search?query=SOL', { key: 'swapOnly' });
    expect(scoped.status).toBe(403);
    expect(scoped.body).toEqual({ code: 403, message: 'API key does not have access to this endpoint' });
    expect((await h.call('GET', '/tokens/v2/search?query=SOL', { key: 'all' })).status).toBe(200);
    expect(
      (
        await h.call(
          'GET',
          `/swap/v2/order?inputMint=${'So11111111111111111111111111111111111111112'}&outputMint=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v&amount=1000`,
          { key: 'swapOnly' },
        )
      ).status,
    ).toBe(200);
    // Keyless requests are still served at the keyless quota.
    expect((await h.call('GET', '/ultra/v1/search?query=SOL', { key: null })).status).toBe(200);
  });

  it('scopes one key at run time while other keys stay valid, and blocks a product for a region; refusals cost no quota', async () => {
    h = await startSim({ gateway: { keyedRequestsPerMinute: 3 } });
    const scoped = await h.call('POST', '/__sim/gateway/scopes', { body: { key: 'mine', products: ['Swap', 'Tokens'] } });
    expect([scoped.status, scoped.body]).toEqual([200, { key: 'mine', products: ['Swap', 'Tokens'] }]);
    for (const refused of [
      await h.call('POST', '/trigger/v2/auth/challenge', { key: 'mine', body: { walletPubkey: 'x', type: 'message' } }),
      await h.call('GET', '/prediction/v1/trading-status', { key: 'mine' }),
    ]) {
      expect([refused.status, refused.body, refused.headers.get('x-ratelimit-remaining')]).toEqual([
        403,
        { code: 403, message: 'API key does not have access to this endpoint' },
        null,
      ]);
    }
    expect((await h.call('GET', '/tokens/v2/search?query=SOL', { key: 'mine' })).headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await h.call('GET', '/prediction/v1/trading-status', { key: 'other' })).status).toBe(200);

    const blocked = await h.call('POST', '/__sim/gateway/blocked', { body: { products: ['Prediction'] } });
    expect([blocked.status, blocked.body]).toEqual([200, { products: ['Prediction'] }]);
    const geo = await h.call('GET', '/prediction/v1/trading-status', { key: 'other' });
    expect([geo.status, geo.body]).toEqual([403, { code: 403, message: 'Prediction is not available in your region' }]);
    expect((await h.call('GET', '/prediction/v1/trading-status', { key: null })).status).toBe(403);

    // Lifted: every product again.
    await h.call('POST', '/__sim/gateway/scopes', { body: { key: 'mine', products: null } });
    await h.call('POST', '/__sim/gateway/blocked', { body: { products: [] } });
    expect((await h.call('GET', '/prediction/v1/trading-status', { key: 'mine' })).status).toBe(200);
    const bad = await h.call('POST', '/__sim/gateway/scopes', { body: { key: 'mine', products: ['Lend'] } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'expected { key, products: [Swap|Tokens|Trigger|Prediction, ...] | null }' }]);
  });
});
