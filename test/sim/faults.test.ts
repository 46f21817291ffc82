/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { JUP, SOL, startSim, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

const search = '/ultra/v1/search?query=SOL';

describe('fault injection and the control surface', () => {
  it('answers an injected status a given number of times', async () => {
    h = await startSim();
    const r = await h.call('POST', '/__sim/faults', { body: { path: '/ultra/v1/search', kind: 'status', status: 503, count: 2 } });
    expect(r.body.id).toBe(1);
    expect((await h.call('GET', search)).status).toBe(503);
    const second = await h.call('GET', search);
    expect(second.status).toBe(503);
    expect(second.body).toEqual({ code: 503, message: 'Service Unavailable' });
    expect(second.headers.get('x-api-gateway-request-id')).toBeTruthy();
    expect((await h.call('GET', search)).status).toBe(200);
  });

  it('sends malformed JSON, drops connections and delays on the injected clock until cleared', async () => {
    h = await startSim();
    h.sim.control.injectFault({ path: '/ultra/v1/*', kind: 'malformed' });
    const bad = await h.call('GET', search);
    expect(bad.status).toBe(200);
    expect(bad.body).toBeUndefined();
    expect((await h.call('GET', search)).body).toBeUndefined();
    await h.call('DELETE', '/__sim/faults');
    expect(Array.isArray((await h.call('GET', search)).body)).toBe(true);
    h.sim.control.injectFault({ path: '/ultra/v1/search', kind: 'reset', count: 1 });
    await expect(h.call('GET', search)).rejects.toThrow();
    h.sim.control.injectFault({ path: '/ultra/v1/search', kind: 'delay', delayMs: 30_000, count: 1 });
    let done = false;
    const pending = h.call('GET', search).then((r) => {
      done = true;
      return r;
    });
    await h.clock.whenSleeping(1);
    expect(done).toBe(false);
    await h.clock.advance(30_000);
    expect((await pending).status).toBe(200);
  });

  it('runs scripted scenarios: a 429 storm in a time window', async () => {
    h = await startSim();
    const ids = (
      await h.call('POST', '/__sim/scenario', {
        body: {
          steps: [
            { atMs: 10_000, durationMs: 5_000, path: '/ultra/v1/search', kind: 'status', status: 429, body: { code: 429, message: 'Too many requests' } },
          ],
        },
      })
    ).body.ids;
    expect(ids).toHaveLength(1);
    expect((await h.call('GET', search)).status).toBe(200);
    await h.call('POST', '/__sim/advance', { body: { ms: 10_000 } });
    expect((await h.call('GET', search)).status).toBe(429);
    await h.clock.advance(5_000);
    expect((await h.call('GET', search)).status).toBe(200);
  });

  it('sets prices, funds wallets and dumps the ledger and orders over HTTP', async () => {
    h = await startSim();
    expect((await h.call('POST', '/__sim/price', { body: { mint: SOL, usd: 321 } })).status).toBe(200);
    expect(h.sim.control.price(SOL)).toBe(321);
    expect((await h.call('POST', '/__sim/price', { body: { mint: SOL, usd: -1 } })).status).toBe(400);
    const w = 'BhbuNgiMxfLwyy1AneQXxjXTQVY9JQd91UqrdLSuhRva';
    const fund = await h.call('POST', '/__sim/fund', { body: { wallet: w, amount: '5000' } });
    expect(fund.body.balance).toBe('5000');
    const ledger = (await h.call('GET', '/__sim/ledger')).body;
    expect(ledger.balances[w][SOL]).toBe('5000');
    expect(ledger.entries.at(-1)).toMatchObject({ wallet: w, mint: SOL, delta: '5000', reason: 'fund' });
    expect((await h.call('GET', '/__sim/orders')).body).toEqual({ price: [], dca: [], prediction: [] });
    expect((await h.call('GET', '/__sim/invariants')).body).toEqual({ supplyMismatches: [], negativeBalances: [] });
    const state = (await h.call('GET', '/__sim/state')).body;
    expect(state.now).toBe(h.clock.now());
  });

  it('revokes one JWT by matching its Authorization header; a fresh token still passes', async () => {
    h = await startSim();
    const owner = wallet('revoked').publicKey.toBase58();
    const revoked = h.sim.control.triggerToken(owner);
    h.sim.control.injectFault({
      path: '/trigger/v2/*',
      headers: { Authorization: `Bearer ${revoked}` },
      kind: 'status',
      status: 401,
      body: { error: 'Unauthorized' },
    });
    const refused = await h.call('GET', '/trigger/v2/orders/history?state=active', { jwt: revoked });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Unauthorized' });
    await h.clock.advance(1_000);
    const fresh = h.sim.control.triggerToken(owner);
    expect(fresh).not.toBe(revoked);
    expect((await h.call('GET', '/trigger/v2/orders/history?state=active', { jwt: fresh })).status).toBe(200);
    // The login routes carry no bearer, so a revocation never blocks logging in again.
    expect((await h.call('POST', '/trigger/v2/auth/challenge', { body: { walletPubkey: owner, type: 'message' } })).status).toBe(200);
  });

  it('takes the Solana RPC down: connections dropped, then 503, then back', async () => {
    h = await startSim();
    const getSlot = { jsonrpc: '2.0', id: 1, method: 'getSlot', params: [] };
    const now = h.clock.now();
    h.sim.control.injectFault({ path: '/rpc', kind: 'reset', fromMs: now, untilMs: now + 60_000 });
    h.sim.control.injectFault({
      path: '/rpc',
      kind: 'status',
      status: 503,
      body: { jsonrpc: '2.0', error: { code: -32603, message: 'Service Unavailable' }, id: null },
      fromMs: now + 60_000,
      untilMs: now + 120_000,
    });
    await expect(h.call('POST', '/rpc', { body: getSlot })).rejects.toThrow();
    // The APIs are not affected by a fault on /rpc.
    expect((await h.call('GET', search)).status).toBe(200);
    await h.clock.advance(60_000);
    const down = await h.call('POST', '/rpc', { body: getSlot });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe(-32603);
    await h.clock.advance(60_000);
    const up = await h.call('POST', '/rpc', { body: getSlot });
    expect(up.status).toBe(200);
    expect(typeof up.body.result).toBe('number');
  });

  it('holds prices still between setPrice calls with priceWalk: false', async () => {
    h = await startSim({ priceWalk: false });
    h.sim.control.setPrice(JUP, 1.25);
    await h.sim.control.advance(3_600_000);
    expect(h.sim.control.price(JUP)).toBe(1.25);
    expect(h.sim.control.price(SOL)).toBe(150);
  });
});
