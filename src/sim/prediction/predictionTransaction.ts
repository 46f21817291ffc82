/**
 * Prediction transactions in the shape Jupiter's live API hands out: v0, paid by Jupiter's
 * prediction payer (whose signature is already present), co-signed beforehand by a protocol signer
 * (which rotates: not one fixed key), with the owner a read-only signer whose slot is left empty.
 * They carry Compute Budget instructions, an idempotent creation of the owner's funding token account
 * paid by the payer, and the prediction program's instruction: the order (discriminator
 * 8d3625cfedd2fad7, Borsh arguments as observed) or the claim (Anchor `claim_position`, no arguments;
 * the simulator's layout, not confirmed live).
 */
import { createHash } from 'node:crypto';
import { type AddressLookupTableAccount, Keypair, type PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import { associatedTokenAddress, derivedAddress, ProgramId, pubkey } from '../programIds.js';
import { computeBudget, createAtaIdempotent } from '../txBuilder.js';

export const ORDER_DISCRIMINATOR = Buffer.from('8d3625cfedd2fad7', 'hex');
export const CLAIM_DISCRIMINATOR = createHash('sha256').update('global:claim_position').digest().subarray(0, 8);

/** The simulator's stand-ins for Jupiter's prediction payer and protocol co-signers, from the seed. */
export class PredictionSigners {
  readonly payer: Keypair;
  readonly protocol: readonly Keypair[];
  #next = 0;

  constructor(seed: string) {
    const key = (label: string): Keypair => Keypair.fromSeed(createHash('sha256').update(`${seed}:prediction:${label}`).digest());
    this.payer = key('payer');
    this.protocol = [key('protocol-0'), key('protocol-1')];
  }

  /** The co-signer of the next transaction (they rotate, as on mainnet). */
  nextProtocol(): Keypair {
    const signer = this.protocol[this.#next % this.protocol.length] as Keypair;
    this.#next += 1;
    return signer;
  }
}

export interface OrderFields {
  readonly owner: PublicKey;
  readonly market: PublicKey;
  readonly position: PublicKey;
  readonly order: PublicKey;
  readonly mint: string;
  readonly externalOrderId: string;
  readonly marketIdHash: string;
  readonly isYes: boolean;
  readonly isBuy: boolean;
  readonly contractsMicro: bigint;
  readonly priceBoundMicro: bigint;
  readonly costMicro: bigint;
  readonly slippageBps: number;
}

function borshString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function u64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return b;
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}

export const PREDICTION_EVENT_AUTHORITY = derivedAddress('jupbot-sim:prediction-event-authority');

/** The accounts every prediction instruction begins with, then the programs it calls. */
function keys(payer: PublicKey, owner: PublicKey, protocol: PublicKey, rest: PublicKey[]): TransactionInstruction['keys'] {
  return [
    { pubkey: payer, isSigner: true, isWritable: true },
    { pubkey: owner, isSigner: true, isWritable: false },
    { pubkey: protocol, isSigner: true, isWritable: false },
    ...rest.map((k, i) => ({ pubkey: k, isSigner: false, isWritable: i < rest.length - 1 })),
    { pubkey: ProgramId.system, isSigner: false, isWritable: false },
    { pubkey: ProgramId.token, isSigner: false, isWritable: false },
    { pubkey: ProgramId.associatedToken, isSigner: false, isWritable: false },
    { pubkey: PREDICTION_EVENT_AUTHORITY, isSigner: false, isWritable: false },
    { pubkey: ProgramId.jupiterPrediction, isSigner: false, isWritable: false },
  ];
}

export function orderInstruction(payer: PublicKey, protocol: PublicKey, f: OrderFields): TransactionInstruction {
  const data = Buffer.concat([
    ORDER_DISCRIMINATOR,
    borshString(f.externalOrderId),
    borshString(f.marketIdHash),
    Buffer.from([f.isYes ? 1 : 0, f.isBuy ? 1 : 0]),
    u64(f.contractsMicro),
    u64(f.priceBoundMicro),
    u64(f.costMicro),
    u16(f.slippageBps),
    Buffer.from([1]),
    u16(Math.min(10_000, f.slippageBps * 2)),
  ]);
  const mint = pubkey(f.mint);
  const funding = associatedTokenAddress(f.owner, mint);
  return new TransactionInstruction({
    programId: ProgramId.jupiterPrediction,
    keys: keys(payer, f.owner, protocol, [f.market, f.position, f.order, funding, mint]),
    data,
  });
}

export function claimInstruction(
  payer: PublicKey,
  protocol: PublicKey,
  f: { owner: PublicKey; market: PublicKey; position: PublicKey; mint: string },
): TransactionInstruction {
  const mint = pubkey(f.mint);
  const funding = associatedTokenAddress(f.owner, mint);
  return new TransactionInstruction({
    programId: ProgramId.jupiterPrediction,
    keys: keys(payer, f.owner, protocol, [f.market, f.position, funding, mint]),
    data: Buffer.from(CLAIM_DISCRIMINATOR),
  });
}

export interface BuiltPredictionTx {
  readonly base64: string;
  readonly messageBytes: Uint8Array;
}

/**
 * Compiles the instruction into a v0 transaction paid by the prediction payer, with the owner's
 * funding account created (rent paid by the payer) and the payer's and co-signer's signatures in place.
 */
export function buildPredictionTransaction(
  signers: { payer: Keypair; protocol: Keypair },
  owner: PublicKey,
  mint: string,
  blockhash: string,
  instruction: TransactionInstruction,
  tables: readonly AddressLookupTableAccount[] = [],
): BuiltPredictionTx {
  const payer = signers.payer.publicKey;
  const instructions = [...computeBudget(200_000, 1_000), createAtaIdempotent(payer, owner, pubkey(mint)), instruction];
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions }).compileToV0Message([...tables]);
  const tx = new VersionedTransaction(message);
  const bytes = message.serialize();
  for (const kp of [signers.payer, signers.protocol]) {
    const index = message.staticAccountKeys.findIndex((k) => k.equals(kp.publicKey));
    tx.signatures[index] = nacl.sign.detached(bytes, kp.secretKey);
  }
  return { base64: Buffer.from(tx.serialize()).toString('base64'), messageBytes: bytes };
}
