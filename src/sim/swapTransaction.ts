import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { pubkey, SOL_MINT } from './programIds.js';
import { buildV0, computeBudget, createAtaIdempotent, jupiterRoute, type BuiltTx } from './txBuilder.js';

export interface SwapTxParams {
  readonly payer: string;
  readonly taker: string;
  readonly receiver: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly blockhash: string;
  readonly computeUnits: number;
  readonly microLamports: number;
  readonly inAmount: bigint;
  readonly minOut: bigint;
  readonly slippageBps: number;
}

// Distinctive placeholder values: compiled once, found in the bytes, overwritten per quote.
const PLACEHOLDER_BLOCKHASH = bs58.encode(createHash('sha256').update('jupbot-sim:placeholder-blockhash').digest());
const PLACEHOLDER_PRICE = 0x3c5a17e9d2b4f681n;
const PLACEHOLDER_IN = 0x5a17c3e9d2b4f681n;
const PLACEHOLDER_OUT = 0x6b28d4fae3c50792n;

interface Template {
  readonly message: Buffer;
  readonly signatures: number;
  readonly blockhashAt: number;
  readonly priceAt: number;
  readonly inAt: number;
}

const templates = new Map<string, Template | null>();

function u64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return b;
}

function instructions(p: SwapTxParams, microLamports: bigint, inAmount: bigint, minOut: bigint): ReturnType<typeof computeBudget> {
  const ixs = computeBudget(p.computeUnits, 0);
  // computeBudget takes a number; write the (placeholder) u64 price directly.
  ixs[1]?.data.writeBigUInt64LE(microLamports, 1);
  if (p.outputMint !== SOL_MINT) ixs.push(createAtaIdempotent(pubkey(p.payer), pubkey(p.receiver), pubkey(p.outputMint)));
  ixs.push(jupiterRoute(pubkey(p.taker), p.inputMint, p.outputMint, inAmount, minOut, p.slippageBps));
  return ixs;
}

/** The one position of `needle` in `hay`, or -1 when absent or ambiguous. */
function uniqueIndex(hay: Buffer, needle: Buffer): number {
  const first = hay.indexOf(needle);
  return first >= 0 && hay.indexOf(needle, first + 1) < 0 ? first : -1;
}

function template(p: SwapTxParams): Template | null {
  const key = `${p.payer}|${p.taker}|${p.receiver}|${p.inputMint}|${p.outputMint}|${p.computeUnits}`;
  if (templates.has(key)) return templates.get(key) ?? null;
  const built = buildV0(pubkey(p.payer), PLACEHOLDER_BLOCKHASH, instructions(p, PLACEHOLDER_PRICE, PLACEHOLDER_IN, PLACEHOLDER_OUT));
  const message = Buffer.from(built.messageBytes);
  const blockhashAt = uniqueIndex(message, Buffer.from(bs58.decode(PLACEHOLDER_BLOCKHASH)));
  const priceAt = uniqueIndex(message, u64(PLACEHOLDER_PRICE));
  const inAt = uniqueIndex(message, u64(PLACEHOLDER_IN));
  const ok = blockhashAt >= 0 && priceAt >= 0 && inAt >= 0 && uniqueIndex(message, u64(PLACEHOLDER_OUT)) === inAt + 8;
  // A v0 message starts with the version byte (0x80), then numRequiredSignatures.
  const t = ok ? { message, signatures: message[1] ?? 1, blockhashAt, priceAt, inAt } : null;
  if (templates.size >= 5_000) templates.clear();
  templates.set(key, t);
  return t;
}

/**
 * The unsigned v0 swap transaction. Compiling a message with web3.js dominates the cost of a quote,
 * and quotes for one wallet and pair differ only in blockhash and amounts, so the compiled message is
 * kept as a template and those fields are written into a copy. Falls back to a full compile.
 */
export function buildSwapTransaction(p: SwapTxParams): BuiltTx {
  const t = template(p);
  if (!t) return buildV0(pubkey(p.payer), p.blockhash, instructions(p, BigInt(p.microLamports), p.inAmount, p.minOut));
  const message = Buffer.from(t.message);
  Buffer.from(bs58.decode(p.blockhash)).copy(message, t.blockhashAt);
  message.writeBigUInt64LE(BigInt(p.microLamports), t.priceAt);
  message.writeBigUInt64LE(p.inAmount, t.inAt);
  message.writeBigUInt64LE(p.minOut, t.inAt + 8);
  message.writeUInt16LE(p.slippageBps, t.inAt + 16);
  // Wire form: shortvec signature count (< 128), zeroed signatures, message.
  const tx = Buffer.concat([Buffer.from([t.signatures]), Buffer.alloc(64 * t.signatures), message]);
  return { base64: tx.toString('base64'), messageBytes: message };
}

