/* eslint-disable @typescript-eslint/no-unsafe-member-access -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { SOL, startSim, USDC, type Harness } from './support/simHarness.js';
import { createPriceOrder, orderById, triggerUser } from './support/triggerFlow.js';

let h: Harness;
afterEach(async () => h.close());

const history = async (u: { jwt: string }): Promise<trigger.OrderHistoryItem[]> =>
  trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?sort=created_at&dir=asc', { jwt: u.jwt })).body).orders;

describe('trigger v2 PATCH of take-profit and stop-loss prices', () => {
  it('moves both legs of an OCO, keeps tp above sl, and fills at the new levels', async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'patch-oco');
    const r = await createPriceOrder(h, u, {
      orderType: 'oco',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      tpPriceUsd: 170,
      slPriceUsd: 130,
    });
    const id = r.body.id as string;
    await h.clock.advance(1000);
    const ok = await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'oco', tpPriceUsd: 180, slPriceUsd: 140 } });
    expect(ok.status).toBe(200);
    expect(trigger.UpdatePriceOrderResponse.parse(ok.body).id).toBe(id);
    const legs = await history(u);
    expect(legs.map((o) => [o.triggerCondition, o.triggerPriceUsd])).toEqual([
      ['above', 180],
      ['below', 140],
    ]);
    // The same PATCH again leaves the order as it is (absolute values: idempotent).
    expect((await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'oco', tpPriceUsd: 180, slPriceUsd: 140 } })).status).toBe(
      200,
    );
    expect((await history(u)).map((o) => o.triggerPriceUsd)).toEqual([180, 140]);
    // One side alone, checked against the other leg.
    const crossed = await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'oco', slPriceUsd: 185 } });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error).toBe('tpPriceUsd must be greater than slPriceUsd');
    // 175 was above the old take-profit, not the new one; 139 is below the new stop.
    h.sim.control.setPrice(SOL, 175);
    await h.clock.advance(2000);
    expect((await history(u)).map((o) => o.orderState)).toEqual(['open', 'open']);
    h.sim.control.setPrice(SOL, 139);
    await h.clock.advance(3000);
    expect((await history(u)).map((o) => o.rawState)).toEqual(['oco_cancelled', 'fill_success']);
  });

  it('sets the children of an OTOCO before its parent fills', async () => {
    h = await startSim();
    h.sim.control.setPrice(SOL, 150);
    const u = await triggerUser(h, 'patch-otoco');
    const r = await createPriceOrder(h, u, {
      orderType: 'otoco',
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '300000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 140,
      tpPriceUsd: 160,
      slPriceUsd: 120,
    });
    const id = r.body.id as string;
    await h.clock.advance(1000);
    expect(
      (
        await h.call('PATCH', `/trigger/v2/orders/price/${id}`, {
          jwt: u.jwt,
          body: { orderType: 'otoco', triggerPriceUsd: 142, tpPriceUsd: 165, slPriceUsd: 125 },
        })
      ).status,
    ).toBe(200);
    expect((await orderById(h, u, id)).triggerPriceUsd).toBe(142);
    h.sim.control.setPrice(SOL, 141);
    await h.clock.advance(2000);
    const children = (await history(u)).slice(1);
    expect(children.map((o) => [o.triggerCondition, o.triggerPriceUsd])).toEqual([
      ['above', 165],
      ['below', 125],
    ]);
  });

  it('refuses tp/sl on a single order', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'patch-single');
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '20000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 100,
    });
    await h.clock.advance(1000);
    const refused = await h.call('PATCH', `/trigger/v2/orders/price/${r.body.id as string}`, { jwt: u.jwt, body: { orderType: 'single', tpPriceUsd: 200 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('tpPriceUsd and slPriceUsd apply to oco and otoco orders only');
  });
});
