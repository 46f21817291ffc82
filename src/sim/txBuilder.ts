import { createHash } from 'node:crypto';
import { PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction, type AddressLookupTableAccount } from '@solana/web3.js';
import { associatedTokenAddress, ProgramId, pubkey, SOL_MINT } from './programIds.js';

/** An unsigned v0 transaction as handed to a client, plus the exact message bytes it must sign. */
export interface BuiltTx {
  readonly base64: string;
  readonly messageBytes: Uint8Array;
}

/** Compiles instructions into an unsigned v0 transaction with `payer` as fee payer. */
export function buildV0(
  payer: PublicKey,
  recentBlockhash: string,
  instructions: TransactionInstruction[],
  tables: readonly AddressLookupTableAccount[] = [],
): BuiltTx {
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash, instructions }).compileToV0Message([...tables]);
  const tx = new VersionedTransaction(message);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), messageBytes: message.serialize() };
}

/** Compute Budget `SetComputeUnitLimit` (2, u32) and `SetComputeUnitPrice` (3, u64 micro-lamports). */
export function computeBudget(units: number, microLamports: number): TransactionInstruction[] {
  const limit = Buffer.alloc(5);
  limit.writeUInt8(2, 0);
  limit.writeUInt32LE(units, 1);
  const price = Buffer.alloc(9);
  price.writeUInt8(3, 0);
  price.writeBigUInt64LE(BigInt(microLamports), 1);
  return [
    new TransactionInstruction({ programId: ProgramId.computeBudget, keys: [], data: limit }),
    new TransactionInstruction({ programId: ProgramId.computeBudget, keys: [], data: price }),
  ];
}

export function memo(text: string, signer: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ProgramId.memo,
    keys: [{ pubkey: signer, isSigner: true, isWritable: false }],
    data: Buffer.from(text, 'utf8'),
  });
}

/** Associated Token program `CreateIdempotent` (instruction 1). */
export function createAtaIdempotent(payer: PublicKey, owner: PublicKey, mint: PublicKey, tokenProgram = ProgramId.token): TransactionInstruction {
  return new TransactionInstruction({
    programId: ProgramId.associatedToken,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: associatedTokenAddress(owner, mint, tokenProgram), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: ProgramId.system, isSigner: false, isWritable: false },
      { pubkey: tokenProgram, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
}

/** SPL Token `TransferChecked` (instruction 12): amount u64 LE, decimals u8. */
export function transferChecked(
  owner: PublicKey,
  destinationOwner: PublicKey,
  mint: PublicKey,
  amount: bigint,
  decimals: number,
  tokenProgram = ProgramId.token,
): TransactionInstruction {
  const data = Buffer.alloc(10);
  data.writeUInt8(12, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(decimals, 9);
  return new TransactionInstruction({
    programId: tokenProgram,
    keys: [
      { pubkey: associatedTokenAddress(owner, mint, tokenProgram), isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: associatedTokenAddress(destinationOwner, mint, tokenProgram), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data,
  });
}

/**
 * A transfer of exactly `amount` of `mint` from `from` to `to`: a System transfer for native SOL,
 * otherwise an idempotent ATA creation for the receiver (paid by `payer`) and a TransferChecked.
 */
export function transferInstructions(
  payer: PublicKey,
  from: PublicKey,
  to: PublicKey,
  mint: string,
  amount: bigint,
  decimals: number,
  tokenProgram = ProgramId.token,
): TransactionInstruction[] {
  if (mint === SOL_MINT) return [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: amount })];
  const mintKey = pubkey(mint);
  return [createAtaIdempotent(payer, to, mintKey, tokenProgram), transferChecked(from, to, mintKey, amount, decimals, tokenProgram)];
}

/** An Anchor-style 8-byte instruction discriminator, as Jupiter's programs use. */
function discriminator(name: string): Buffer {
  return createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
}

/** Jupiter's Anchor event authority: the PDA of "__event_authority" under Aggregator v6. */
export const JUPITER_EVENT_AUTHORITY = pubkey(
  PublicKey.findProgramAddressSync([Buffer.from('__event_authority')], ProgramId.jupiterAggregatorV6)[0].toBase58(),
);

export interface RouteAccounts {
  readonly taker: PublicKey;
  /** The taker's token account of the input (wrapped SOL for SOL). */
  readonly source: PublicKey;
  /** The taker's token account of the output. */
  readonly userDestination: PublicKey;
  /** Where the output goes instead, when a receiver was asked for; null for none. */
  readonly destination: PublicKey | null;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount: PublicKey | null;
  /** The venue's accounts (pool and vaults), passed after the IDL's list. */
  readonly venues: readonly PublicKey[];
}

export interface RouteArgs {
  /** The `Swap` enum variant of the venue and its fields' bytes. */
  readonly venue: { readonly variant: number; readonly fields: readonly number[] };
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

/**
 * Aggregator v6 `route` as its IDL lays it out: accounts tokenProgram, userTransferAuthority,
 * userSourceTokenAccount, userDestinationTokenAccount, destinationTokenAccount (the program's id for
 * none), destinationMint, platformFeeAccount (likewise), eventAuthority, program, then the venue's;
 * data the discriminator, then Borsh { routePlan, inAmount, quotedOutAmount, slippageBps, platformFeeBps }.
 */
export function jupiterRoute(a: RouteAccounts, args: RouteArgs): TransactionInstruction {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(1);
  const tail = Buffer.alloc(8 + 8 + 2 + 1);
  tail.writeBigUInt64LE(args.inAmount, 0);
  tail.writeBigUInt64LE(args.quotedOutAmount, 8);
  tail.writeUInt16LE(args.slippageBps, 16);
  tail.writeUInt8(args.platformFeeBps, 18);
  // One step: the venue, 100 percent, from token index 0 to 1.
  const step = Buffer.from([args.venue.variant, ...args.venue.fields, 100, 0, 1]);
  const data = Buffer.concat([discriminator('route'), head, step, tail]);
  const jup = ProgramId.jupiterAggregatorV6;
  return new TransactionInstruction({
    programId: jup,
    keys: [
      { pubkey: ProgramId.token, isSigner: false, isWritable: false },
      { pubkey: a.taker, isSigner: true, isWritable: false },
      { pubkey: a.source, isSigner: false, isWritable: true },
      { pubkey: a.userDestination, isSigner: false, isWritable: true },
      { pubkey: a.destination ?? jup, isSigner: false, isWritable: a.destination !== null },
      { pubkey: a.destinationMint, isSigner: false, isWritable: false },
      { pubkey: a.platformFeeAccount ?? jup, isSigner: false, isWritable: a.platformFeeAccount !== null },
      { pubkey: JUPITER_EVENT_AUTHORITY, isSigner: false, isWritable: false },
      { pubkey: jup, isSigner: false, isWritable: false },
      ...a.venues.map((v) => ({ pubkey: v, isSigner: false, isWritable: true })),
    ],
    data,
  });
}

/** SPL Token `SyncNative` (17): a wrapped-SOL account's amount catches up with its lamports. */
export function syncNative(account: PublicKey): TransactionInstruction {
  return new TransactionInstruction({ programId: ProgramId.token, keys: [{ pubkey: account, isSigner: false, isWritable: true }], data: Buffer.from([17]) });
}

/** SPL Token `CloseAccount` (9): the account's lamports go to `destination`. */
export function closeAccount(account: PublicKey, destination: PublicKey, owner: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ProgramId.token,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.from([9]),
  });
}
