/**
 * Builders for the guard's corpus: the legitimate shapes (built with the simulator's own builders,
 * which mirror what Jupiter's API returns) and the raw instructions an attacker would splice in.
 */
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { associatedTokenAddress, derivedAddress, ProgramId, USDC_MINT } from '../../../src/sim/programIds.js';
import { computeBudget, memo, transferChecked, transferInstructions } from '../../../src/sim/txBuilder.js';
import { routeIx } from './jupiterTx.js';

export const BLOCKHASH = derivedAddress('guard-test:blockhash').toBase58();
export const USDC = USDC_MINT;
export const SOL = 'So11111111111111111111111111111111111111112';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

/** A deterministic keypair per label. */
export function keypair(label: string): Keypair {
  const seed = new Uint8Array(32);
  new TextEncoder().encodeInto(label.padEnd(32, '.'), seed);
  return Keypair.fromSeed(seed);
}

export const WALLET = keypair('guard-wallet');
export const W = WALLET.publicKey;
export const VAULT = keypair('guard-vault').publicKey;
export const STRANGER = keypair('guard-stranger').publicKey;
export const wallet = W.toBase58();
export const vault = VAULT.toBase58();

/** Compiles a v0 transaction; accounts found in `tables` are loaded through them. */
export function tx(payer: PublicKey, instructions: TransactionInstruction[], tables: AddressLookupTableAccount[] = []): VersionedTransaction {
  return new VersionedTransaction(new TransactionMessage({ payerKey: payer, recentBlockhash: BLOCKHASH, instructions }).compileToV0Message(tables));
}

export function lookupTable(label: string, addresses: PublicKey[]): AddressLookupTableAccount {
  return new AddressLookupTableAccount({
    key: derivedAddress(`guard-test:alt:${label}`),
    state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses },
  });
}

export const ata = (owner: PublicKey, mint: string, program = ProgramId.token): PublicKey => associatedTokenAddress(owner, new PublicKey(mint), program);

/** The deposit the Trigger API crafts: compute budget, vault ATA creation, TransferChecked of `amount`. */
export function depositIxs(amount: bigint, mint = USDC, decimals = 6): TransactionInstruction[] {
  return [...computeBudget(60_000, 1_000), ...transferInstructions(W, W, VAULT, mint, amount, decimals)];
}

/** The withdrawal the cancel flow crafts: the vault sends `amount` back to us. */
export function withdrawalIxs(amount: bigint, mint = USDC): TransactionInstruction[] {
  return transferInstructions(W, VAULT, W, mint, amount, 6);
}

/** A v6 `route` from our `inputMint` account to our `outputMint` account, quoting `quotedOut`. */
export function swapIxs(inAmount: bigint, inputMint = SOL, outputMint = USDC, quotedOut = 1_000_000n): TransactionInstruction[] {
  return [
    ...computeBudget(300_000, 5_000),
    routeIx({
      authority: W,
      source: ata(W, inputMint),
      userDestination: ata(W, outputMint),
      destinationMint: new PublicKey(outputMint),
      inAmount,
      quotedOutAmount: quotedOut,
    }),
  ];
}

export const loginMemo = (signer: PublicKey = W): TransactionInstruction =>
  memo('Sign this message to authenticate with Jupiter Trigger Order API: 00ff', signer);

function u64(op: number, amount: bigint, extra: number[] = []): Buffer {
  const data = Buffer.alloc(9 + extra.length);
  data.writeUInt8(op, 0);
  data.writeBigUInt64LE(amount, 1);
  extra.forEach((b, i) => data.writeUInt8(b, 9 + i));
  return data;
}

const meta = (pubkey: PublicKey, isSigner = false, isWritable = true) => ({ pubkey, isSigner, isWritable });

/** Raw SPL Token instructions, by their documented layouts. */
export const token = {
  transfer: (source: PublicKey, dest: PublicKey, owner: PublicKey, amount: bigint) =>
    new TransactionInstruction({ programId: ProgramId.token, keys: [meta(source), meta(dest), meta(owner, true, false)], data: u64(3, amount) }),
  transferChecked: (owner: PublicKey, destOwner: PublicKey, mint: string, amount: bigint) => transferChecked(owner, destOwner, new PublicKey(mint), amount, 6),
  transferCheckedTo: (owner: PublicKey, dest: PublicKey, mint: string, amount: bigint) =>
    new TransactionInstruction({
      programId: ProgramId.token,
      keys: [meta(ata(owner, mint)), meta(new PublicKey(mint), false, false), meta(dest), meta(owner, true, false)],
      data: u64(12, amount, [6]),
    }),
  approve: (source: PublicKey, delegate: PublicKey, owner: PublicKey, amount: bigint) =>
    new TransactionInstruction({
      programId: ProgramId.token,
      keys: [meta(source), meta(delegate, false, false), meta(owner, true, false)],
      data: u64(4, amount),
    }),
  approveChecked: (source: PublicKey, mint: string, delegate: PublicKey, owner: PublicKey, amount: bigint) =>
    new TransactionInstruction({
      programId: ProgramId.token2022,
      keys: [meta(source), meta(new PublicKey(mint), false, false), meta(delegate, false, false), meta(owner, true, false)],
      data: u64(13, amount, [6]),
    }),
  setAuthority: (account: PublicKey, owner: PublicKey, newAuthority: PublicKey) =>
    new TransactionInstruction({
      programId: ProgramId.token,
      keys: [meta(account), meta(owner, true, false)],
      data: Buffer.concat([Buffer.from([6, 2, 1]), newAuthority.toBuffer()]),
    }),
  close: (account: PublicKey, dest: PublicKey, owner: PublicKey) =>
    new TransactionInstruction({ programId: ProgramId.token, keys: [meta(account), meta(dest), meta(owner, true, false)], data: Buffer.from([9]) }),
  burn: (account: PublicKey, mint: string, owner: PublicKey, amount: bigint) =>
    new TransactionInstruction({
      programId: ProgramId.token,
      keys: [meta(account), meta(new PublicKey(mint)), meta(owner, true, false)],
      data: u64(8, amount),
    }),
  mintTo: (mint: string, dest: PublicKey, authority: PublicKey) =>
    new TransactionInstruction({ programId: ProgramId.token, keys: [meta(new PublicKey(mint)), meta(dest), meta(authority, true, false)], data: u64(7, 1n) }),
};

export const system = {
  transfer: (from: PublicKey, to: PublicKey, lamports: bigint) => SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports }),
  assign: (account: PublicKey, owner: PublicKey) => SystemProgram.assign({ accountPubkey: account, programId: owner }),
  allocate: (account: PublicKey, space: number) => SystemProgram.allocate({ accountPubkey: account, space }),
  createAccount: (from: PublicKey, account: PublicKey) =>
    SystemProgram.createAccount({ fromPubkey: from, newAccountPubkey: account, lamports: 1_000_000, space: 165, programId: ProgramId.token }),
};

/** An Associated Token `CreateIdempotent` for `owner`, paid by `payer`. */
export function createAta(payer: PublicKey, owner: PublicKey, mint: string): TransactionInstruction {
  return new TransactionInstruction({
    programId: ProgramId.associatedToken,
    keys: [
      meta(payer, true, true),
      meta(ata(owner, mint)),
      meta(owner, false, false),
      meta(new PublicKey(mint), false, false),
      meta(ProgramId.system, false, false),
      meta(ProgramId.token, false, false),
    ],
    data: Buffer.from([1]),
  });
}

/** A call to a program the guard has never heard of, with our wallet as a writable signer. */
export function unknownProgram(label = 'drainer'): TransactionInstruction {
  return new TransactionInstruction({
    programId: derivedAddress(`guard-test:${label}`),
    keys: [meta(W, true, true), meta(ata(W, USDC))],
    data: Buffer.from([1, 2, 3]),
  });
}
