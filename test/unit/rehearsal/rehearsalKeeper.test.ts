/**
 * The rehearsal's keeper: on each prices update it fills the rehearsal's vault orders as Trigger V2's
 * keeper would, at the quote Jupiter answers without a taker, the fill and the order's change in one
 * transaction, so the ledger is always opening − what fills took + what they brought − what live
 * (or expired) orders still hold − fees.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readOrder, rehearsalOrderId } from '../../../src/rehearsal/rehearsalOrderStore.js';
import { dcaParams, type Desk, entry, FEE, JUP, ocoParams, OPENING, rehearsalDesk, SOL, START, USDC } from './support/rehearsalDesk.js';

const desks: Desk[] = [];
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.stop();
});

function desk(): Desk {
  const d = rehearsalDesk();
  desks.push(d);
  return d;
}

const TWO_SOL = 2_000_000_000n;
const HOUR = 3_600_000;

interface FillRow {
  signature: string;
  source: string;
  intent_id: string;
  trigger_order_id: string;
  in_mint: string;
  in_amount: string;
  out_mint: string;
  out_amount: string;
  raw: string;
}
const fills = (d: Desk): FillRow[] => d.db.prepare('SELECT * FROM fills ORDER BY id').all() as FillRow[];

/** Event-loop turns until the keeper's quote reached Jupiter (no timers). */
async function untilRequested(d: Desk, count: number): Promise<void> {
  for (let i = 0; i < 200 && d.requests.length < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(d.requests).toHaveLength(count);
}

describe('a rehearsed OCO', () => {
  it('fills its take-profit at exactly the quote once the price reaches it, and the ledger moves by the fill', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const orderId = placed.orderId ?? '';
    await d.prices({ [SOL]: 179.99, [USDC]: 1 });
    expect(d.requests).toEqual([]);
    d.answer = () => ({ outAmount: 361_234_567n });
    await d.prices({ [SOL]: 180, [USDC]: 1 });
    expect(d.requests.map((r) => r.query)).toEqual([{ inputMint: SOL, outputMint: USDC, amount: TWO_SOL.toString() }]);
    expect(readOrder(d.db, orderId)).toMatchObject({ state: 'filled', remaining: 0n, inputUsed: TWO_SOL, outputAmount: 361_234_567n });
    const [fill] = fills(d);
    expect(fill).toMatchObject({
      signature: `${orderId}/fill-0`,
      source: 'trigger',
      intent_id: placed.id,
      trigger_order_id: orderId,
      in_amount: TWO_SOL.toString(),
      out_amount: '361234567',
    });
    expect(JSON.parse(fill?.raw ?? '{}')).toMatchObject({
      quote: { leg: 'take_profit', inAmount: TWO_SOL.toString(), outAmount: '361234567', triggerUsd: '180' },
    });
    expect(d.actions('fill').map((a) => a.intentId)).toEqual([placed.id]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL - FEE);
    expect(d.ledger(USDC)).toBe(OPENING[USDC] + 361_234_567n);
    // Filled: nothing more is asked, whatever the price does.
    await d.prices({ [SOL]: 120, [USDC]: 1 });
    expect(d.requests).toHaveLength(1);
  });

  it('does not fill a stop-loss the price gapped through by more than its slippage; fills when a quote is within it', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const orderId = placed.orderId ?? '';
    // At the stop ($135, 100 bps) the least output is 2 × 135 × 0.99 = 267.3 USDC.
    d.answer = () => ({ outAmount: 267_299_999n });
    await d.prices({ [SOL]: 130, [USDC]: 1 });
    expect(d.requests).toHaveLength(1);
    expect(readOrder(d.db, orderId)?.state).toBe('open');
    expect(fills(d)).toEqual([]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL - FEE);
    d.answer = () => ({ outAmount: 267_300_000n });
    await d.prices({ [SOL]: 134, [USDC]: 1 });
    expect(readOrder(d.db, orderId)?.state).toBe('filled');
    expect(JSON.parse(fills(d)[0]?.raw ?? '{}')).toMatchObject({ quote: { leg: 'stop_loss', minimumOut: '267300000' } });
    expect(d.ledger(USDC)).toBe(OPENING[USDC] + 267_300_000n);
  });

  it('is not filled when a cancel lands while its quote is in flight', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    const release = d.hold();
    const judged = d.prices({ [SOL]: 181, [USDC]: 1 });
    await untilRequested(d, 1);
    const cancel = await d.execute(entry('cancel', 'cancel-vault-order', { orderId: placed.orderId ?? '', family: 'price' }));
    expect(cancel.state).toBe('confirmed');
    release();
    await judged;
    expect(fills(d)).toEqual([]);
    expect(readOrder(d.db, placed.orderId ?? '')?.state).toBe('cancelled');
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - 2n * FEE);
    expect(d.ledger(USDC)).toBe(OPENING[USDC]);
  });

  it('expires at its expiresAt unfilled; the ledger holds its funds until a cancel withdraws them', async () => {
    const d = desk();
    const placed = await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL, { expiresAt: START + HOUR })));
    const orderId = placed.orderId ?? '';
    await d.clock.advance(HOUR);
    await d.prices({ [SOL]: 181, [USDC]: 1 });
    expect(d.requests).toEqual([]);
    expect(readOrder(d.db, orderId)?.state).toBe('expired');
    expect(d.actions('order.expired')).toMatchObject([{ intentId: placed.id, data: { orderId, via: 'rehearsal' } }]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - TWO_SOL - FEE);
    const withdraw = await d.execute(entry('withdraw', 'cancel-vault-order', { orderId, family: 'price' }));
    expect(withdraw.state).toBe('confirmed');
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - 2n * FEE);
  });
});

describe('a rehearsed trailing stop', () => {
  it('follows the highest price seen and fires at watermark × (1 − trailingBps)', async () => {
    const d = desk();
    const params: Record<string, unknown> = { ...ocoParams(TWO_SOL), orderType: 'single', triggerCondition: 'below', trailingBps: 1000, slippageBps: 100 };
    for (const key of ['tpPriceUsd', 'slPriceUsd', 'tpSlippageBps', 'slSlippageBps']) delete params[key];
    const placed = await d.execute(entry('trail', 'place-vault-order', params));
    const orderId = placed.orderId ?? '';
    const seen = async (price: number): Promise<string | null> => {
      await d.prices({ [SOL]: price, [USDC]: 1 });
      return readOrder(d.db, orderId)?.triggerPriceUsd ?? null;
    };
    expect(await seen(150)).toBe('135');
    expect(await seen(160)).toBe('144');
    expect(await seen(150)).toBe('144');
    expect(readOrder(d.db, orderId)?.raw.watermarkUsd).toBe('160');
    expect(d.requests).toEqual([]);
    d.answer = () => ({ outAmount: 285_120_000n });
    await seen(144);
    expect(readOrder(d.db, orderId)?.state).toBe('filled');
    expect(JSON.parse(fills(d)[0]?.raw ?? '{}')).toMatchObject({ quote: { leg: 'trigger', triggerUsd: '144', minimumOut: '285120000' } });
  });
});

describe('a rehearsed OTOCO', () => {
  it('buys when its trigger fires, then its take-profit / stop-loss pair sells what it bought, held in the vault meanwhile', async () => {
    const d = desk();
    const params = {
      orderType: 'otoco',
      inputMint: USDC,
      inputDecimals: 6,
      outputMint: SOL,
      inputAmount: '300000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: '120',
      tpPriceUsd: '150',
      slPriceUsd: '100',
      slippageBps: 50,
      tpSlippageBps: 50,
      slSlippageBps: 100,
      expiresAt: START + 86_400_000,
    };
    const placed = await d.execute(entry('entry', 'place-vault-order', params));
    // 300 USDC at $120 a SOL less 50 bps: at least 2.4875 SOL.
    d.answer = () => ({ outAmount: 2_487_500_000n });
    await d.prices({ [SOL]: 119, [USDC]: 1 });
    expect(readOrder(d.db, placed.orderId ?? '')?.state).toBe('filled');
    const childId = rehearsalOrderId(`${placed.id}/children`);
    expect(readOrder(d.db, childId)).toMatchObject({
      state: 'open',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: 2_487_500_000n,
      tpPriceUsd: '150',
      slPriceUsd: '100',
      raw: { phase: 'children', parentId: placed.orderId },
    });
    // What the parent bought stays in the vault: the ledger does not hand it to the wallet.
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - FEE);
    expect(d.ledger(USDC)).toBe(OPENING[USDC] - 300_000_000n);
    d.answer = () => ({ outAmount: 380_000_000n });
    await d.prices({ [SOL]: 151, [USDC]: 1 });
    expect(readOrder(d.db, childId)?.state).toBe('filled');
    expect(d.requests.map((r) => r.query['inputMint'])).toEqual([USDC, SOL]);
    expect(d.ledger(SOL)).toBe(OPENING[SOL] - FEE);
    expect(d.ledger(USDC)).toBe(OPENING[USDC] - 300_000_000n + 380_000_000n);
  });
});

describe('a rehearsed DCA order', () => {
  it('fills a round at creation and one every interval at the quotes, the dust in the last, then completes', async () => {
    const d = desk();
    const placed = await d.execute(entry('dca', 'place-dca-vault-order', dcaParams({ inputAmount: '60000001' })));
    const orderId = placed.orderId ?? '';
    let round = 0;
    d.answer = (query) => ({ outAmount: BigInt(query['amount'] ?? '0') + BigInt(++round) });
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    await d.clock.advance(HOUR / 2);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    expect(d.requests.map((r) => r.query['amount'])).toEqual(['20000000']);
    await d.clock.advance(HOUR / 2);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    await d.clock.advance(HOUR);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    expect(d.requests.map((r) => r.query['amount'])).toEqual(['20000000', '20000000', '20000001']);
    expect(fills(d).map((f) => [f.source, f.in_amount, f.out_amount])).toEqual([
      ['dca', '20000000', '20000001'],
      ['dca', '20000000', '20000002'],
      ['dca', '20000001', '20000004'],
    ]);
    expect(readOrder(d.db, orderId)).toMatchObject({ state: 'completed', remaining: 0n, raw: { fills: 3 } });
    expect(d.actions('order.completed')).toMatchObject([{ intentId: placed.id, data: { orderId, family: 'dca' } }]);
    expect(d.ledger(USDC)).toBe(OPENING[USDC] - 60_000_001n);
    expect(d.ledger(JUP)).toBe(60_000_007n);
    await d.clock.advance(HOUR);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    expect(d.requests).toHaveLength(3);
  });

  it('skips a price-conditional round while the price is out of bounds', async () => {
    const d = desk();
    const placed = await d.execute(
      entry('dca', 'place-dca-vault-order', dcaParams({ orderType: 'price_conditional', triggerMint: JUP, minPriceUsd: '0.5', maxPriceUsd: '1' })),
    );
    await d.prices({ [JUP]: 1.2, [USDC]: 1 });
    expect(d.requests).toEqual([]);
    expect(readOrder(d.db, placed.orderId ?? '')?.raw.dca).toMatchObject({ nextFillAt: START + HOUR, roundsFilled: 0 });
    await d.clock.advance(HOUR);
    await d.prices({ [JUP]: 0.9, [USDC]: 1 });
    expect(d.requests).toHaveLength(1);
    expect(readOrder(d.db, placed.orderId ?? '')?.raw.dca).toMatchObject({ nextFillAt: START + 2 * HOUR, roundsFilled: 1 });
  });

  it('tries a round it cannot quote again until its retry window is over, then moves it one interval on', async () => {
    const d = desk();
    const placed = await d.execute(entry('dca', 'place-dca-vault-order', dcaParams()));
    d.answer = () => ({ status: 400 });
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    await d.clock.advance(HOUR / 2 - 1);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    expect(d.requests).toHaveLength(2);
    expect(readOrder(d.db, placed.orderId ?? '')?.raw.dca).toMatchObject({ nextFillAt: START, roundsFilled: 0 });
    await d.clock.advance(1);
    await d.prices({ [JUP]: 0.8, [USDC]: 1 });
    expect(readOrder(d.db, placed.orderId ?? '')?.raw.dca).toMatchObject({ nextFillAt: START + HOUR, roundsFilled: 0 });
    expect(fills(d)).toEqual([]);
    expect(d.ledger(USDC)).toBe(OPENING[USDC] - 60_000_000n);
  });
});

describe('the quotes of the keeper', () => {
  it('never name a taker: they carry no transaction to judge or sign', async () => {
    const d = desk();
    await d.execute(entry('tp', 'place-vault-order', ocoParams(TWO_SOL)));
    await d.execute(entry('dca', 'place-dca-vault-order', dcaParams()));
    d.answer = (query) => ({ outAmount: BigInt(query['amount'] ?? '0') * 200n });
    await d.prices({ [SOL]: 200, [USDC]: 1, [JUP]: 0.8 });
    expect(d.requests).toHaveLength(2);
    for (const request of d.requests) expect(Object.keys(request.query).sort()).toEqual(['amount', 'inputMint', 'outputMint']);
  });
});
