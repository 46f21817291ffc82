/**
 * The rehearsal's vault handlers under the real executor, on a database with an opened ledger: a
 * placement is one `trigger_orders` row the ledger holds, refused where live mode refuses it; a
 * cancel returns what the row held; a renewal hands on its replacement in the confirming
 * transaction; a PATCH moves the row's trigger, refused as Trigger V2 refuses it. No call to Jupiter.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rehearsalOrderId, readOrder } from '../../../src/rehearsal/rehearsalOrderStore.js';
import { dcaParams, type Desk, entry, FEE, ocoParams, OPENING, rehearsalDesk, SOL, START, USDC } from './support/rehearsalDesk.js';

const desks: Desk[] = [];
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.stop();
});

function desk(options?: Parameters<typeof rehearsalDesk>[0]): Desk {
  const d = rehearsalDesk(options);
  desks.push(d);
  return d;
}

const TWO_SOL = 2_000_000_000n;

describe('place-vault-order, rehearsed', () => {
  it('writes one open row holding the deposit, records its id and order.placed, and the ledger holds the deposit and its fee', async () => {
    const d = desk();
    const row = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    expect(row.state).toBe('confirmed');
    const id = rehearsalOrderId(row.id);
    expect(row.orderId).toBe(id);
    const order = readOrder(d.db, id);
    expect(order).toMatchObject({
      state: 'open',
      family: 'price',
      orderType: 'oco',
      inputAmount: TWO_SOL,
      remaining: TWO_SOL,
      tpPriceUsd: '180',
      slPriceUsd: '135',
    });
    expect(order?.raw.slippage).toEqual({ tpSlippageBps: 50, slSlippageBps: 100 });
    expect(d.db.prepare('SELECT count(*) AS n FROM trigger_orders').get()).toEqual({ n: 1 });
    expect(d.actions('order.placed').map((a) => a.data['orderId'])).toEqual([id]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL - FEE);
    expect(d.ledger(USDC)).toBe(OPENING[USDC]);
    expect(d.requests).toEqual([]);
  });

  it('asked again after a lost answer finds its row instead of making a second one; settle repeats only before it exists', async () => {
    const d = desk();
    const handler = d.handler('place-vault-order');
    const context = { signal: new AbortController().signal };
    const row = d.journal.markSent(d.journal.plan(entry('tp', 'place-vault-order', ocoParams(TWO_SOL))).row.id, { mode: 'call' });
    expect(await handler.settle(row, context)).toMatchObject({ kind: 'repeat' });
    expect(await handler.call(row, context)).toMatchObject({ kind: 'confirmed', data: { via: 'rehearsal' } });
    expect(await handler.call(row, context)).toMatchObject({ kind: 'confirmed', data: { via: 'database' } });
    expect(await handler.settle(row, context)).toMatchObject({ kind: 'confirmed', data: { orderId: rehearsalOrderId(row.id) } });
    expect(d.db.prepare('SELECT count(*) AS n FROM trigger_orders').get()).toEqual({ n: 1 });
    expect(d.actions('order.placed')).toHaveLength(1);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL);
  });

  it('refuses slippage above the vault cap, as live mode does, and holds nothing', async () => {
    const d = desk({ maxVaultSlippageBps: 80 });
    const row = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    expect([row.state, row.errorCode]).toEqual(['failed', 'VAULT_SLIPPAGE_EXCEEDS_CAP']);
    expect(d.ledger(SOL)).toBe(OPENING[SOL]);
  });

  it('refuses a body the Trigger client refuses (take-profit not above stop-loss): PARAMS_INVALID', async () => {
    const d = desk();
    const row = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL, { tpPriceUsd: '130' })));
    expect([row.state, row.errorCode]).toEqual(['failed', 'PARAMS_INVALID']);
    expect(d.db.prepare('SELECT count(*) AS n FROM trigger_orders').get()).toEqual({ n: 0 });
  });

  it('refuses an order whose expiry has passed', async () => {
    const d = desk();
    const row = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL, { expiresAt: START - 1 })));
    expect([row.state, row.errorCode]).toEqual(['failed', 'VAULT_ORDER_EXPIRED']);
  });

  it('refuses a deposit the ledger cannot pay, as the deposit simulation would fail live', async () => {
    const d = desk();
    const row = await d.execute(entry('tp', 'place-vault-order', ocoParams(OPENING[SOL])));
    expect([row.state, row.errorCode]).toEqual(['failed', 'GUARD_REFUSED']);
    expect(d.actions('intent.failed')[0]?.data).toMatchObject({ reason: 'SIMULATION_FAILED', rehearsal: true });
    expect(d.ledger(SOL)).toBe(OPENING[SOL]);
  });
});

describe('cancel-vault-order, rehearsed', () => {
  it('cancels the row and returns what it held to the ledger, less the withdrawal fee', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const orderId = placed.orderId ?? '';
    const row = await d.execute(entry('cancel', 'cancel-vault-order', { orderId, family: 'price' }));
    expect(row.state).toBe('confirmed');
    expect(readOrder(d.db, orderId)?.state).toBe('cancelled');
    expect(d.actions('order.cancelled')).toMatchObject([{ intentId: row.id, data: { orderId, via: 'cancel', returned: TWO_SOL.toString() } }]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - 2n * FEE);
  });

  it('refuses an order that holds nothing any more, and one this rehearsal does not hold', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const orderId = placed.orderId ?? '';
    await d.execute(entry('cancel', 'cancel-vault-order', { orderId, family: 'price' }));
    const twice = await d.execute(entry('cancel-again', 'cancel-vault-order', { orderId, family: 'price' }));
    expect([twice.state, twice.errorCode]).toEqual(['failed', 'VAULT_ORDER_NOT_OPEN']);
    const unknown = await d.execute(entry('cancel-unknown', 'cancel-vault-order', { orderId: 'no-such-order', family: 'price' }));
    expect([unknown.state, unknown.errorCode]).toEqual(['failed', 'VAULT_ORDER_GONE']);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - 2n * FEE);
  });

  it('a DCA order is cancelled by its family, with what it still holds returned', async () => {
    const d = desk();
    const placed = await d.execute(entry('dca', 'place-dca-vault-order', dcaParams()));
    const wrong = await d.execute(entry('cancel-price', 'cancel-vault-order', { orderId: placed.orderId ?? '', family: 'price' }));
    expect(wrong.errorCode).toBe('VAULT_ORDER_GONE');
    const row = await d.execute(entry('cancel', 'cancel-vault-order', { orderId: placed.orderId ?? '', family: 'dca' }));
    expect(row.state).toBe('confirmed');
    expect(d.ledger(USDC)).toBe(OPENING[USDC]);
  });
});

describe('renew-vault-order, rehearsed', () => {
  it('a renewal withdraws the old order and plans its replacement in the confirming transaction, which is placed at once', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const replacement = ocoParams(TWO_SOL, { expiresAt: START + 14 * 86_400_000 });
    const renewal = await d.execute(
      entry('renew', 'renew-vault-order', { orderId: placed.orderId ?? '', family: 'price', then: { params: replacement, reason: 'renew' } }),
    );
    expect(renewal.state).toBe('confirmed');
    expect(d.actions('intent.confirmed').find((a) => a.intentId === renewal.id)?.data['successor']).toBe(`${renewal.id}#place`);
    const successor = d.journal.require(`${renewal.id}#place`);
    expect(successor.state).toBe('confirmed');
    expect(readOrder(d.db, placed.orderId ?? '')?.state).toBe('cancelled');
    expect(readOrder(d.db, successor.orderId ?? '')).toMatchObject({ state: 'open', expiresAt: START + 14 * 86_400_000, remaining: TWO_SOL });
    // Two deposits and one withdrawal paid; the replacement holds the same amount again.
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL - 3n * FEE);
  });

  it('a renewal whose replacement has expired withdraws nothing', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const renewal = await d.execute(
      entry('renew', 'renew-vault-order', {
        orderId: placed.orderId ?? '',
        family: 'price',
        then: { params: ocoParams(TWO_SOL, { expiresAt: START - 1 }), reason: 'renew' },
      }),
    );
    expect([renewal.state, renewal.errorCode]).toEqual(['failed', 'VAULT_ORDER_EXPIRED']);
    expect(readOrder(d.db, placed.orderId ?? '')?.state).toBe('open');
  });

  it('settles a lost answer by the order.cancelled it wrote: repeat before, confirmed (with the successor) after', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const handler = d.handler('renew-vault-order');
    const context = { signal: new AbortController().signal };
    const then = { params: ocoParams(TWO_SOL, { expiresAt: START + 14 * 86_400_000 }), reason: 'renew' };
    const row = d.journal.markSent(d.journal.plan(entry('renew', 'renew-vault-order', { orderId: placed.orderId ?? '', family: 'price', then })).row.id, {
      mode: 'call',
    });
    expect(await handler.settle(row, context)).toMatchObject({ kind: 'repeat' });
    expect(await handler.call(row, context)).toMatchObject({ kind: 'confirmed', successor: { id: `${row.id}#place` } });
    expect(await handler.settle(row, context)).toMatchObject({ kind: 'confirmed', successor: { id: `${row.id}#place` } });
  });

  it('a cancel row carrying a replacement is not a renewal: its params do not parse, nothing is withdrawn', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const then = { params: ocoParams(TWO_SOL, { expiresAt: START + 14 * 86_400_000 }), reason: 'renew' };
    const row = await d.execute(entry('old-renew', 'cancel-vault-order', { orderId: placed.orderId ?? '', family: 'price', then }));
    expect([row.state, row.errorCode]).toEqual(['failed', 'PARAMS_INVALID']);
    expect(readOrder(d.db, placed.orderId ?? '')?.state).toBe('open');
    expect(d.journal.get(`${row.id}#place`)).toBeUndefined();
  });
});

describe('patch-vault-order, rehearsed', () => {
  const single = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    ...ocoParams(TWO_SOL),
    orderType: 'single',
    tpPriceUsd: undefined,
    slPriceUsd: undefined,
    tpSlippageBps: undefined,
    slSlippageBps: undefined,
    triggerCondition: 'below',
    triggerPriceUsd: '132',
    slippageBps: 100,
    ...extra,
  });
  const clean = (params: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));

  it('moves the trigger of an open stop (the ratchet raising it)', async () => {
    const d = desk();
    const placed = await d.execute(entry('stop', 'place-vault-order', clean(single())));
    const row = await d.execute(entry('raise', 'patch-vault-order', { orderId: placed.orderId ?? '', orderType: 'single', triggerPriceUsd: '140.5' }));
    expect(row.state).toBe('confirmed');
    expect(readOrder(d.db, placed.orderId ?? '')?.triggerPriceUsd).toBe('140.5');
  });

  it('moves an OCO leg and its slippage, refusing a take-profit not above the stop-loss', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const orderId = placed.orderId ?? '';
    const ok = await d.execute(entry('sl', 'patch-vault-order', { orderId, orderType: 'oco', slPriceUsd: '140', slSlippageBps: 150 }));
    expect(ok.state).toBe('confirmed');
    expect(readOrder(d.db, orderId)).toMatchObject({
      slPriceUsd: '140',
      tpPriceUsd: '180',
      raw: { slippage: { tpSlippageBps: 50, slSlippageBps: 150 } },
    });
    const bad = await d.execute(entry('sl-high', 'patch-vault-order', { orderId, orderType: 'oco', slPriceUsd: '185' }));
    expect([bad.state, bad.errorCode]).toEqual(['failed', 'TRIGGER_BAD_REQUEST']);
    expect(readOrder(d.db, orderId)?.slPriceUsd).toBe('140');
  });

  it('refuses a trigger price on a trailing order, slippage above the cap, and an order that is not open', async () => {
    const d = desk({ maxVaultSlippageBps: 200 });
    const trailing = await d.execute(entry('trail', 'place-vault-order', clean(single({ triggerPriceUsd: undefined, trailingBps: 1200 }))));
    const orderId = trailing.orderId ?? '';
    const onTrailing = await d.execute(entry('p1', 'patch-vault-order', { orderId, orderType: 'single', triggerPriceUsd: '150' }));
    expect(onTrailing.errorCode).toBe('TRIGGER_BAD_REQUEST');
    const overCap = await d.execute(entry('p2', 'patch-vault-order', { orderId, orderType: 'single', slippageBps: 250 }));
    expect(overCap.errorCode).toBe('VAULT_SLIPPAGE_EXCEEDS_CAP');
    await d.execute(entry('cancel', 'cancel-vault-order', { orderId, family: 'price' }));
    const notOpen = await d.execute(entry('p3', 'patch-vault-order', { orderId, orderType: 'single', slippageBps: 150 }));
    expect(notOpen.errorCode).toBe('VAULT_ORDER_NOT_OPEN');
  });
});

describe('place-dca-vault-order, rehearsed', () => {
  it('writes one active row holding the total, its first round due now', async () => {
    const d = desk();
    const row = await d.execute(entry('dca', 'place-dca-vault-order', dcaParams()));
    expect(row.state).toBe('confirmed');
    const order = readOrder(d.db, row.orderId ?? '');
    expect(order).toMatchObject({ state: 'active', family: 'dca', orderType: 'time_based', inputAmount: 60_000_000n });
    expect(order?.raw.dca).toEqual({ orderCount: 3, intervalSeconds: 3600, nextFillAt: START, roundsFilled: 0, minPriceUsd: null, maxPriceUsd: null });
    expect(d.ledger(USDC)).toBe(OPENING[USDC] - 60_000_000n);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - FEE);
  });
});
