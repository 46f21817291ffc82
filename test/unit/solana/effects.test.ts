import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { proveEffects, type EffectsRpc } from '../../../src/solana/effects.js';
import type { SwapExpectation } from '../../../src/solana/expectation.js';
import { checkTransaction } from '../../../src/solana/guard.js';
import { GuardRefusal } from '../../../src/solana/guardRefusal.js';
import type { AccountState } from '../../../src/solana/rpc.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { ata, JUP, keypair, SOL, STRANGER, swapIxs, tx, USDC, W, wallet } from './txFactory.js';

const swap: SwapExpectation = { kind: 'swap', inputMint: SOL, outputMint: USDC, maxInAmount: 100_000_000n, minOutAmount: 990_000n, maxSlippageBps: 100 };
const walletAccount = (lamports: bigint): AccountState => ({ lamports, owner: ProgramId.system.toBase58(), data: Buffer.alloc(0), executable: false });

/** A 165-byte SPL token account. */
function tokenAccount(mint: string, owner: PublicKey, amount: bigint, extra: { delegate?: PublicKey; closeAuthority?: PublicKey } = {}): AccountState {
  const d = Buffer.alloc(165);
  new PublicKey(mint).toBuffer().copy(d, 0);
  owner.toBuffer().copy(d, 32);
  d.writeBigUInt64LE(amount, 64);
  if (extra.delegate) {
    d.writeUInt32LE(1, 72);
    extra.delegate.toBuffer().copy(d, 76);
  }
  d.writeUInt8(1, 108);
  if (extra.closeAuthority) {
    d.writeUInt32LE(1, 129);
    extra.closeAuthority.toBuffer().copy(d, 133);
  }
  return { lamports: 2_039_280n, owner: ProgramId.token.toBase58(), data: d, executable: false };
}

/** A node that answers with `before` now and `after` in the simulation, both on one slot (nothing lands in between). */
function node(
  before: Record<string, AccountState | null>,
  after: Record<string, AccountState | null>,
  err: unknown = null,
): EffectsRpc & { simulated: number } {
  const state = {
    simulated: 0,
    getMultipleAccounts: (addresses: readonly string[]) => Promise.resolve({ slot: 7, accounts: addresses.map((a) => before[a] ?? null) }),
    simulateTransaction: (_b64: string, options: { accounts: readonly string[] }) => {
      state.simulated += 1;
      return Promise.resolve({ err, logs: [], accounts: options.accounts.map((a) => after[a] ?? null), unitsConsumed: 12_345, slot: 7 });
    },
  };
  return state;
}

const SOL_ATA = ata(W, SOL).toBase58();
const USDC_ATA = ata(W, USDC).toBase58();

async function prove(rpc: EffectsRpc, expectation: SwapExpectation = swap): Promise<unknown> {
  const t = tx(W, swapIxs(100_000_000n));
  const summary = await checkTransaction(t, expectation, { wallet });
  return proveEffects(t, expectation, summary, { wallet, rpc });
}

async function refusal(rpc: EffectsRpc, expectation?: SwapExpectation): Promise<string> {
  const error = await prove(rpc, expectation).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardRefusal);
  return (error as GuardRefusal).reason;
}

const before = { [wallet]: walletAccount(1_000_000_000n), [SOL_ATA]: tokenAccount(SOL, W, 100_000_000n), [USDC_ATA]: tokenAccount(USDC, W, 5n) };

describe('the simulated effects of a swap', () => {
  it('accepts what the intent allows, and reports the deltas', async () => {
    const rpc = node(before, { [wallet]: walletAccount(1_000_000_000n - 6_500n), [SOL_ATA]: null, [USDC_ATA]: tokenAccount(USDC, W, 5n + 995_000n) });
    await expect(prove(rpc)).resolves.toEqual({
      deltas: { [SOL]: '-100006500', [USDC]: '995000' },
      accounts: [wallet, 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', SOL_ATA, USDC_ATA],
      unitsConsumed: 12_345,
    });
    expect(rpc.simulated).toBe(1);
  });

  it('refuses more input than the intent', async () => {
    const rpc = node(before, { [wallet]: walletAccount(1_000_000_000n - 6_500n - 1n), [SOL_ATA]: null, [USDC_ATA]: tokenAccount(USDC, W, 995_005n) });
    expect(await refusal(rpc)).toBe('EFFECT_OUTFLOW_EXCEEDS_INTENT');
  });

  it('refuses less output than the minimum', async () => {
    const rpc = node(before, { [wallet]: walletAccount(1_000_000_000n), [SOL_ATA]: null, [USDC_ATA]: tokenAccount(USDC, W, 5n + 989_999n) });
    expect(await refusal(rpc)).toBe('EFFECT_INFLOW_BELOW_MINIMUM');
  });

  it('refuses SOL spent beyond fees when SOL is not the input', async () => {
    const usdcIn: SwapExpectation = { ...swap, inputMint: USDC, outputMint: JUP };
    const t = tx(W, swapIxs(10n, USDC, JUP));
    const summary = await checkTransaction(t, usdcIn, { wallet });
    const rpc = node(
      { [wallet]: walletAccount(1_000_000n), [USDC_ATA]: tokenAccount(USDC, W, 10n) },
      {
        [wallet]: walletAccount(1_000_000n - summary.solBudgetLamports - 1n),
        [USDC_ATA]: tokenAccount(USDC, W, 0n),
        [ata(W, JUP).toBase58()]: tokenAccount(JUP, W, 990_000n),
      },
    );
    const error = await proveEffects(t, usdcIn, summary, { wallet, rpc }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as GuardRefusal).reason).toBe('EFFECT_SOL_EXCEEDS_BUDGET');
  });

  it('refuses a delegate or a new owner on an account of ours', async () => {
    const delegated = node(before, {
      ...before,
      [wallet]: walletAccount(1_000_000_000n - 6_500n),
      [SOL_ATA]: tokenAccount(SOL, W, 0n, { delegate: STRANGER }),
      [USDC_ATA]: tokenAccount(USDC, W, 995_005n),
    });
    expect(await refusal(delegated)).toBe('EFFECT_AUTHORITY_CHANGED');
    const handedOver = node(before, { ...before, [USDC_ATA]: tokenAccount(USDC, STRANGER, 995_005n) });
    expect(await refusal(handedOver)).toBe('EFFECT_AUTHORITY_CHANGED');
    const reassigned = node(before, { ...before, [wallet]: { ...walletAccount(1n), owner: keypair('drainer').publicKey.toBase58() } });
    expect(await refusal(reassigned)).toBe('EFFECT_AUTHORITY_CHANGED');
  });

  it('refuses a failed simulation, and one that cannot run', async () => {
    expect(await refusal(node(before, before, { InstructionError: [2, { Custom: 6001 }] }))).toBe('SIMULATION_FAILED');
    const down: EffectsRpc = {
      getMultipleAccounts: () => Promise.reject(new Error('rpc down')),
      simulateTransaction: () => Promise.reject(new Error('rpc down')),
    };
    expect(await refusal(down)).toBe('SIMULATION_UNAVAILABLE');
  });
});
