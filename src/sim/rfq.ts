/**
 * RFQ (JupiterZ) swaps: a market maker quotes, pays the transaction and signs it last, at /execute.
 * The transaction calls Jupiter's Order Engine `fill` (Anchor discriminator of `fill`; accounts taker,
 * maker, the taker's input and output token accounts, the maker's, the two mints, the token and
 * system programs — the simulator's order, the program's own layout is not published) with the input
 * amount, the output amount and the quote's expiry; the maker's slot is empty when the taker signs.
 * When the output is SOL, Jupiter's fee follows as mainnet fills show it: a System transfer from the
 * taker into a wrapped-SOL fee account, then SyncNative on that account.
 */
import { createHash } from 'node:crypto';
import { type AddressLookupTableAccount, Keypair, type PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { associatedTokenAddress, ProgramId, pubkey } from './programIds.js';
import { buildV0, computeBudget, createAtaIdempotent, syncNative, type BuiltTx } from './txBuilder.js';

export const ORDER_ENGINE = pubkey('61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH');
const FILL = createHash('sha256').update('global:fill').digest().subarray(0, 8);
/** From this size (USD) a market maker's quote wins the route, as RFQ makers compete on size. */
export const RFQ_MINIMUM_USD = 25_000;
/** How long a maker's quote holds. */
export const RFQ_QUOTE_MS = 30_000;

export function rfqMaker(seed: string): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`${seed}:rfq-maker`).digest());
}

export interface RfqTxParams {
  readonly maker: PublicKey;
  readonly taker: PublicKey;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** Unix seconds. */
  readonly expireAt: number;
  readonly blockhash: string;
  readonly tables: readonly AddressLookupTableAccount[];
  /** Jupiter's fee the taker pays in SOL into a wrapped-SOL fee account; null when none. */
  readonly fee: { readonly lamports: bigint; readonly account: PublicKey } | null;
}

export function buildRfqTransaction(p: RfqTxParams): BuiltTx {
  const input = pubkey(p.inputMint);
  const output = pubkey(p.outputMint);
  const data = Buffer.alloc(8 + 8 + 8 + 8);
  FILL.copy(data, 0);
  data.writeBigUInt64LE(p.inAmount, 8);
  data.writeBigUInt64LE(p.outAmount, 16);
  data.writeBigInt64LE(BigInt(p.expireAt), 24);
  const fill = new TransactionInstruction({
    programId: ORDER_ENGINE,
    keys: [
      { pubkey: p.taker, isSigner: true, isWritable: true },
      { pubkey: p.maker, isSigner: true, isWritable: true },
      { pubkey: associatedTokenAddress(p.taker, input), isSigner: false, isWritable: true },
      { pubkey: associatedTokenAddress(p.maker, input), isSigner: false, isWritable: true },
      { pubkey: associatedTokenAddress(p.taker, output), isSigner: false, isWritable: true },
      { pubkey: associatedTokenAddress(p.maker, output), isSigner: false, isWritable: true },
      { pubkey: input, isSigner: false, isWritable: false },
      { pubkey: output, isSigner: false, isWritable: false },
      { pubkey: ProgramId.token, isSigner: false, isWritable: false },
      { pubkey: ProgramId.system, isSigner: false, isWritable: false },
    ],
    data,
  });
  const fee =
    p.fee === null ? [] : [SystemProgram.transfer({ fromPubkey: p.taker, toPubkey: p.fee.account, lamports: p.fee.lamports }), syncNative(p.fee.account)];
  return buildV0(p.maker, p.blockhash, [...computeBudget(150_000, 0), createAtaIdempotent(p.maker, p.taker, output), fill, ...fee], p.tables);
}
