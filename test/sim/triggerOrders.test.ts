/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { missingKeys, signTx, SOL, startSim, USDC, wallet, type Harness } from './support/simHarness.js';
import { craftDeposit, createPriceOrder, orderById, triggerUser } from './support/triggerFlow.js';

let h: Harness;
afterEach(async () => h.close());

const HISTORY_REQUIRED = ['id', 'orderType', 'orderState', 'userPubkey', 'inputMint', 'outputMint'];
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe('trigger v2 deposits', () => {
  it('crafts an unsigned transfer of exactly the amount to the vault, and enforces the 10 USD minimum', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dep');
    const dep = await craftDeposit(h, u, { inputMint: USDC, outputMint: SOL, amount: '25000000', orderType: 'price', orderSubType: 'single' });
    const body = trigger.DepositCraftResponse.parse(dep.reply.body);
    expect(missingKeys(dep.reply.body, ['transaction', 'requestId', 'receiverAddress', 'mint', 'amount', 'tokenDecimals'])).toEqual([]);
    expect(body.receiverAddress).toBe(u.vault);
    const tx = VersionedTransaction.deserialize(Buffer.from(body.transaction, 'base64'));
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(u.pub);
    const transfer = tx.message.compiledInstructions.find((ix) => tx.message.staticAccountKeys[ix.programIdIndex]?.toBase58() === TOKEN_PROGRAM);
    expect(transfer?.data[0]).toBe(12);
    expect(Buffer.from(transfer?.data ?? []).readBigUInt64LE(1)).toBe(25_000_000n);
    const small = await craftDeposit(h, u, { inputMint: USDC, outputMint: SOL, amount: '9000000', orderType: 'price', orderSubType: 'single' });
    expect(small.reply.status).toBe(400);
    expect(small.reply.body.error).toMatch(/^Order must be at least 10 USD \(current value: 9\.\d\d USD\)$/);
    const dcaSub = await craftDeposit(h, u, { inputMint: USDC, outputMint: SOL, amount: '50000000', orderType: 'dca', orderSubType: 'single' });
    expect(dcaSub.reply.status).toBe(400);
  });

  it('rejects a duplicate deposit, a deposit signed by someone else and an unknown deposit; retries are idempotent', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'dup');
    const dep = await craftDeposit(h, u, { inputMint: USDC, outputMint: SOL, amount: '20000000', orderType: 'price', orderSubType: 'single' });
    const body = {
      orderType: 'single',
      userPubkey: u.pub,
      depositRequestId: dep.requestId,
      depositSignedTx: dep.signed,
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '20000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 100,
      expiresAt: h.clock.now() + 3_600_000,
    };
    // Mallory's signature in the user's slot: valid ed25519, wrong key.
    const forgedTx = VersionedTransaction.deserialize(Buffer.from(trigger.DepositCraftResponse.parse(dep.reply.body).transaction, 'base64'));
    forgedTx.signatures[0] = nacl.sign.detached(forgedTx.message.serialize(), wallet('mallory').secretKey);
    const forged = await h.call('POST', '/trigger/v2/orders/price', {
      jwt: u.jwt,
      body: { ...body, depositSignedTx: Buffer.from(forgedTx.serialize()).toString('base64') },
    });
    expect(forged.body.error).toBe('Invalid deposit transaction: signature verification failed');
    const unsigned = await h.call('POST', '/trigger/v2/orders/price', {
      jwt: u.jwt,
      body: { ...body, depositSignedTx: trigger.DepositCraftResponse.parse(dep.reply.body).transaction },
    });
    expect(unsigned.status).toBe(400);
    const first = await h.call('POST', '/trigger/v2/orders/price', { jwt: u.jwt, body });
    expect(first.status).toBe(200);
    const created = trigger.CreatePriceOrderResponse.parse(first.body);
    expect(created.depositConfirmed).toBe(true);
    const retry = await h.call('POST', '/trigger/v2/orders/price', { jwt: u.jwt, body });
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(created.id);
    expect(retry.body.message).toBe('Order already exists for this deposit');
    const duplicate = await h.call('POST', '/trigger/v2/orders/price', { jwt: u.jwt, body: { ...body, triggerPriceUsd: 90 } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error).toMatch(/Duplicate deposit/);
    const unknown = await h.call('POST', '/trigger/v2/orders/price', { jwt: u.jwt, body: { ...body, depositRequestId: 'nope' } });
    expect(unknown.body.error).toBe('Deposit transaction not found in cache. Please craft a new deposit first.');
    const other = await triggerUser(h, 'dup-other');
    const stolen = await h.call('POST', '/trigger/v2/orders/price', { jwt: other.jwt, body });
    expect(stolen.status).toBe(403);
    expect(h.sim.control.balance(u.vault, USDC)).toBe(20_000_000n);
  });
});

describe('trigger v2 price orders', () => {
  it('moves pending → open → executing → filled when its own price crosses', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'life');
    const usdcBefore = h.sim.control.balance(u.pub, USDC);
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '1000000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 120,
    });
    expect(r.status).toBe(200);
    const id = r.body.id as string;
    const states: string[] = [];
    states.push((await orderById(h, u, id)).orderState);
    await h.clock.advance(1000);
    states.push((await orderById(h, u, id)).orderState);
    h.sim.control.setPrice(SOL, 110);
    await h.clock.advance(1000);
    const executing = await orderById(h, u, id);
    states.push(executing.orderState);
    await h.clock.advance(1000);
    const filled = await orderById(h, u, id);
    states.push(filled.orderState);
    expect(states).toEqual(['pending', 'open', 'executing', 'filled']);
    expect(missingKeys(filled, HISTORY_REQUIRED)).toEqual([]);
    expect(filled.fillPercent).toBe(1);
    expect(filled.events?.map((e) => e.type)).toEqual(['deposit', 'fill']);
    expect(filled.events?.[1]?.orderContext).toBe('stop_loss');
    expect(h.sim.control.balance(u.pub, USDC) - usdcBefore).toBe(BigInt(filled.outputAmount as string));
    expect(h.sim.control.balance(u.vault, SOL)).toBe(0n);
    const past = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?state=past', { jwt: u.jwt })).body);
    expect(past.orders.map((o) => o.id)).toEqual([id]);
  });

  it('cancels in two steps: not ready right after creation, then ready_to_cancel, then a checked withdrawal', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'cancel');
    const id = (
      await createPriceOrder(h, u, {
        orderType: 'single',
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: '50000000',
        triggerMint: SOL,
        triggerCondition: 'below',
        triggerPriceUsd: 50,
      })
    ).body.id as string;
    const early = await h.call('POST', `/trigger/v2/orders/price/cancel/${id}`, { jwt: u.jwt });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/retry shortly/);
    await h.clock.advance(5_000);
    const cancel = trigger.CancelOrderResponse.parse((await h.call('POST', `/trigger/v2/orders/price/cancel/${id}`, { jwt: u.jwt })).body);
    expect((await orderById(h, u, id)).orderState).toBe('pending_withdraw');
    expect((await orderById(h, u, id)).rawState).toBe('ready_to_cancel');
    const badTx = VersionedTransaction.deserialize(Buffer.from(cancel.transaction, 'base64'));
    badTx.signatures[0] = new Uint8Array(64).fill(3);
    const bad = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${id}`, {
      jwt: u.jwt,
      body: { signedTransaction: Buffer.from(badTx.serialize()).toString('base64'), cancelRequestId: cancel.requestId },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid withdrawal transaction: signature verification failed');
    // Signed, but by someone else: refused the same way.
    const forged = VersionedTransaction.deserialize(Buffer.from(cancel.transaction, 'base64'));
    forged.signatures[0] = nacl.sign.detached(forged.message.serialize(), wallet('mallory').secretKey);
    const byMallory = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${id}`, {
      jwt: u.jwt,
      body: { signedTransaction: Buffer.from(forged.serialize()).toString('base64'), cancelRequestId: cancel.requestId },
    });
    expect([byMallory.status, byMallory.body.error]).toEqual([400, bad.body.error]);
    const wrongId = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: 'other' },
    });
    expect(wrongId.body.error).toBe('Withdrawal transaction not found in cache. Please initiate cancel again.');
    const before = h.sim.control.balance(u.pub, USDC);
    const confirm = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: cancel.requestId },
    });
    expect(confirm.status).toBe(200);
    trigger.TxSignatureResponse.parse(confirm.body);
    expect(h.sim.control.balance(u.pub, USDC) - before).toBe(50_000_000n);
    const done = await orderById(h, u, id);
    expect(done.orderState).toBe('cancelled');
    expect(done.events?.map((e) => e.type)).toEqual(['deposit', 'withdrawal', 'cancelled']);
    // Retrying the confirmation is safe: same signature, no second withdrawal.
    const again = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: cancel.requestId },
    });
    expect(again.body.txSignature).toBe(confirm.body.txSignature);
    expect(h.sim.control.balance(u.pub, USDC) - before).toBe(50_000_000n);
  });

  it('fills one OCO leg and cancels its sibling', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'oco');
    const r = await createPriceOrder(h, u, {
      orderType: 'oco',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      tpPriceUsd: 170,
      slPriceUsd: 130,
    });
    expect(r.status).toBe(200);
    await h.clock.advance(1000);
    h.sim.control.setPrice(SOL, 175);
    await h.clock.advance(2000);
    const all = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history', { jwt: u.jwt })).body).orders;
    expect(all).toHaveLength(2);
    const tp = all.find((o) => o.id === r.body.id);
    const sl = all.find((o) => o.id !== r.body.id);
    expect(tp?.orderState).toBe('filled');
    expect(tp?.events?.find((e) => e.type === 'fill')?.orderContext).toBe('take_profit');
    expect(sl?.orderState).toBe('cancelled');
    expect(sl?.rawState).toBe('oco_cancelled');
  });

  it('creates OTOCO children once the parent fills', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'otoco');
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
    expect(r.status).toBe(200);
    await h.clock.advance(1000);
    expect(trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history', { jwt: u.jwt })).body).orders).toHaveLength(1);
    h.sim.control.setPrice(SOL, 135);
    await h.clock.advance(2000);
    const afterParent = trigger.OrderHistoryResponse.parse(
      (await h.call('GET', '/trigger/v2/orders/history?sort=created_at&dir=asc', { jwt: u.jwt })).body,
    ).orders;
    expect(afterParent).toHaveLength(3);
    expect(afterParent[0]?.orderState).toBe('filled');
    expect(afterParent.slice(1).map((o) => o.orderState)).toEqual(['open', 'open']);
    h.sim.control.setPrice(SOL, 165);
    await h.clock.advance(3000);
    const final = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?sort=created_at&dir=asc', { jwt: u.jwt })).body).orders;
    expect(final.map((o) => o.rawState)).toEqual(['fill_success', 'fill_success', 'oco_cancelled']);
    expect(h.sim.control.balance(u.vault, SOL)).toBe(0n);
  });

  it('raises a trailing stop’s watermark with the price and fills on the pullback', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'trail');
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      trailingBps: 1000,
    });
    expect(r.status).toBe(200);
    await h.clock.advance(1000);
    h.sim.control.setPrice(SOL, 200);
    await h.clock.advance(1000);
    const raised = await orderById(h, u, r.body.id);
    // The walk moves on after setPrice, so the watermark is at least the price we set.
    expect(raised.highWatermark).toBeGreaterThanOrEqual(199);
    expect(raised.triggerPriceUsd).toBeCloseTo((raised.highWatermark ?? 0) * 0.9, 6);
    h.sim.control.setPrice(SOL, 185);
    await h.clock.advance(1000);
    expect((await orderById(h, u, r.body.id)).orderState).toBe('open');
    h.sim.control.setPrice(SOL, 179);
    await h.clock.advance(2000);
    expect((await orderById(h, u, r.body.id)).orderState).toBe('filled');
    const both = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '500000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      trailingBps: 1000,
      triggerPriceUsd: 100,
    });
    expect(both.body.error).toBe('exactly one of triggerPriceUsd or trailingBps must be set');
  });

  it('expires at expiresAt and withdraws expired funds through the cancel flow', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'expire');
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '20000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 10,
      expiresAt: h.clock.now() + 10_000,
    });
    await h.clock.advance(11_000);
    const expired = await orderById(h, u, r.body.id);
    expect(expired.orderState).toBe('expired');
    expect(expired.events?.map((e) => e.type)).toEqual(['deposit', 'expired']);
    const patch = await h.call('PATCH', `/trigger/v2/orders/price/${r.body.id}`, { jwt: u.jwt, body: { orderType: 'single', triggerPriceUsd: 20 } });
    expect(patch.status).toBe(400);
    const cancel = trigger.CancelOrderResponse.parse((await h.call('POST', `/trigger/v2/orders/price/cancel/${r.body.id}`, { jwt: u.jwt })).body);
    const confirm = await h.call('POST', `/trigger/v2/orders/price/confirm-cancel/${r.body.id}`, {
      jwt: u.jwt,
      body: { signedTransaction: signTx(cancel.transaction, u.kp), cancelRequestId: cancel.requestId },
    });
    expect(confirm.status).toBe(200);
    expect(h.sim.control.balance(u.vault, USDC)).toBe(0n);
    expect((await orderById(h, u, r.body.id)).orderState).toBe('cancelled');
  });

  it('updates only open orders of the caller, with the trailing guards', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'patch');
    const other = await triggerUser(h, 'patch-other');
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: USDC,
      outputMint: SOL,
      inputAmount: '20000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      triggerPriceUsd: 100,
    });
    const id = r.body.id as string;
    const notYet = await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'single', triggerPriceUsd: 101 } });
    expect(notYet.status).toBe(400);
    await h.clock.advance(1000);
    const ok = await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'single', triggerPriceUsd: 105, slippageBps: 80 } });
    expect(trigger.UpdatePriceOrderResponse.parse(ok.body).id).toBe(id);
    expect((await orderById(h, u, id)).triggerPriceUsd).toBe(105);
    expect((await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: u.jwt, body: { orderType: 'single', trailingBps: 500 } })).body.error).toBe(
      'Cannot convert to trailing stop loss order',
    );
    expect((await h.call('PATCH', `/trigger/v2/orders/price/${id}`, { jwt: other.jwt, body: { orderType: 'single', triggerPriceUsd: 1 } })).status).toBe(403);
    expect((await h.call('PATCH', '/trigger/v2/orders/price/unknown', { jwt: u.jwt, body: { orderType: 'single', triggerPriceUsd: 1 } })).status).toBe(404);
    const t = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: SOL,
      outputMint: USDC,
      inputAmount: '200000000',
      triggerMint: SOL,
      triggerCondition: 'below',
      trailingBps: 500,
    });
    await h.clock.advance(1000);
    expect(
      (await h.call('PATCH', `/trigger/v2/orders/price/${t.body.id}`, { jwt: u.jwt, body: { orderType: 'single', triggerPriceUsd: 100 } })).body.error,
    ).toBe('Cannot set trigger price on trailing stop loss order');
    h.sim.control.setPrice(SOL, h.sim.control.price(SOL) * 0.97);
    await h.clock.advance(1000);
    expect((await h.call('PATCH', `/trigger/v2/orders/price/${t.body.id}`, { jwt: u.jwt, body: { orderType: 'single', trailingBps: 100 } })).body.error).toBe(
      'Trailing order would immediately trigger',
    );
  });

  it('fills partially when the pool cannot take the whole order within slippage', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'partial');
    const rug = (await h.call('GET', '/ultra/v1/search?query=MOONRUG')).body[0].id as string;
    h.sim.control.fund(u.pub, 10_000_000_000_000n, rug);
    const r = await createPriceOrder(h, u, {
      orderType: 'single',
      inputMint: rug,
      outputMint: USDC,
      inputAmount: '10000000000000',
      triggerMint: rug,
      triggerCondition: 'above',
      triggerPriceUsd: 0.001,
      slippageBps: 200,
    });
    expect(r.status).toBe(200);
    await h.clock.advance(3000);
    const o = await orderById(h, u, r.body.id);
    expect(o.events?.filter((e) => e.type === 'fill').length).toBeGreaterThanOrEqual(1);
    expect(o.fillPercent).toBeGreaterThan(0);
    expect(o.fillPercent).toBeLessThan(1);
    expect(BigInt(o.remainingInputAmount as string)).toBeGreaterThan(0n);
  });

  it('pages history and validates its query', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'pages');
    for (let i = 0; i < 3; i++) {
      await createPriceOrder(h, u, {
        orderType: 'single',
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: '15000000',
        triggerMint: SOL,
        triggerCondition: 'below',
        triggerPriceUsd: 50 + i,
      });
      await h.clock.advance(1000);
    }
    const page1 = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?limit=2&sort=created_at&dir=asc', { jwt: u.jwt })).body);
    const page2 = trigger.OrderHistoryResponse.parse(
      (await h.call('GET', '/trigger/v2/orders/history?limit=2&offset=2&sort=created_at&dir=asc', { jwt: u.jwt })).body,
    );
    expect(page1.pagination).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page1.orders.map((o) => o.triggerPriceUsd)).toEqual([50, 51]);
    expect(page2.orders.map((o) => o.triggerPriceUsd)).toEqual([52]);
    expect((await h.call('GET', '/trigger/v2/orders/history?limit=0', { jwt: u.jwt })).status).toBe(400);
    expect((await h.call('GET', '/trigger/v2/orders/history?sort=price', { jwt: u.jwt })).status).toBe(400);
    expect((await h.call('POST', '/trigger/v2/orders/price/', { jwt: u.jwt, body: {} })).status).toBe(404);
  });

  it('forgets orders on /__sim/trigger/forget: history no longer lists them and their cancel answers 404, while their funds stay in the vault', async () => {
    h = await startSim();
    const u = await triggerUser(h, 'forget');
    const ids: string[] = [];
    for (const price of [50, 60]) {
      const created = await createPriceOrder(h, u, {
        orderType: 'single',
        inputMint: USDC,
        outputMint: SOL,
        inputAmount: '15000000',
        triggerMint: SOL,
        triggerCondition: 'below',
        triggerPriceUsd: price,
      });
      ids.push(trigger.CreatePriceOrderResponse.parse(created.body).id);
      // A new block: two deposits crafted in one would be the same bytes.
      await h.clock.advance(1000);
    }
    await h.clock.advance(6_000);
    const forgot = await h.call('POST', '/__sim/trigger/forget', { body: { orderIds: [ids[0], 'no-such-order'] } });
    expect(forgot).toMatchObject({ status: 200, body: { forgotten: [ids[0]] } });
    const listed = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?limit=100', { jwt: u.jwt })).body);
    expect(listed.orders.map((o) => o.id)).toEqual([ids[1]]);
    expect(await h.call('POST', `/trigger/v2/orders/price/cancel/${ids[0] ?? ''}`, { jwt: u.jwt })).toMatchObject({
      status: 404,
      body: { error: 'Order not found' },
    });
    expect(h.sim.control.balance(u.vault, USDC)).toBe(30_000_000n);
    // No ids: every order (price and DCA) is forgotten.
    expect((await h.call('POST', '/__sim/trigger/forget', { body: {} })).body).toEqual({ forgotten: [ids[1]] });
    expect((await h.call('POST', '/__sim/trigger/forget', { body: { orderIds: 'x' } })).status).toBe(400);
  });
});
