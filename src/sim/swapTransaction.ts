/**
 * The unsigned v0 swap transaction, in the shape Jupiter's /order hands out: two Compute Budget
 * instructions; for SOL input a wrap (idempotent wSOL account, System transfer, SyncNative); an
 * idempotent creation of the output account; the Aggregator v6 route (jupiterRoutes.ts: `route_v2`
 * or `shared_accounts_route_v2` by default, Jupiter's fee inside it) with the venues' accounts
 * behind a lookup table; for SOL in or out a closing unwrap; and, when Jupiter's gas wallet pays
 * (gasless), a final System transfer of the declared fees from the taker back to it. Nobody has
 * signed it: a gasless payer signs at /execute, after the taker.
 */
import { createHash } from 'node:crypto';
import type { AddressLookupTableAccount, PublicKey } from '@solana/web3.js';
import { SystemProgram } from '@solana/web3.js';
import bs58 from 'bs58';
import { jupiterRouteInstruction, programAuthority, type RouteForm, type RoutePlanStep } from './jupiterRoutes.js';
import { associatedTokenAddress, pubkey, SOL_MINT } from './programIds.js';
import { buildV0, closeAccount, computeBudget, createAtaIdempotent, syncNative, type BuiltTx } from './txBuilder.js';

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
  readonly quotedOut: bigint;
  readonly slippageBps: number;
  readonly form: RouteForm;
  /** The shared forms' program-authority id. */
  readonly sharedId: number;
  /** The plan's steps (venue variants and their field bytes) and the venues' accounts (loaded through `tables`). */
  readonly steps: readonly RoutePlanStep[];
  readonly venueAccounts: readonly PublicKey[];
  readonly tables: readonly AddressLookupTableAccount[];
  /** The fee inside the route (basis points): Jupiter's, or a referral's in the older forms. */
  readonly feeBps: number;
  /** The older forms' fee account (a referral's, or Jupiter's); null for none. */
  readonly feeAccount: string | null;
  /** Lamports the taker pays back to a gasless payer (0 when the taker pays). */
  readonly feeRefund: bigint;
}

// Distinctive placeholder values: compiled once, found in the bytes, overwritten per quote.
const PLACEHOLDER_BLOCKHASH = bs58.encode(createHash('sha256').update('jupbot-sim:placeholder-blockhash').digest());
const PLACEHOLDER_PRICE = 0x3c5a17e9d2b4f681n;
const PLACEHOLDER_IN = 0x5a17c3e9d2b4f681n;
const PLACEHOLDER_OUT = 0x6b28d4fae3c50792n;
const PLACEHOLDER_WRAP = 0x7c39e50bf4d61803n;

interface Template {
  readonly message: Buffer;
  readonly signatures: number;
  readonly blockhashAt: number;
  readonly priceAt: number;
  readonly inAt: number;
  readonly wrapAt: number;
}

const templates = new Map<string, Template | null>();

function u64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return b;
}

function instructions(p: SwapTxParams, microLamports: bigint, inAmount: bigint, quotedOut: bigint, wrap: bigint): ReturnType<typeof computeBudget> {
  const ixs = computeBudget(p.computeUnits, 0);
  // computeBudget takes a number; write the (placeholder) u64 price directly.
  ixs[1]?.data.writeBigUInt64LE(microLamports, 1);
  const payer = pubkey(p.payer);
  const taker = pubkey(p.taker);
  const input = pubkey(p.inputMint);
  const output = pubkey(p.outputMint);
  const wsol = associatedTokenAddress(taker, pubkey(SOL_MINT));
  if (p.inputMint === SOL_MINT)
    ixs.push(createAtaIdempotent(payer, taker, input), SystemProgram.transfer({ fromPubkey: taker, toPubkey: wsol, lamports: wrap }), syncNative(wsol));
  ixs.push(createAtaIdempotent(payer, taker, output));
  const receiver = p.receiver === p.taker ? null : associatedTokenAddress(pubkey(p.receiver), output);
  if (receiver !== null) ixs.push(createAtaIdempotent(payer, pubkey(p.receiver), output));
  const authority = programAuthority(p.sharedId);
  ixs.push(
    jupiterRouteInstruction({
      form: p.form,
      taker,
      source: associatedTokenAddress(taker, input),
      userDestination: associatedTokenAddress(taker, output),
      destination: receiver,
      sourceMint: input,
      destinationMint: output,
      sharedId: p.sharedId,
      programSource: associatedTokenAddress(authority, input),
      programDestination: associatedTokenAddress(authority, output),
      feeAccount: p.feeAccount === null ? null : pubkey(p.feeAccount),
      steps: p.steps,
      inAmount,
      quotedOut,
      slippageBps: p.slippageBps,
      feeBps: p.feeBps,
      positiveSlippageBps: 0,
      venues: p.venueAccounts,
    }),
  );
  if (p.inputMint === SOL_MINT || p.outputMint === SOL_MINT) ixs.push(closeAccount(wsol, taker, taker));
  if (p.feeRefund > 0n) ixs.push(SystemProgram.transfer({ fromPubkey: taker, toPubkey: payer, lamports: p.feeRefund }));
  return ixs;
}

/** The one position of `needle` in `hay`, or -1 when absent or ambiguous. */
function uniqueIndex(hay: Buffer, needle: Buffer): number {
  const first = hay.indexOf(needle);
  return first >= 0 && hay.indexOf(needle, first + 1) < 0 ? first : -1;
}

function template(p: SwapTxParams): Template | null {
  const key = [
    p.payer,
    p.taker,
    p.receiver,
    p.inputMint,
    p.outputMint,
    p.computeUnits,
    p.slippageBps,
    p.form,
    p.sharedId,
    ...p.steps.map((step) => `${step.variant}:${step.fields.join('.')}:${step.bps}:${step.inputIndex}:${step.outputIndex}`),
    p.feeAccount ?? '',
    p.feeBps,
    p.feeRefund,
    ...p.tables.map((t) => `${t.key.toBase58()}:${t.state.addresses.length}`),
  ].join('|');
  if (templates.has(key)) return templates.get(key) ?? null;
  const built = buildV0(
    pubkey(p.payer),
    PLACEHOLDER_BLOCKHASH,
    instructions(p, PLACEHOLDER_PRICE, PLACEHOLDER_IN, PLACEHOLDER_OUT, PLACEHOLDER_WRAP),
    p.tables,
  );
  const message = Buffer.from(built.messageBytes);
  const blockhashAt = uniqueIndex(message, Buffer.from(bs58.decode(PLACEHOLDER_BLOCKHASH)));
  const priceAt = uniqueIndex(message, u64(PLACEHOLDER_PRICE));
  const inAt = uniqueIndex(message, u64(PLACEHOLDER_IN));
  const wrapAt = p.inputMint === SOL_MINT ? uniqueIndex(message, u64(PLACEHOLDER_WRAP)) : -2;
  const ok = blockhashAt >= 0 && priceAt >= 0 && inAt >= 0 && wrapAt !== -1 && uniqueIndex(message, u64(PLACEHOLDER_OUT)) === inAt + 8;
  // A v0 message starts with the version byte (0x80), then numRequiredSignatures.
  const t = ok ? { message, signatures: message[1] ?? 1, blockhashAt, priceAt, inAt, wrapAt } : null;
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
  if (!t) return compileSwapTransaction(p);
  const message = Buffer.from(t.message);
  Buffer.from(bs58.decode(p.blockhash)).copy(message, t.blockhashAt);
  message.writeBigUInt64LE(BigInt(p.microLamports), t.priceAt);
  message.writeBigUInt64LE(p.inAmount, t.inAt);
  message.writeBigUInt64LE(p.quotedOut, t.inAt + 8);
  if (t.wrapAt >= 0) message.writeBigUInt64LE(p.inAmount, t.wrapAt);
  // Wire form: shortvec signature count (< 128), zeroed signatures, message.
  const tx = Buffer.concat([Buffer.from([t.signatures]), Buffer.alloc(64 * t.signatures), message]);
  return { base64: tx.toString('base64'), messageBytes: message };
}

/** The same transaction compiled from scratch (the templates' reference). */
export function compileSwapTransaction(p: SwapTxParams): BuiltTx {
  return buildV0(pubkey(p.payer), p.blockhash, instructions(p, BigInt(p.microLamports), p.inAmount, p.quotedOut, p.inAmount), p.tables);
}
