/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- raw JSON answers are read loosely here. */
import { SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createSimulator } from '../../src/sim/simulator.js';
import type { WorldInput } from '../../src/sim/worldInput.js';
import { SOL, startSim, wallet, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rpc(method: string, params: unknown[] = []): Promise<any> {
  return (await h.call('POST', '/rpc', { key: null, body: { jsonrpc: '2.0', id: 1, method, params } })).body;
}

const A = wallet('slots-a').publicKey.toBase58();
const B = wallet('slots-b').publicKey.toBase58();

const read = (minContextSlot?: number): Promise<{ result?: { context: { slot: number }; value: { lamports: number }[] }; error?: unknown }> =>
  rpc('getMultipleAccounts', [[A], { encoding: 'base64', ...(minContextSlot === undefined ? {} : { minContextSlot }) }]);

/** A's unsigned transfer of 1,000 lamports to B, simulated as a guard does (no signature check). */
async function simulateTransfer(minContextSlot?: number): Promise<{ context: { slot: number }; value: { err: unknown; accounts: { lamports: number }[] } }> {
  const { blockhash } = (await rpc('getLatestBlockhash')).result.value;
  const message = new TransactionMessage({
    payerKey: wallet('slots-a').publicKey,
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: wallet('slots-a').publicKey, toPubkey: wallet('slots-b').publicKey, lamports: 1_000 })],
  }).compileToV0Message();
  const base64 = Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
  const config = {
    encoding: 'base64',
    sigVerify: false,
    accounts: { encoding: 'base64', addresses: [A] },
    ...(minContextSlot === undefined ? {} : { minContextSlot }),
  };
  return (await rpc('simulateTransaction', [base64, config])).result;
}

describe('slots name states of the ledger', () => {
  it('two answers with one slot saw one state; a transfer moves the slot on, ahead of the clock if need be', async () => {
    h = await startSim();
    h.sim.control.fund(A, 1_000_000_000n);
    const first = (await read()).result;
    const slot = first?.context.slot ?? -1;
    expect((await read()).result?.context.slot).toBe(slot);
    h.sim.control.transfer(A, B, 1_000n);
    const moved = (await read(slot)).result;
    expect(moved).toMatchObject({ context: { slot: slot + 1 }, value: [{ lamports: 1_000_000_000 - 1_000 }] });
    // The clock reaches the slot the transfer opened: the same state, the same slot; then it moves on.
    await h.clock.advance(400);
    expect((await read()).result?.context.slot).toBe(slot + 1);
    await h.clock.advance(400);
    expect((await read()).result?.context.slot).toBe(slot + 2);
    expect(h.sim.control.state().slot).toBe(slot + 2);
  });

  it('answers -32016 to a minContextSlot it has not reached, for reads and simulations', async () => {
    h = await startSim();
    h.sim.control.fund(A, 1_000_000_000n);
    const slot = (await read()).result?.context.slot ?? -1;
    const ahead = { code: -32016, message: 'Minimum context slot has not been reached', data: { contextSlot: slot } };
    expect((await read(slot + 5)).error).toEqual(ahead);
    expect((await rpc('getAccountInfo', [A, { encoding: 'base64', minContextSlot: slot + 1 }])).error).toEqual(ahead);
    expect((await read(-1)).error).toEqual({ code: -32602, message: 'Invalid params: minContextSlot must be a slot number' });
    const simulated = await simulateTransfer(slot);
    expect(simulated).toMatchObject({ context: { slot }, value: { err: null, accounts: [{ lamports: 1_000_000_000 - 1_000 - 5_000 }] } });
  });

  it('a transfer fault lands a transfer from elsewhere just before the RPC call it names, and only that one', async () => {
    h = await startSim();
    h.sim.control.fund(A, 1_000_000_000n);
    h.sim.control.injectFault({ path: '/rpc', rpcMethod: 'simulateTransaction', kind: 'transfer', transfer: { from: A, to: B, amount: '20000000' }, count: 1 });
    const before = (await read()).result;
    expect(before?.value[0]?.lamports).toBe(1_000_000_000);
    // Between a client's read and its simulation, 0.02 SOL left A: the simulation runs on the new state, one slot on.
    const simulated = await simulateTransfer(before?.context.slot);
    expect(simulated).toMatchObject({
      context: { slot: (before?.context.slot ?? -1) + 1 },
      value: { err: null, accounts: [{ lamports: 1_000_000_000 - 20_000_000 - 1_000 - 5_000 }] },
    });
    expect(h.sim.control.balance(B)).toBe(20_000_000n);
    // Spent: the next simulation moves nothing more.
    await simulateTransfer();
    expect(h.sim.control.balance(B)).toBe(20_000_000n);
    // A wallet that no longer holds the amount moves nothing.
    h.sim.control.injectFault({
      path: '/rpc',
      rpcMethod: ['getMultipleAccounts'],
      kind: 'transfer',
      transfer: { from: B, to: A, amount: '30000000' },
      count: 1,
    });
    expect((await read()).result?.value[0]?.lamports).toBe(1_000_000_000 - 20_000_000);
  });

  it('over HTTP: /__sim/transfer and transfer faults are checked; a transfer is a kept input, replayed into the same world', async () => {
    const inputs: WorldInput[] = [];
    h = await startSim({ onInput: (input) => inputs.push(input) });
    h.sim.control.fund(A, 1_000_000_000n);
    const moved = await h.call('POST', '/__sim/transfer', { body: { from: A, to: B, amount: '7000' } });
    expect(moved).toMatchObject({ status: 200, body: { from: A, to: B, balance: '999993000' } });
    expect((await h.call('POST', '/__sim/transfer', { body: { from: B, to: A, amount: '8000' } })).status).toBe(400);
    expect((await h.call('POST', '/__sim/transfer', { body: { from: A, to: B } })).body).toEqual({
      error: 'expected { from, to, amount (base units, string), mint? }',
    });
    const fault = (body: unknown): Promise<unknown> => h.call('POST', '/__sim/faults', { body }).then((r) => r.body);
    expect(await fault({ path: '/rpc', kind: 'transfer', transfer: { from: A, amount: '1' } })).toEqual({
      error: 'expected { transfer: { from, to, amount (base units, string), mint? } }',
    });
    expect(await fault({ path: '/rpc', kind: 'transfer', rpcMethod: 7, transfer: { from: A, to: B, amount: '1' } })).toEqual({
      error: 'expected { rpcMethod: method | [method, ...] }',
    });
    expect(await fault({ path: '/rpc', kind: 'transfer', rpcMethod: 'getBalance', transfer: { from: A, to: B, amount: '1' } })).toEqual({ id: 1 });
    expect((await rpc('getBalance', [A])).result.value).toBe(1_000_000_000 - 7_000 - 1);
    expect(inputs.filter((i) => i.kind === 'control').map((i) => (i.kind === 'control' ? [i.op, ...i.args] : []))).toEqual([
      ['fund', A, '1000000000', SOL],
      ['transfer', A, B, '7000', SOL],
      ['transfer', A, B, '1', SOL],
    ]);

    // The same inputs at their instants rebuild the same balances.
    const clock = new ManualClock(h.sim.genesis);
    const rebuilt = createSimulator({ clock, seed: 'test' });
    for (const input of inputs) {
      await clock.advance(input.at - clock.now());
      rebuilt.replay(input);
    }
    expect([rebuilt.control.balance(A), rebuilt.control.balance(B)]).toEqual([h.sim.control.balance(A), h.sim.control.balance(B)]);
  });
});
