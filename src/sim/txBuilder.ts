import {
  type PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type AddressLookupTableAccount,
} from '@solana/web3.js';
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
