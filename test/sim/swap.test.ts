import bs58 from 'bs58';
import nacl from 'tweetnacl';

import { type PublicKey, VersionedTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { swap } from '../../src/jupiter/schemas/index.js';
import { BONK, SOL, signTx, startSim, USDC, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

const orderPath = (params: Record<string, string>): string => `/swap/v2/order?${new URLSearchParams(params).toString()}`;

describe('swap v2', () => {
  it('quotes without a taker: no transaction, impact grows with size', async () => {
    h = await startSim();
    const small = await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000000000' }));
    expect(small.status).toBe(200);
    const q = swap.OrderResponse.parse(small.body);
    expect(q.transaction).toBeNull();
    expect(q.router).toBe('metis');
    expect(q.mode).toBe('ultra');
    expect(q.routePlan?.[0]?.swapInfo.inputMint).toBe(SOL);
    expect(q.feeBps).toBe(2);
    const big = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000000000000000' }))).body);
    expect(big.priceImpact ?? 0).toBeLessThan(q.priceImpact ?? 0);
    const manual = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000', slippageBps: '30' }))).body);
    expect(manual.mode).toBe('manual');
    expect(manual.slippageBps).toBe(30);
  });

  it('rejects what the real API rejects', async () => {
    h = await startSim();
    const cases: Record<string, string>[] = [
      { outputMint: USDC, amount: '1' },
      { inputMint: SOL, outputMint: SOL, amount: '1' },
      { inputMint: SOL, outputMint: USDC, amount: '-5' },
      { inputMint: SOL, outputMint: USDC, amount: '1', slippageBps: '10001' },
      { inputMint: SOL, outputMint: USDC, amount: '1', swapMode: 'ExactOut' },
      { inputMint: SOL, outputMint: USDC, amount: '1', referralFee: '60' },
      { inputMint: SOL, outputMint: USDC, amount: '1', excludeRouters: 'nobody' },
      { inputMint: SOL, outputMint: 'notamint', amount: '1' },
    ];
    for (const params of cases) {
      const r = await h.call('GET', orderPath(params));
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(swap.OrderErrorBody.parse(r.body).error).toBeTruthy();
    }
  });

  it('builds an unsigned v0 transaction paid by the taker and executes it once', async () => {
    h = await startSim();
    const kp = wallet('swapper');
    const taker = kp.publicKey.toBase58();
    h.sim.control.fund(taker, 2_000_000_000n);
    const order = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000000000', taker }))).body);
    const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction as string, 'base64'));
    expect(tx.version).toBe(0);
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(taker);
    expect(tx.signatures[0]?.every((b) => b === 0)).toBe(true);
    const signed = signTx(order.transaction as string, kp);
    const exec = await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: signed, requestId: order.requestId } });
    const result = swap.ExecuteResponse.parse(exec.body);
    expect(result.status).toBe('Success');
    expect(result.code).toBe(0);
    expect(BigInt(result.totalInputAmount ?? '0')).toBe(1_000_000_000n);
    const usdc = h.sim.control.balance(taker, USDC);
    expect(usdc.toString()).toBe(result.totalOutputAmount);
    // Re-posting the same bytes (the documented 2-minute re-poll) never executes twice.
    const again = swap.ExecuteResponse.parse(
      (await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: signed, requestId: order.requestId } })).body,
    );
    expect(again.signature).toBe(result.signature);
    expect(h.sim.control.balance(taker, USDC)).toBe(usdc);
    expect(h.sim.control.balance(taker, SOL)).toBe(2_000_000_000n - 1_000_000_000n - 15_000n);
  });

  it('fails execute for tampered bytes (-3), a bad signature (-2), an expired requestId (-1) and unsigned bytes (-1003)', async () => {
    h = await startSim();
    const kp = wallet('tamper');
    const other = wallet('other');
    const taker = kp.publicKey.toBase58();
    h.sim.control.fund(taker, 5_000_000_000n);
    const get = async (): Promise<{ transaction: string; requestId: string }> =>
      swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '100000000', taker }))).body) as {
        transaction: string;
        requestId: string;
      };
    const a = await get();
    // Raise the amount inside the route instruction, then sign the modified bytes.
    const modified = VersionedTransaction.deserialize(Buffer.from(a.transaction, 'base64'));
    const jupiter = modified.message.staticAccountKeys.findIndex((k) => k.toBase58() === 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4');
    const route = modified.message.compiledInstructions.find((ix) => ix.programIdIndex === jupiter);
    if (route) route.data[route.data.length - 12] = (route.data[route.data.length - 12] ?? 0) ^ 1;
    const tampered = signTx(Buffer.from(modified.serialize()).toString('base64'), kp);
    const exec = async (signedTransaction: string, requestId: string): Promise<swap.ExecuteResponse> =>
      swap.ExecuteResponse.parse((await h.call('POST', '/swap/v2/execute', { body: { signedTransaction, requestId } })).body);
    expect(await exec(tampered, a.requestId)).toMatchObject({ status: 'Failed', code: -3 });
    const forged = VersionedTransaction.deserialize(Buffer.from(a.transaction, 'base64'));
    forged.signatures[0] = VersionedTransaction.deserialize(Buffer.from(signTx(a.transaction, kp), 'base64')).signatures[0]?.map((b) => b ^ 1) as Uint8Array;
    expect(await exec(Buffer.from(forged.serialize()).toString('base64'), a.requestId)).toMatchObject({ status: 'Failed', code: -2 });
    expect(await exec(a.transaction, a.requestId)).toMatchObject({ status: 'Failed', code: -1003 });
    expect(await exec(signTx(a.transaction, kp), 'unknown-request')).toMatchObject({ status: 'Failed', code: -1 });
    const b = await get();
    await h.clock.advance(121_000);
    expect(await exec(signTx(b.transaction, kp), b.requestId)).toMatchObject({ status: 'Failed', code: -1 });
    // Signed by someone else than the taker: the taker's signature is missing.
    const wrongSigner = VersionedTransaction.deserialize(Buffer.from((await get()).transaction, 'base64'));
    expect(() => wrongSigner.sign([other])).toThrow();
    const missing = await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: 'AA==' } });
    expect(missing.status).toBe(400);
    expect(swap.ExecuteErrorBody.parse(missing.body).code).toBe(-4);
  });

  it('reports errorCode 1, 2 and 3 with an empty transaction, and goes gasless above the minimum', async () => {
    h = await startSim();
    const kp = wallet('poor');
    const taker = kp.publicKey.toBase58();
    const noFunds = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: USDC, outputMint: SOL, amount: '5000000', taker }))).body);
    expect(noFunds).toMatchObject({ errorCode: 1, transaction: '' });
    h.sim.control.fund(taker, 5_000n);
    const gas = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000', taker }))).body);
    expect(gas).toMatchObject({ errorCode: 2, transaction: '' });
    h.sim.control.fund(taker, 50_000_000n, USDC);
    const below = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: USDC, outputMint: SOL, amount: '5000000', taker }))).body);
    expect(below).toMatchObject({ errorCode: 3, transaction: '' });
    const gasless = swap.OrderResponse.parse((await h.call('GET', orderPath({ inputMint: USDC, outputMint: BONK, amount: '20000000', taker }))).body);
    expect(gasless.gasless).toBe(true);
    // Paid by the simulator's stand-in for Jupiter's gas wallet, and unsigned as mainnet's /order hands
    // it out: the gas wallet signs at /execute, after the taker.
    const unsigned = VersionedTransaction.deserialize(Buffer.from(gasless.transaction as string, 'base64'));
    expect(gasless.signatureFeePayer).toBe(unsigned.message.staticAccountKeys[0]?.toBase58());
    expect(gasless.signatureFeePayer).not.toBe(taker);
    expect(unsigned.signatures.map((sig) => sig.every((b) => b === 0))).toEqual([true, true]);
    const exec = swap.ExecuteResponse.parse(
      (await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: signTx(gasless.transaction as string, kp), requestId: gasless.requestId } })).body,
    );
    expect(exec.status).toBe('Success');
    // The transaction's id is the gas wallet's signature over the message.
    expect(
      nacl.sign.detached.verify(
        unsigned.message.serialize(),
        bs58.decode(exec.signature as string),
        (unsigned.message.staticAccountKeys[0] as PublicKey).toBytes(),
      ),
    ).toBe(true);
    expect(h.sim.control.balance(taker, SOL)).toBe(5_000n);
  });

  it('fails with 6001 when the price moved beyond the slippage before execute', async () => {
    h = await startSim();
    const kp = wallet('slip');
    const taker = kp.publicKey.toBase58();
    h.sim.control.fund(taker, 2_000_000_000n);
    const order = swap.OrderResponse.parse(
      (await h.call('GET', orderPath({ inputMint: SOL, outputMint: USDC, amount: '1000000000', taker, slippageBps: '50' }))).body,
    );
    h.sim.control.setPrice(SOL, h.sim.control.price(SOL) * 0.9);
    const exec = swap.ExecuteResponse.parse(
      (await h.call('POST', '/swap/v2/execute', { body: { signedTransaction: signTx(order.transaction as string, kp), requestId: order.requestId } })).body,
    );
    expect(exec).toMatchObject({ status: 'Failed', code: 6001 });
    expect(h.sim.control.balance(taker, USDC)).toBe(0n);
  });
});
