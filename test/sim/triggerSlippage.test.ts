/* eslint-disable @typescript-eslint/no-unsafe-member-access -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { SOL, startSim, USDC, type Harness } from './support/simHarness.js';
import { createPriceOrder, triggerUser, type TriggerUser } from './support/triggerFlow.js';

let h: Harness;
afterEach(async () => h.close());

const legs = async (u: TriggerUser): Promise<[string | null | undefined, number | null | undefined, number | null | undefined][]> =>
  trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?sort=created_at&dir=asc', { jwt: u.jwt })).body).orders.map((o) => [
    o.triggerCondition,
    o.triggerPriceUsd,
    o.slippageBps,
  ]);

const OCO = { orderType: 'oco', inputMint: SOL, outputMint: USDC, inputAmount: '500000000', triggerMint: SOL, tpPriceUsd: 170, slPriceUsd: 130 };
const OTOCO = {
  orderType: 'otoco',
  inputMint: USDC,
  outputMint: SOL,
  inputAmount: '300000000',
  triggerMint: SOL,
  triggerCondition: 'below',
  triggerPriceUsd: 140,
  tpPriceUsd: 160,
  slPriceUsd: 120,
};

describe('trigger v2 slippage of price orders and their legs', () => {
  it("gives an OCO's legs the slippage sent for each, and its defaults to legs sent without (slippageBps reaches neither)", async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'slip-oco');
    expect((await createPriceOrder(h, u, { ...OCO, slippageBps: 50 })).status).toBe(200);
    // Another amount: the same transfer in the same slot would be the same transaction.
    expect((await createPriceOrder(h, u, { ...OCO, inputAmount: '600000000', tpSlippageBps: 40, slSlippageBps: 120 })).status).toBe(200);
    expect(await legs(u)).toEqual([
      ['above', 170, 100],
      ['below', 130, 2000],
      ['above', 170, 40],
      ['below', 130, 120],
    ]);
  });

  it("gives an OTOCO's parent slippageBps and its children the legs' slippage once the parent fills", async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'slip-otoco');
    expect((await createPriceOrder(h, u, { ...OTOCO, slippageBps: 30, tpSlippageBps: 40, slSlippageBps: 120 })).status).toBe(200);
    await h.clock.advance(1000);
    expect(await legs(u)).toEqual([['below', 140, 30]]);
    h.sim.control.setPrice(SOL, 135);
    await h.clock.advance(2000);
    expect(await legs(u)).toEqual([
      ['below', 140, 30],
      ['above', 160, 40],
      ['below', 120, 120],
    ]);
  });

  it('refuses leg slippage on a single order, a slippage that is not a number, and one outside 0–10000', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'slip-refused');
    const single = {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 100,
    };
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { ...single, tpSlippageBps: 50, slSlippageBps: 50 },
        { tpSlippageBps: 'Only for oco and otoco orders', slSlippageBps: 'Only for oco and otoco orders' },
      ],
      [{ ...OCO, slSlippageBps: '50' }, { slSlippageBps: 'Invalid input: expected number' }],
      [
        { ...OCO, tpSlippageBps: 10_001, slSlippageBps: -1 },
        { tpSlippageBps: 'Must be between 0 and 10000', slSlippageBps: 'Must be between 0 and 10000' },
      ],
      [{ ...single, slippageBps: 10_001 }, { slippageBps: 'Must be between 0 and 10000' }],
    ];
    for (const [order, details] of cases) {
      const reply = await createPriceOrder(h, u, order as Parameters<typeof createPriceOrder>[2]);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: 'Request validation failed', details });
    }
    expect(await legs(u)).toEqual([]);
  });

  it("PATCHes an OCO's leg slippage, checks it as at creation, and leaves the legs to tp/sl slippage alone", async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'slip-patch');
    const id = (await createPriceOrder(h, u, { ...OCO, tpSlippageBps: 40, slSlippageBps: 120 })).body.id as string;
    await h.clock.advance(1000);
    const patch = (body: Record<string, unknown>): ReturnType<Harness['call']> => h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body });
    expect((await patch({ orderType: 'oco', slSlippageBps: 300 })).status).toBe(200);
    expect(await legs(u)).toEqual([
      ['above', 170, 40],
      ['below', 130, 300],
    ]);
    // An OCO has no slippage of its own: slippageBps moves neither leg.
    expect((await patch({ orderType: 'oco', slippageBps: 900 })).status).toBe(200);
    expect((await patch({ orderType: 'oco', tpSlippageBps: 60 })).status).toBe(200);
    expect(await legs(u)).toEqual([
      ['above', 170, 60],
      ['below', 130, 300],
    ]);
    const out = await patch({ orderType: 'oco', tpSlippageBps: 10_001 });
    expect(out.status).toBe(400);
    expect(out.body).toEqual({ error: 'Request validation failed', details: { tpSlippageBps: 'Must be between 0 and 10000' } });
    expect(await legs(u)).toEqual([
      ['above', 170, 60],
      ['below', 130, 300],
    ]);
  });

  it("PATCHes an OTOCO's children slippage without touching its parent's, and refuses leg slippage on a single order", async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'slip-patch-otoco');
    const id = (await createPriceOrder(h, u, { ...OTOCO, slippageBps: 30, tpSlippageBps: 40, slSlippageBps: 120 })).body.id as string;
    await h.clock.advance(1000);
    const ok = await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'otoco', tpSlippageBps: 45, slSlippageBps: 150 } });
    expect(ok.status).toBe(200);
    expect(await legs(u)).toEqual([['below', 140, 30]]);
    h.sim.control.setPrice(SOL, 135);
    await h.clock.advance(2000);
    expect(await legs(u)).toEqual([
      ['below', 140, 30],
      ['above', 160, 45],
      ['below', 120, 150],
    ]);

    const single = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 100,
      slippageBps: 80,
    });
    await h.clock.advance(1000);
    const refused = await h.call('PATCH', `/trigger/v2/orders/price/${single.body.id as string}`, {
      jwt: u.jwt,
      body: { orderType: 'single', slSlippageBps: 50 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Request validation failed', details: { slSlippageBps: 'Only for oco and otoco orders' } });
    expect((await legs(u))[3]).toEqual(['below', 100, 80]);
  });
});
