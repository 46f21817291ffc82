/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { missingKeys, signTx, SOL, startSim, USDC, type Harness } from './support/simHarness.js';
import { craftDeposit, triggerUser, type TriggerUser } from './support/triggerFlow.js';

let h: Harness;
afterEach(async () => h.close());

const DCA_REQUIRED = ['id', 'userPubkey', 'vaultPubkey', 'inputMint', 'outputMint', 'orderType', 'state', 'displayState'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createDca(u: TriggerUser, order: Record<string, unknown> & { inputAmount: string }): Promise<{ status: number; body: any }> {
  const dep = await craftDeposit(h, u, { inputMint: USDC, outputMint: SOL, amount: order.inputAmount, orderType: 'dca' });
  return h.call('POST', '/trigger/v2/orders/dca', {
    jwt: u.jwt,
    body: { userPubkey: u.pub, depositRequestId: dep.requestId, depositSignedTx: dep.signed, inputMint: USDC, outputMint: SOL, ...order },
  });
}

async function dcaItem(u: TriggerUser, id: string): Promise<trigger.DcaHistoryItem> {
  const r = await h.call('GET', `/trigger/v2/orders/history/dca/${id}`, { jwt: u.jwt });
  expect(missingKeys(r.body, DCA_REQUIRED)).toEqual([]);
  return trigger.DcaHistoryItem.parse(r.body);
}

describe('trigger v2 DCA', () => {
  it('fills a round every intervalSeconds and completes, the last round taking the dust', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dca');
    const r = await createDca(u, { inputAmount: '30000001', orderCount: 3, intervalSeconds: 60 });
    expect(r.status).toBe(200);
    const { id } = trigger.TxSignatureResponse.parse(r.body);
    expect((await dcaItem(u, id)).displayState).toBe('pending');
    await h.clock.advance(1000);
    const first = await dcaItem(u, id);
    expect(first.roundsFilled).toBe(1);
    expect(first.state).toBe('active');
    await h.clock.advance(60_000);
    expect((await dcaItem(u, id)).roundsFilled).toBe(2);
    await h.clock.advance(60_000);
    const done = await dcaItem(u, id);
    expect(done.state).toBe('completed');
    expect(done.inputAmountUsed).toBe('30000001');
    expect(done.events?.filter((e) => e.type === 'fill').map((e) => e.inputAmount)).toEqual(['10000000', '10000000', '10000001']);
    expect(typeof done.createdAt).toBe('string');
    expect(h.sim.control.balance(u.vault, USDC)).toBe(0n);
    expect(h.sim.control.balance(u.pub, SOL)).toBeGreaterThan(10_000_000_000n - 100_000n);
  });

  it('skips price-conditional rounds outside the band', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dca-cond');
    const r = await createDca(u, {
      inputAmount: '20000000',
      orderCount: 2,
      intervalSeconds: 60,
      orderType: 'price_conditional',
      maxPriceUsd: 100,
      triggerMint: SOL,
    });
    expect(r.status).toBe(200);
    await h.clock.advance(61_000);
    const skipped = await dcaItem(u, r.body.id);
    expect(skipped.roundsFilled).toBe(0);
    expect(skipped.events?.filter((e) => e.state === 'rescheduled').length).toBe(2);
    h.sim.control.setPrice(SOL, 90);
    await h.clock.advance(60_000);
    expect((await dcaItem(u, r.body.id)).roundsFilled).toBe(1);
    const bad = await createDca(u, { inputAmount: '20000000', orderCount: 2, intervalSeconds: 60, minPriceUsd: 1 });
    expect(bad.body.error).toBe('Time-based orders cannot set minPriceUsd or maxPriceUsd');
  });

  it('validates rounds, interval and the 10 active orders limit', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dca-rules');
    expect((await createDca(u, { inputAmount: '15000000', orderCount: 2, intervalSeconds: 60 })).body.error).toMatch(/^Each order must be at least 10 USD/);
    expect((await createDca(u, { inputAmount: '40000000', orderCount: 2, intervalSeconds: 30 })).status).toBe(400);
    expect((await createDca(u, { inputAmount: '40000000', orderCount: 1, intervalSeconds: 60 })).status).toBe(400);
    // One slot apart: equal deposits crafted in one slot are the same bytes, and those land once.
    for (let i = 0; i < 10; i++) {
      await h.clock.advance(1_000);
      expect((await createDca(u, { inputAmount: '20000000', orderCount: 2, intervalSeconds: 3600 })).status).toBe(200);
    }
    const eleventh = await createDca(u, { inputAmount: '20000000', orderCount: 2, intervalSeconds: 3600 });
    expect(eleventh.body.error).toBe('Maximum of 10 active DCA orders allowed per user');
    const active = trigger.DcaHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history/dca?state=active&limit=5', { jwt: u.jwt })).body);
    expect(active.pagination).toMatchObject({ total: 10, limit: 5 });
  });

  it('refuses an order funded by deposit bytes that already landed for another (two equal crafts in one slot)', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dca-twin');
    const before = h.sim.control.balance(u.pub, USDC);
    expect((await createDca(u, { inputAmount: '20000000', orderCount: 2, intervalSeconds: 3600 })).status).toBe(200);
    const twin = await createDca(u, { inputAmount: '20000000', orderCount: 2, intervalSeconds: 3600 });
    expect(twin.status).toBe(400);
    expect(twin.body.error).toBe('Deposit transaction failed: This transaction has already been processed');
    // One deposit moved, one order: the chain processes a transaction once.
    expect(before - h.sim.control.balance(u.pub, USDC)).toBe(20_000_000n);
    const active = trigger.DcaHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history/dca?state=active', { jwt: u.jwt })).body);
    expect(active.pagination.total).toBe(1);
  });

  it('cancels: withdrawing, then a signed withdrawal of the remaining input', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dca-cancel');
    const r = await createDca(u, { inputAmount: '40000000', orderCount: 4, intervalSeconds: 3600 });
    await h.clock.advance(1000);
    const cancel = trigger.CancelDcaOrderResponse.parse((await h.call('POST', `/trigger/v2/orders/dca/cancel/${r.body.id}`, { jwt: u.jwt })).body);
    expect(cancel.roundsRemaining).toBe(3);
    expect(cancel.refundAmount).toBe('30000000');
    expect((await dcaItem(u, r.body.id)).displayState).toBe('pending_withdraw');
    // No round fills while withdrawing.
    await h.clock.advance(3_600_000);
    expect((await dcaItem(u, r.body.id)).roundsFilled).toBe(1);
    // An hour later the withdrawal's blockhash has expired: cancel again (idempotent) for a fresh one.
    const stale = await h.call('POST', `/trigger/v2/orders/dca/confirm-cancel/${r.body.id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: cancel.requestId },
    });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toMatch(/expired/);
    const fresh = trigger.CancelDcaOrderResponse.parse((await h.call('POST', `/trigger/v2/orders/dca/cancel/${r.body.id}`, { jwt: u.jwt })).body);
    const superseded = await h.call('POST', `/trigger/v2/orders/dca/confirm-cancel/${r.body.id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: cancel.requestId },
    });
    expect(superseded.body.error).toBe('Withdrawal transaction not found in cache. Please initiate cancel again.');
    const before = h.sim.control.balance(u.pub, USDC);
    const confirm = await h.call('POST', `/trigger/v2/orders/dca/confirm-cancel/${r.body.id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(fresh.transaction, u.kp), cancelRequestId: fresh.requestId },
    });
    expect(confirm.status).toBe(200);
    expect(h.sim.control.balance(u.pub, USDC) - before).toBe(30_000_000n);
    const item = await dcaItem(u, r.body.id);
    expect(item.state).toBe('cancelled');
    expect(item.inputAmountRemaining).toBe('30000000');
    const again = await h.call('POST', `/trigger/v2/orders/dca/cancel/${r.body.id}`, { jwt: u.jwt });
    expect(again.body.error).toBe("Cannot cancel DCA order in 'cancelled' state");
    const other = await triggerUser(h, 'dca-other');
    expect((await h.call('POST', `/trigger/v2/orders/dca/cancel/${r.body.id}`, { jwt: other.jwt })).status).toBe(404);
  });
});
