import { DEFAULT_STRATEGY_LIMITS } from '../../../../src/strategies/strategyLimits.js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/clock.js';
import { AREA_RETRY_MS, AreaAccess, type ObservedRequest } from '../../../../src/engine/areas/areaAccess.js';
import { createAreaGate } from '../../../../src/engine/areas/areaGate.js';
import { AreaNeeds, specAreas } from '../../../../src/engine/areas/areaNeeds.js';
import type { ApiArea } from '../../../../src/jupiter/apiAreas.js';
import { areaOfRoute } from '../../../../src/jupiter/apiAreas.js';
import type { ActionInput } from '../../../../src/store/actionRow.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';

const T0 = Date.UTC(2026, 10, 2, 8);
const NO_ACCESS = 'API key does not have access to this endpoint';

/** An AreaAccess over a stub client; what is needed is `want` unless `needs` answers instead. */
function harness(needs?: AreaNeeds) {
  const clock = new ManualClock(T0);
  const client = new TypedEmitter<{ request: ObservedRequest }>();
  const recorded: ActionInput[] = [];
  const probes: [ApiArea, number][] = [];
  const want = { tokens: true, swap: true, trigger: true, prediction: true };
  let answer: (area: ApiArea) => ObservedRequest = (area) => ({ method: 'GET', route: `/${area}`, status: 403, code: 'JUPITER_FORBIDDEN', reason: NO_ACCESS });
  const access = new AreaAccess({
    clock,
    audit: { append: (a) => recorded.push(a) },
    needed: (area) => (needs ? needs.needed(area) : want[area]),
    users: (area) => (needs ? needs.users(area) : area === 'prediction' ? ['btc-exit'] : []),
    probe(area) {
      probes.push([area, clock.now() - T0]);
      const reply = answer(area);
      client.emit('request', reply);
      return reply.status === 200 ? Promise.resolve() : Promise.reject(new Error(`${reply.status}`));
    },
  });
  access.observe(client);
  const stop = new AbortController();
  access.start(stop.signal);
  return {
    clock,
    client,
    access,
    recorded,
    probes,
    want,
    stop,
    answerWith(fn: (area: ApiArea) => ObservedRequest) {
      answer = fn;
    },
  };
}

const refusal = (route: string, code = 'JUPITER_FORBIDDEN'): ObservedRequest => ({ method: 'GET', route, status: 403, code, reason: NO_ACCESS });

describe('AreaAccess', () => {
  it('turns an area off at the gateway’s 403 only, once, and names the refusal and whom it pauses', () => {
    const h = harness();
    h.client.emit('request', {
      method: 'POST',
      route: '/trigger/v2/orders/price',
      status: 403,
      code: 'TRIGGER_FORBIDDEN',
      reason: 'Forbidden: userPubkey must match',
    });
    h.client.emit('request', { method: 'GET', route: '/prediction/v1/positions', status: 401, code: 'JUPITER_UNAUTHORIZED', reason: 'Invalid API key' });
    h.client.emit('request', { method: 'GET', route: '/prediction/v1/positions', status: 503, code: 'JUPITER_SERVER_ERROR', reason: null });
    expect(h.recorded).toEqual([]);
    expect(['tokens', 'swap', 'trigger', 'prediction'].map((a) => h.access.isOn(a as ApiArea))).toEqual([true, true, true, true]);

    h.client.emit('request', refusal('/prediction/v1/positions'));
    h.client.emit('request', refusal('/prediction/v1/trading-status'));
    expect(h.recorded).toEqual([
      {
        kind: 'area.off',
        data: { area: 'prediction', status: 403, message: NO_ACCESS, call: 'GET /prediction/v1/positions', retryMs: AREA_RETRY_MS, strategies: ['btc-exit'] },
      },
    ]);
    expect(h.access.isOn('prediction')).toBe(false);
    expect(h.access.offWords('prediction')).toBe(
      `the prediction area of the Jupiter API is off for this key: GET /prediction/v1/positions answered 403 "${NO_ACCESS}" at 2026-11-02T08:00:00.000Z; asked again every 10m`,
    );
    expect(h.access.status().find((s) => s.area === 'prediction')).toEqual({
      area: 'prediction',
      on: false,
      needed: true,
      strategies: ['btc-exit'],
      offSince: T0,
      refusal: { status: 403, message: NO_ACCESS, call: 'GET /prediction/v1/positions' },
      nextTryAt: T0 + AREA_RETRY_MS,
    });
    h.stop.abort();
  });

  it('asks an off area again every 10 minutes while it is needed, not otherwise, and turns it on at the first answer', async () => {
    const h = harness();
    h.client.emit('request', refusal('/trigger/v2/auth/challenge'));
    await h.clock.advance(AREA_RETRY_MS - 1);
    expect(h.probes).toEqual([]);
    await h.clock.advance(1);
    await h.clock.advance(AREA_RETRY_MS);
    expect(h.probes).toEqual([
      ['trigger', AREA_RETRY_MS],
      ['trigger', 2 * AREA_RETRY_MS],
    ]);
    // Nothing needs it for half an hour: not asked.
    h.want.trigger = false;
    await h.clock.advance(3 * AREA_RETRY_MS);
    expect(h.probes).toHaveLength(2);
    // Needed again, and the key has Trigger now: the next try answers and the area is on.
    h.want.trigger = true;
    h.answerWith(() => ({ method: 'POST', route: '/trigger/v2/auth/challenge', status: 200, code: null }));
    const changed = h.access.events.next('changed');
    await h.clock.advance(AREA_RETRY_MS);
    expect(await changed).toEqual({ area: 'trigger', on: true });
    expect(h.probes).toEqual([
      ['trigger', AREA_RETRY_MS],
      ['trigger', 2 * AREA_RETRY_MS],
      ['trigger', 6 * AREA_RETRY_MS],
    ]);
    expect(h.recorded.map((a) => [a.kind, a.data])).toEqual([
      ['area.off', expect.objectContaining({ area: 'trigger', call: 'GET /trigger/v2/auth/challenge' })],
      ['area.on', { area: 'trigger', call: 'POST /trigger/v2/auth/challenge', offSince: T0, offForMs: 6 * AREA_RETRY_MS }],
    ]);
    // On: no more tries.
    await h.clock.advance(3 * AREA_RETRY_MS);
    expect(h.probes).toHaveLength(3);
    h.stop.abort();
    await h.access.done();
  });
});

function strategy(name: string, spec: Record<string, unknown>): LoadedStrategy {
  return {
    name,
    file: `${name}.yaml`,
    hash: 'h',
    text: '',
    spec: { name, enabled: true, ...spec } as unknown as LoadedStrategy['spec'],
    tokens: {},
    limits: DEFAULT_STRATEGY_LIMITS,
  };
}

describe('what strategies need, and the gate', () => {
  it('maps each kind and execution to its areas; a disabled strategy needs none', () => {
    const areas = (spec: Record<string, unknown>): readonly ApiArea[] => specAreas({ name: 'x', enabled: true, ...spec } as unknown as LoadedStrategy['spec']);
    expect(areas({ kind: 'price-order', execution: 'local' })).toEqual(['tokens', 'swap']);
    expect(areas({ kind: 'price-order', execution: 'vault' })).toEqual(['tokens', 'trigger']);
    expect(areas({ kind: 'dca', execution: 'swap' })).toEqual(['tokens', 'swap']);
    expect(areas({ kind: 'dca', execution: 'vault' })).toEqual(['tokens', 'trigger']);
    expect(areas({ kind: 'prediction-exit' })).toEqual(['prediction']);
    expect(areas({ kind: 'dca', execution: 'swap', enabled: false })).toEqual([]);
    expect(
      ['/ultra/v1/order', '/ultra/v1/search', '/tokens/v2/search', '/swap/v2/execute', '/trigger/v2/vault', '/prediction/v1/positions', '/rpc'].map(
        areaOfRoute,
      ),
    ).toEqual(['swap', 'tokens', 'tokens', 'swap', 'trigger', 'prediction', null]);
  });

  it('pauses feeds of areas nothing needs or that are off, and the strategies that need an off area; Trigger stays needed while our vault orders are open', () => {
    let loaded = new Map([['dca', strategy('dca', { kind: 'dca', execution: 'swap' })]]);
    let openOrders = false;
    const needs = new AreaNeeds(
      () => loaded,
      () => openOrders,
    );
    const h = harness(needs);
    const gate = createAreaGate(h.access, needs);
    expect(gate.feedPaused('tokens')).toBeNull();
    expect(gate.feedPaused('trigger')).toBe('no loaded strategy needs Trigger vault orders (the trigger area)');
    expect(gate.feedPaused('prediction')).toBe('no loaded strategy needs prediction markets (the prediction area)');
    expect(gate.readiness().probe()).toEqual({ ok: true, detail: 'not polled, no loaded strategy needs them: trigger, prediction' });
    openOrders = true;
    expect(gate.feedPaused('trigger')).toBeNull();

    const btc = strategy('btc', { kind: 'prediction-exit' });
    loaded = new Map([...loaded, ['btc', btc]]);
    expect(gate.feedPaused('prediction')).toBeNull();
    expect(gate.readiness().probe()).toEqual({ ok: true });
    h.client.emit('request', refusal('/prediction/v1/positions'));
    const off = `the prediction area of the Jupiter API is off for this key: GET /prediction/v1/positions answered 403 "${NO_ACCESS}" at 2026-11-02T08:00:00.000Z; asked again every 10m`;
    expect(gate.feedPaused('prediction')).toBe(off);
    expect(gate.strategyPaused(btc)).toBe(`paused: ${off}`);
    expect(gate.strategyPaused(loaded.get('dca') as LoadedStrategy)).toBeNull();
    expect(gate.readiness().probe()).toEqual({
      ok: true,
      detail: `prediction off since 2026-11-02T08:00:00.000Z (403 "${NO_ACCESS}" on GET /prediction/v1/positions), asked again at 2026-11-02T08:10:00.000Z; paused: btc`,
    });
    h.stop.abort();
  });
});
