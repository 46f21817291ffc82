import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { MAX_SIMULATIONS } from '../../../src/solana/consistentSimulation.js';
import { proveEffects, type EffectsRpc } from '../../../src/solana/effects.js';
import type { SwapExpectation } from '../../../src/solana/expectation.js';
import { checkTransaction } from '../../../src/solana/guard.js';
import { GuardRefusal } from '../../../src/solana/guardRefusal.js';
import { RpcError, type AccountState } from '../../../src/solana/rpc.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { ata, JUP, swapIxs, tx, USDC, W, wallet } from './txFactory.js';

// 10 USDC for at least 0.99 JUP: SOL is not the input, so our SOL may fall by the fee budget only.
const swap: SwapExpectation = { kind: 'swap', inputMint: USDC, outputMint: JUP, maxInAmount: 10_000_000n, minOutAmount: 990_000n, maxSlippageBps: 100 };
const USDC_ATA = ata(W, USDC).toBase58();
const JUP_ATA = ata(W, JUP).toBase58();

function tokenAccount(mint: string, owner: PublicKey, amount: bigint): AccountState {
  const d = Buffer.alloc(165);
  new PublicKey(mint).toBuffer().copy(d, 0);
  owner.toBuffer().copy(d, 32);
  d.writeBigUInt64LE(amount, 64);
  d.writeUInt8(1, 108);
  return { lamports: 2_039_280n, owner: ProgramId.token.toBase58(), data: d, executable: false };
}

/** Our balances on the little chain below. */
interface Balances {
  sol: bigint;
  usdc: bigint;
  jup: bigint;
}

const accountOf = (b: Balances, address: string): AccountState | null => {
  if (address === wallet) return { lamports: b.sol, owner: ProgramId.system.toBase58(), data: Buffer.alloc(0), executable: false };
  if (address === USDC_ATA) return b.usdc === 0n ? null : tokenAccount(USDC, W, b.usdc);
  if (address === JUP_ATA) return b.jup === 0n ? null : tokenAccount(JUP, W, b.jup);
  return null;
};

type Method = 'getMultipleAccounts' | 'simulateTransaction';

/**
 * A node over a little chain: every landing opens a new slot, as a bank does. `landing(method, n)`
 * lands something (a change of our balances) just before the node answers the nth call (1-based)
 * of `method`; `effect` is what the transaction would do. Every call is recorded with its
 * `minContextSlot` and the slot it answered at.
 */
function chain(
  start: Balances,
  effect: (b: Balances) => Balances,
  landing: (method: Method, n: number) => ((b: Balances) => Balances) | undefined = () => undefined,
): EffectsRpc & { calls: { method: Method; minContextSlot: number | undefined; slot: number }[] } {
  let state = start;
  let slot = 100;
  const counts: Record<Method, number> = { getMultipleAccounts: 0, simulateTransaction: 0 };
  const calls: { method: Method; minContextSlot: number | undefined; slot: number }[] = [];
  const arrive = (method: Method, minContextSlot: number | undefined): void => {
    counts[method] += 1;
    const change = landing(method, counts[method]);
    if (change) {
      state = change(state);
      slot += 1;
    }
    calls.push({ method, minContextSlot, slot });
  };
  return {
    calls,
    getMultipleAccounts(addresses, _commitment, options) {
      arrive('getMultipleAccounts', options?.minContextSlot);
      return Promise.resolve({ slot, accounts: addresses.map((a) => accountOf(state, a)) });
    },
    simulateTransaction(_base64, options) {
      arrive('simulateTransaction', options.minContextSlot);
      const after = effect(state);
      return Promise.resolve({ err: null, logs: [], accounts: options.accounts.map((a) => accountOf(after, a)), unitsConsumed: 1, slot });
    },
  };
}

async function prove(rpc: EffectsRpc): Promise<Awaited<ReturnType<typeof proveEffects>>> {
  const t = tx(W, swapIxs(10_000_000n, USDC, JUP));
  const summary = await checkTransaction(t, swap, { wallet });
  return proveEffects(t, swap, summary, { wallet, rpc });
}

async function refusalOf(rpc: EffectsRpc): Promise<GuardRefusal> {
  const error = await prove(rpc).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardRefusal);
  return error as GuardRefusal;
}

const START: Balances = { sol: 1_000_000_000n, usdc: 50_000_000n, jup: 0n };
/** The honest swap: 10 USDC in, 1 JUP out, 5,000 lamports of fee. */
const honest = (b: Balances): Balances => ({ sol: b.sol - 5_000n, usdc: b.usdc - 10_000_000n, jup: b.jup + 1_000_000n });
const deltas = { [USDC]: '-10000000', [JUP]: '1000000', So11111111111111111111111111111111111111112: '-5000' };

describe('the effects check on a chain that moves while it looks', () => {
  it('reads once and simulates once on the slot it read when nothing lands meanwhile', async () => {
    const rpc = chain(START, honest);
    await expect(prove(rpc)).resolves.toMatchObject({ deltas });
    expect(rpc.calls).toEqual([
      { method: 'getMultipleAccounts', minContextSlot: undefined, slot: 100 },
      { method: 'simulateTransaction', minContextSlot: 100, slot: 100 },
    ]);
  });

  it('0.02 SOL leaving the wallet from elsewhere between the read and the simulation is not counted as the transaction’s', async () => {
    // Another process with the key (or a transaction of ours landing late) spends 0.02 SOL.
    const rpc = chain(START, honest, (method, n) => (method === 'simulateTransaction' && n === 1 ? (b) => ({ ...b, sol: b.sol - 20_000_000n }) : undefined));
    await expect(prove(rpc)).resolves.toMatchObject({ deltas });
    // The simulation ran on a later slot: the accounts were read again there, and that read was the "before".
    expect(rpc.calls).toEqual([
      { method: 'getMultipleAccounts', minContextSlot: undefined, slot: 100 },
      { method: 'simulateTransaction', minContextSlot: 100, slot: 101 },
      { method: 'getMultipleAccounts', minContextSlot: 101, slot: 101 },
    ]);
  });

  it('a stranger paying in between the read and the simulation cannot hide a drain: refused with the existing reason', async () => {
    // The transaction takes 0.05 SOL besides the swap; a stranger sends 0.05 SOL in just before it is simulated.
    const draining = (b: Balances): Balances => ({ ...honest(b), sol: b.sol - 5_000n - 50_000_000n });
    const rpc = chain(START, draining, (method, n) => (method === 'simulateTransaction' && n === 1 ? (b) => ({ ...b, sol: b.sol + 50_000_000n }) : undefined));
    const refusal = await refusalOf(rpc);
    expect(refusal.reason).toBe('EFFECT_SOL_EXCEEDS_BUDGET');
    expect(refusal.transient).toBe(false);
    expect(refusal.details).toMatchObject({ mint: 'So11111111111111111111111111111111111111112', out: '50005000' });
  });

  it('slots that moved with our accounts unchanged since the first read are one state of ours: no second simulation', async () => {
    // Others' transactions land (a new slot each), none of them touches our accounts.
    const rpc = chain(START, honest, (method, n) =>
      (n === 1 && method === 'simulateTransaction') || (n === 2 && method === 'getMultipleAccounts') ? (b) => b : undefined,
    );
    await expect(prove(rpc)).resolves.toMatchObject({ deltas });
    expect(rpc.calls).toEqual([
      { method: 'getMultipleAccounts', minContextSlot: undefined, slot: 100 },
      { method: 'simulateTransaction', minContextSlot: 100, slot: 101 },
      { method: 'getMultipleAccounts', minContextSlot: 101, slot: 102 },
    ]);
  });

  it('accounts that change at every look are EFFECT_STATE_MOVED after three simulations: a transient refusal, nothing proven', async () => {
    const rpc = chain(START, honest, () => (b) => ({ ...b, sol: b.sol - 1_000_000n }));
    const refusal = await refusalOf(rpc);
    expect(refusal.reason).toBe('EFFECT_STATE_MOVED');
    expect(refusal.transient).toBe(true);
    expect(MAX_SIMULATIONS).toBe(3);
    expect(rpc.calls.filter((c) => c.method === 'simulateTransaction')).toHaveLength(3);
    expect(refusal.details).toEqual({ reason: 'EFFECT_STATE_MOVED', slots: [101, 102, 103, 104, 105, 106, 107], accounts: [wallet] });
    expect(refusal.message).toBe(
      'guard refused to sign (EFFECT_STATE_MOVED): our accounts kept changing while the transaction was simulated (3 simulations, slots 101, 102, 103, 104, 105, 106, 107): ' +
        'what it would do cannot be told from what happened meanwhile; built again on the next pass',
    );
  });

  it('a move that stops after the first simulation settles on the second, from the newest read', async () => {
    const spend = (b: Balances): Balances => ({ ...b, sol: b.sol - 1_000_000n });
    const rpc = chain(START, honest, (method, n) =>
      (method === 'simulateTransaction' && n === 1) || (method === 'getMultipleAccounts' && n === 2) ? spend : undefined,
    );
    await expect(prove(rpc)).resolves.toMatchObject({ deltas });
    expect(rpc.calls.map((c) => [c.method, c.minContextSlot, c.slot])).toEqual([
      ['getMultipleAccounts', undefined, 100],
      ['simulateTransaction', 100, 101],
      ['getMultipleAccounts', 101, 102],
      ['simulateTransaction', 102, 102],
    ]);
  });

  it('a node behind the slot read (-32016) cannot simulate now: SIMULATION_UNAVAILABLE, transient', async () => {
    const rpc = chain(START, honest);
    const behind: EffectsRpc = {
      getMultipleAccounts: (a, c, o) => rpc.getMultipleAccounts(a, c, o),
      simulateTransaction: () =>
        Promise.reject(new RpcError('RPC_ERROR', 'simulateTransaction', '-32016 Minimum context slot has not been reached', { rpcCode: -32016 })),
    };
    const refusal = await refusalOf(behind);
    expect(refusal.reason).toBe('SIMULATION_UNAVAILABLE');
    expect(refusal.transient).toBe(true);
  });
});
