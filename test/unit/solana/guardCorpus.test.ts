import { createHash } from 'node:crypto';
import { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../../src/solana/expectation.js';
import { checkTransaction, type GuardOptions } from '../../../src/solana/guard.js';
import { GuardRefusal, type RefusalReason } from '../../../src/solana/guardRefusal.js';
import { JUPITER_GAS_WALLET } from '../../../src/solana/programIds.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { computeBudget, jupiterRoute, memo, predictionCall, transferInstructions } from '../../../src/sim/txBuilder.js';
import {
  ata, BLOCKHASH, createAta, depositIxs, JUP, keypair, loginMemo, lookupTable, SOL, STRANGER, swapIxs, system, token, tx, unknownProgram, USDC, VAULT, vault, W, wallet, withdrawalIxs,
} from './txFactory.js';

const PREDICTION = ProgramId.jupiterPredictionSim.toBase58();
const options: GuardOptions = { wallet, predictionPrograms: [PREDICTION] };

const login: Expectation = { kind: 'login-challenge' };
const deposit: Expectation = { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault };
const solDeposit: Expectation = { kind: 'vault-deposit', mint: SOL, amount: 1_000_000_000n, vault };
const withdrawal: Expectation = { kind: 'vault-withdrawal', vault };
const swap: Expectation = { kind: 'swap', inputMint: SOL, outputMint: USDC, maxInAmount: 100_000_000n };
const sell: Expectation = { kind: 'prediction-sell' };
const claim: Expectation = { kind: 'prediction-claim' };

const GAS = new PublicKey(JUPITER_GAS_WALLET);
const position = keypair('guard-position').publicKey;
const other = keypair('guard-other-signer').publicKey;

/** A Jupiter route whose account at `index` is replaced. */
function routeWith(index: number, account: PublicKey, inAmount = 100_000_000n): TransactionInstruction {
  const ix = jupiterRoute(W, SOL, USDC, inAmount, 1n, 50);
  const keys = ix.keys.map((k, i) => (i === index ? { ...k, pubkey: account } : k));
  return new TransactionInstruction({ programId: ix.programId, keys, data: ix.data });
}

function jupiterCall(name: string): TransactionInstruction {
  const ix = jupiterRoute(W, SOL, USDC, 1n, 1n, 50);
  const data = Buffer.from(ix.data);
  createHash('sha256').update(`global:${name}`).digest().subarray(0, 8).copy(data, 0);
  return new TransactionInstruction({ programId: ix.programId, keys: ix.keys, data });
}

interface Case {
  name: string;
  expectation: Expectation;
  build: () => VersionedTransaction;
  reason: RefusalReason;
  options?: Partial<GuardOptions>;
}

const hiddenStrangerAta = lookupTable('stranger', [ata(STRANGER, USDC)]);

const corpus: Case[] = [
  // Login challenges: memo-only, signed by us alone.
  { name: 'login challenge paid by a stranger', expectation: login, build: () => tx(STRANGER, [loginMemo()]), reason: 'FEE_PAYER_MISMATCH' },
  { name: 'login challenge that carries a SOL transfer', expectation: login, build: () => tx(W, [loginMemo(), system.transfer(W, STRANGER, 1_000_000n)]), reason: 'MEMO_ONLY_VIOLATION' },
  { name: 'login challenge that carries a token transfer', expectation: login, build: () => tx(W, [loginMemo(), token.transferChecked(W, STRANGER, USDC, 1n)]), reason: 'MEMO_ONLY_VIOLATION' },
  { name: 'login challenge with a compute budget', expectation: login, build: () => tx(W, [...computeBudget(1, 1), loginMemo()]), reason: 'MEMO_ONLY_VIOLATION' },
  { name: 'login challenge with no memo at all', expectation: login, build: () => tx(W, []), reason: 'MEMO_ONLY_VIOLATION' },
  { name: 'login challenge co-signed by another key', expectation: login, build: () => tx(W, [loginMemo(), memo('x', other)]), reason: 'UNEXPECTED_SIGNER' },
  // Deposits: exactly the stated amount of the stated mint, to our own vault.
  { name: 'deposit paid by a stranger', expectation: deposit, build: () => tx(STRANGER, depositIxs(50_000_000n)), reason: 'FEE_PAYER_MISMATCH' },
  { name: 'deposit to a stranger instead of the vault', expectation: deposit, build: () => tx(W, [token.transferChecked(W, STRANGER, USDC, 50_000_000n)]), reason: 'TRANSFER_TO_STRANGER' },
  { name: 'deposit of one unit more than stated', expectation: deposit, build: () => tx(W, depositIxs(50_000_001n)), reason: 'AMOUNT_EXCEEDS_INTENT' },
  { name: 'deposit split in two transfers that add up to more', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.transferChecked(W, VAULT, USDC, 1_000n)]), reason: 'AMOUNT_EXCEEDS_INTENT' },
  { name: 'deposit of less than stated', expectation: deposit, build: () => tx(W, depositIxs(49_000_000n)), reason: 'AMOUNT_MISMATCH' },
  { name: 'deposit of another mint', expectation: deposit, build: () => tx(W, depositIxs(50_000_000n, JUP)), reason: 'MINT_MISMATCH' },
  { name: 'deposit with an extra SOL transfer to a stranger', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), system.transfer(W, STRANGER, 5_000n)]), reason: 'TRANSFER_TO_STRANGER' },
  { name: 'SOL deposit of more lamports than stated', expectation: solDeposit, build: () => tx(W, depositIxs(1_000_000_001n, SOL)), reason: 'AMOUNT_EXCEEDS_INTENT' },
  { name: 'deposit that also approves a delegate', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.approve(ata(W, USDC), STRANGER, W, 2n ** 64n - 1n)]), reason: 'DELEGATE_APPROVAL' },
  { name: 'deposit with a Token-2022 ApproveChecked', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.approveChecked(ata(W, USDC, ProgramId.token2022), USDC, STRANGER, W, 10n)]), reason: 'DELEGATE_APPROVAL' },
  { name: 'deposit that hands our token account to a stranger', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.setAuthority(ata(W, USDC), W, STRANGER)]), reason: 'AUTHORITY_CHANGE' },
  { name: 'deposit that closes our account to a stranger', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.close(ata(W, SOL), STRANGER, W)]), reason: 'CLOSE_TO_STRANGER' },
  { name: 'deposit that burns our tokens', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.burn(ata(W, JUP), JUP, W, 5n)]), reason: 'TOKEN_BURN' },
  { name: 'deposit that reassigns our wallet account', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), system.assign(W, STRANGER)]), reason: 'ACCOUNT_REASSIGN' },
  { name: 'deposit that allocates space in our wallet account', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), system.allocate(W, 1)]), reason: 'ACCOUNT_REASSIGN' },
  { name: 'deposit calling an unknown program', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), unknownProgram()]), reason: 'PROGRAM_NOT_ALLOWED' },
  { name: 'deposit calling Jupiter (only swaps may)', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), jupiterRoute(W, USDC, SOL, 1n, 1n, 50)]), reason: 'PROGRAM_NOT_ALLOWED' },
  { name: 'deposit that pays rent for a stranger\'s account', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), createAta(W, STRANGER, JUP)]), reason: 'ATA_FOR_STRANGER' },
  { name: 'deposit co-signed by an unexpected key', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), memo('hi', other)]), reason: 'UNEXPECTED_SIGNER' },
  { name: 'deposit that mints tokens', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), token.mintTo(JUP, ata(W, JUP), W)]), reason: 'INSTRUCTION_NOT_ALLOWED' },
  { name: 'deposit that creates a system account', expectation: deposit, build: () => tx(W, [...depositIxs(50_000_000n), system.createAccount(W, W)]), reason: 'INSTRUCTION_NOT_ALLOWED' },
  // Lookup tables: what cannot be seen cannot be signed.
  {
    name: 'deposit whose destination hides in an unresolvable lookup table',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    reason: 'UNRESOLVED_LOOKUP_TABLE',
  },
  {
    name: 'deposit to a stranger hidden behind a resolved lookup table',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    options: { resolveLookupTable: (address) => Promise.resolve(address === hiddenStrangerAta.key.toBase58() ? hiddenStrangerAta.state.addresses : undefined) },
    reason: 'TRANSFER_TO_STRANGER',
  },
  {
    name: 'lookup table that is shorter than the transaction says',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    options: { resolveLookupTable: () => Promise.resolve([]) },
    reason: 'UNRESOLVED_LOOKUP_TABLE',
  },
  { name: 'lookup table fetch fails', expectation: deposit, build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 1n)], [hiddenStrangerAta]), options: { resolveLookupTable: () => Promise.reject(new Error('rpc down')) }, reason: 'UNRESOLVED_LOOKUP_TABLE' },
  // Withdrawals: nothing leaves the wallet, and the vault's funds come to us.
  { name: 'withdrawal that also moves our tokens out', expectation: withdrawal, build: () => tx(W, [...withdrawalIxs(10n), token.transferChecked(W, STRANGER, USDC, 10n)]), reason: 'WITHDRAWAL_OUTFLOW' },
  { name: 'withdrawal that also sends our SOL out', expectation: withdrawal, build: () => tx(W, [...withdrawalIxs(10n), system.transfer(W, STRANGER, 10n)]), reason: 'WITHDRAWAL_OUTFLOW' },
  { name: 'withdrawal that moves tokens out with a plain Transfer', expectation: withdrawal, build: () => tx(W, [...withdrawalIxs(10n), token.transfer(ata(W, USDC), ata(STRANGER, USDC), W, 10n)]), reason: 'WITHDRAWAL_OUTFLOW' },
  { name: 'withdrawal that sends the vault\'s funds to a stranger', expectation: withdrawal, build: () => tx(W, [token.transferChecked(VAULT, STRANGER, USDC, 10n)]), reason: 'TRANSFER_TO_STRANGER' },
  { name: 'withdrawal co-signed by a key other than our vault', expectation: withdrawal, build: () => tx(W, [token.transferChecked(other, W, USDC, 10n)]), reason: 'UNEXPECTED_SIGNER' },
  { name: 'withdrawal paid by the vault', expectation: withdrawal, build: () => tx(VAULT, withdrawalIxs(10n)), reason: 'FEE_PAYER_MISMATCH' },
  // Swaps: Jupiter only, bounded input, output to us.
  { name: 'swap of more than the intended input', expectation: swap, build: () => tx(W, swapIxs(100_000_001n)), reason: 'AMOUNT_EXCEEDS_INTENT' },
  { name: 'swap whose output goes to a stranger', expectation: swap, build: () => tx(W, [routeWith(3, ata(STRANGER, USDC))]), reason: 'SWAP_ACCOUNT_MISMATCH' },
  { name: 'swap that takes input from our USDC account', expectation: swap, build: () => tx(W, [routeWith(2, ata(W, USDC))]), reason: 'SWAP_ACCOUNT_MISMATCH' },
  { name: 'swap through an unrecognised Jupiter instruction', expectation: swap, build: () => tx(W, [jupiterCall('exact_out_route')]), reason: 'INSTRUCTION_NOT_ALLOWED' },
  { name: 'swap with a tip to a stranger', expectation: swap, build: () => tx(W, [...swapIxs(1n), system.transfer(W, STRANGER, 1_000_000n)]), reason: 'TRANSFER_TO_STRANGER' },
  { name: 'swap with an outrageous priority fee', expectation: swap, build: () => tx(W, [...computeBudget(1_400_000, 1_000_000_000), jupiterRoute(W, SOL, USDC, 1n, 1n, 50)]), reason: 'PRIORITY_FEE_EXCEEDS_CAP' },
  { name: 'swap claimed gasless but paid by a stranger', expectation: { ...swap, gasless: true }, build: () => tx(STRANGER, swapIxs(1n)), reason: 'FEE_PAYER_MISMATCH' },
  { name: 'gasless swap that spends another taker\'s funds, not needing our signature', expectation: { ...swap, gasless: true }, build: () => tx(GAS, [jupiterRoute(other, SOL, USDC, 1n, 1n, 50)]), reason: 'WALLET_NOT_SIGNER' },
  { name: 'swap without any route', expectation: swap, build: () => tx(W, [...computeBudget(300_000, 1)]), reason: 'SWAP_ACCOUNT_MISMATCH' },
  { name: 'swap through a program that is not Jupiter', expectation: swap, build: () => tx(W, [...swapIxs(1n), unknownProgram()]), reason: 'PROGRAM_NOT_ALLOWED' },
  // Prediction exits: proceeds in, nothing out.
  { name: 'prediction sell that also sends USDC to a stranger', expectation: sell, build: () => tx(W, [predictionCall('close_order', W, position, 1n), token.transferChecked(W, STRANGER, USDC, 1n)]), reason: 'OUTFLOW_NOT_ALLOWED' },
  { name: 'prediction claim through an unconfigured program', expectation: claim, build: () => tx(W, [predictionCall('claim_position', W, position, 1n)]), options: { predictionPrograms: [] }, reason: 'PROGRAM_NOT_ALLOWED' },
  { name: 'prediction claim that sends SOL out', expectation: claim, build: () => tx(W, [predictionCall('claim_position', W, position, 1n), system.transfer(W, STRANGER, 1n)]), reason: 'OUTFLOW_NOT_ALLOWED' },
  // Malformed.
  {
    name: 'token transfer with truncated data',
    expectation: deposit,
    build: () => tx(W, [new TransactionInstruction({ programId: ProgramId.token, keys: [{ pubkey: ata(W, USDC), isSigner: false, isWritable: true }], data: Buffer.from([3, 1]) })]),
    reason: 'MALFORMED_TRANSACTION',
  },
];

describe('the guard refuses the attack corpus', () => {
  it('has at least 25 crafted refusals', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(25);
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const error = await checkTransaction(c.build(), c.expectation, { ...options, ...c.options }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GuardRefusal);
    const refusal = error as GuardRefusal;
    expect(refusal.code).toBe('GUARD_REFUSED');
    expect(refusal.reason).toBe(c.reason);
    expect(refusal.details['reason']).toBe(c.reason);
  });
});

describe('the guard accepts the legitimate shapes', () => {
  it('a memo-only login challenge', async () => {
    await expect(checkTransaction(tx(W, [loginMemo()]), login, options)).resolves.toMatchObject({ kind: 'login-challenge', outflows: [] });
  });

  it('a USDC and a SOL deposit of exactly the stated amount to our vault', async () => {
    const usdc = await checkTransaction(tx(W, depositIxs(50_000_000n)), deposit, options);
    expect(usdc.outflows).toEqual([{ mint: USDC, amount: 50_000_000n, to: ata(VAULT, USDC).toBase58() }]);
    const sol = await checkTransaction(tx(W, depositIxs(1_000_000_000n, SOL)), solDeposit, options);
    expect(sol.outflows).toEqual([{ mint: SOL, amount: 1_000_000_000n, to: vault }]);
  });

  it('a deposit whose accounts come through a resolved lookup table', async () => {
    const table = lookupTable('vault', [ata(VAULT, USDC)]);
    const resolveLookupTable = (address: string) => Promise.resolve(address === table.key.toBase58() ? table.state.addresses : undefined);
    const summary = await checkTransaction(tx(W, [token.transferChecked(W, VAULT, USDC, 50_000_000n)], [table]), deposit, { ...options, resolveLookupTable });
    expect(summary.outflows[0]?.amount).toBe(50_000_000n);
  });

  it('a Token-2022 deposit, and a SOL deposit that wraps first as the real API may', async () => {
    const t22 = await checkTransaction(tx(W, [...computeBudget(60_000, 1_000), ...transferInstructions(W, W, VAULT, JUP, 7n, 6, ProgramId.token2022)]), { kind: 'vault-deposit', mint: JUP, amount: 7n, vault }, options);
    expect(t22.outflows).toEqual([{ mint: JUP, amount: 7n, to: ata(VAULT, JUP, ProgramId.token2022).toBase58() }]);
    const wsol = ata(W, SOL);
    const syncNative = new TransactionInstruction({ programId: ProgramId.token, keys: [{ pubkey: wsol, isSigner: false, isWritable: true }], data: Buffer.from([17]) });
    const wrapped = tx(W, [
      createAta(W, W, SOL),
      system.transfer(W, wsol, 1_000_000_000n),
      syncNative,
      createAta(W, VAULT, SOL),
      token.transferChecked(W, VAULT, SOL, 1_000_000_000n),
      token.close(wsol, W, W),
    ]);
    await expect(checkTransaction(wrapped, solDeposit, options)).resolves.toMatchObject({ outflows: [{ mint: SOL, amount: 1_000_000_000n }] });
  });

  it('a legacy (pre-v0) message', async () => {
    const legacy = new VersionedTransaction(new TransactionMessage({ payerKey: W, recentBlockhash: BLOCKHASH, instructions: depositIxs(50_000_000n) }).compileToLegacyMessage());
    await expect(checkTransaction(legacy, deposit, options)).resolves.toMatchObject({ kind: 'vault-deposit' });
  });

  it('a withdrawal from our vault, co-signed by the vault', async () => {
    await expect(checkTransaction(tx(W, withdrawalIxs(10n)), withdrawal, options)).resolves.toMatchObject({ signers: [wallet, vault], outflows: [] });
    await expect(checkTransaction(tx(W, withdrawalIxs(10n, SOL)), withdrawal, options)).resolves.toMatchObject({ outflows: [] });
  });

  it('a swap at the bound, and a gasless one paid by Jupiter', async () => {
    await expect(checkTransaction(tx(W, swapIxs(100_000_000n)), swap, options)).resolves.toMatchObject({ outflows: [{ mint: SOL, amount: 100_000_000n }] });
    await expect(checkTransaction(tx(GAS, swapIxs(5n)), { ...swap, gasless: true }, options)).resolves.toMatchObject({ feePayer: JUPITER_GAS_WALLET });
  });
});
