import { createHash } from 'node:crypto';
import type { PublicKey } from '@solana/web3.js';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { LandedHistory } from './landedHistory.js';
import { InsufficientBalance, SystemWallet, type Ledger } from './ledger.js';
import { SOL_MINT } from './programIds.js';

/** Solana's slot time is ~400 ms; block height advances with it. */
export const BLOCK_MS = 400;
/** A blockhash is valid for 150 blocks after the one it names (≈ 60 s). */
export const BLOCKHASH_VALID_BLOCKS = 150;
/** Blocks after landing until a signature counts as finalized. */
const FINALITY_BLOCKS = 32;
const BASE_HEIGHT = 310_000_000;
const SLOT_OFFSET = 12_345_678;
export const SIGNATURE_FEE_LAMPORTS = 5_000n;
/** The simulation error for bytes that have landed already (the RPC answers `AlreadyProcessed`). */
export const ALREADY_PROCESSED = -1;

/** One ledger transfer, as a simulation reports it. */
export interface Move {
  readonly from: string;
  readonly to: string;
  readonly mint: string;
  readonly amount: bigint;
}

/** What a signed transaction asks the world to do. The ledger change lives here, not in its instructions. */
export interface Intent {
  readonly kind: string;
  /** Applies the change; throws {@link ChainFailure} for an on-chain failure (fee still charged). */
  apply(signature: string): unknown;
  /**
   * The ledger transfers `apply` would make now, without making them (simulateTransaction). Throws
   * {@link ChainFailure} where `apply` would. Every intent a client can simulate has one.
   */
  preview?(): readonly Move[];
  /** Extra lamports the fee payer pays (priority fees), besides signature fees. */
  readonly priorityLamports?: bigint;
}

/** A landed transaction whose program failed (the fee is still paid, nothing else happens). */
export class ChainFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Why a transaction could not even land (bad signature, stale blockhash, unknown bytes). */
export class Rejection extends Error {
  constructor(
    readonly reason: 'decode' | 'signature' | 'unsigned' | 'blockhash' | 'unknown' | 'fee',
    message: string,
  ) {
    super(message);
  }
}

export interface Landed {
  readonly signature: string;
  readonly slot: number;
  readonly height: number;
  readonly err: { code: number; message: string } | null;
  readonly result: unknown;
  /** True when these bytes had already landed: nothing was applied again. */
  readonly replay: boolean;
}

export interface DecodedTx {
  readonly tx: VersionedTransaction;
  readonly messageBytes: Uint8Array;
  readonly messageKey: string;
}

export function decodeTransaction(base64: string): DecodedTx {
  let tx: VersionedTransaction;
  try {
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0) throw new Error('empty');
    tx = VersionedTransaction.deserialize(bytes);
  } catch {
    throw new Rejection('decode', 'failed to deserialize transaction');
  }
  const messageBytes = tx.message.serialize();
  return { tx, messageBytes, messageKey: messageKeyOf(messageBytes) };
}

export function messageKeyOf(messageBytes: Uint8Array): string {
  return createHash('sha256').update(messageBytes).digest('hex');
}

/** Verification results per decoded transaction: tweetnacl takes milliseconds per check, and a
 * transaction is looked at more than once on its way in (route check, then landing). */
const verified = new WeakMap<DecodedTx, Map<number, boolean>>();

function signatureAt(decoded: DecodedTx, index: number): 'missing' | 'valid' | 'invalid' {
  const sig = decoded.tx.signatures[index];
  if (!sig || sig.every((b) => b === 0)) return 'missing';
  let cache = verified.get(decoded);
  if (!cache) {
    cache = new Map();
    verified.set(decoded, cache);
  }
  let ok = cache.get(index);
  if (ok === undefined) {
    const key = decoded.tx.message.staticAccountKeys[index] as PublicKey;
    ok = nacl.sign.detached.verify(decoded.messageBytes, sig, key.toBytes());
    cache.set(index, ok);
  }
  return ok ? 'valid' : 'invalid';
}

/** Checks that `signer` signed exactly these message bytes (false if absent or wrong). */
export function hasValidSignature(decoded: DecodedTx, signer: string): boolean {
  const index = decoded.tx.message.staticAccountKeys.findIndex((k) => k.toBase58() === signer);
  if (index < 0 || index >= decoded.tx.message.header.numRequiredSignatures) return false;
  return signatureAt(decoded, index) === 'valid';
}

/** All required signatures present and valid. */
export function fullySigned(decoded: DecodedTx, trusted: readonly string[] = []): 'ok' | 'missing' | 'invalid' {
  const { tx } = decoded;
  for (let i = 0; i < tx.message.header.numRequiredSignatures; i++) {
    // Signers the simulator itself stands for (Jupiter's gas wallet, a Privy vault) co-sign on landing.
    if (trusted.includes((tx.message.staticAccountKeys[i] as PublicKey).toBase58())) continue;
    const state = signatureAt(decoded, i);
    if (state === 'missing') return 'missing';
    if (state === 'invalid') return 'invalid';
  }
  return 'ok';
}

/**
 * Block height, blockhashes and landed signatures. Heights follow the injected clock; blockhashes
 * are derived from the seed and the height, so they are stable across runs and expire by height.
 */
export class Chain {
  readonly #hashToHeight = new Map<string, number>();
  readonly #intents = new Map<string, Intent>();
  readonly #landed = new Map<string, Landed>();
  readonly #landedByMessage = new Map<string, string>();
  /** Effects of bytes another service lands (Trigger deposits and withdrawals), for simulation only. */
  readonly #previews = new Map<string, { moves: () => readonly Move[]; priorityLamports: bigint }>();
  #latest: { height: number; blockhash: string } | undefined;
  /** The last slot handed out and the ledger state (its entry count) it names. */
  #bank = { slot: 0, entries: -1 };
  /** Landed transactions as a node's history serves them. */
  readonly history = new LandedHistory();

  constructor(
    private readonly seed: string,
    private readonly genesisMs: number,
    private readonly now: () => number,
    private readonly ledger: Ledger,
  ) {}

  height(): number {
    return BASE_HEIGHT + Math.floor((this.now() - this.genesisMs) / BLOCK_MS);
  }

  /**
   * The slot a read or a landing is at. It follows the clock, and a slot names one state of the
   * ledger, as a bank does: once a slot has been handed out, a change to the ledger moves on to a
   * later one (the next slot, if the clock has not got there yet). So two answers with the same
   * `context.slot` saw the same balances, and a transfer landing between two reads shows as a slot
   * that moved, as it does on a real node.
   */
  slot(): number {
    const clockSlot = this.height() + SLOT_OFFSET;
    const entries = this.ledger.entryCount;
    if (entries !== this.#bank.entries) this.#bank = { slot: Math.max(clockSlot, this.#bank.slot + 1), entries };
    else if (clockSlot > this.#bank.slot) this.#bank = { slot: clockSlot, entries };
    return this.#bank.slot;
  }

  /** The current blockhash and the last height at which it is accepted. */
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const height = this.height();
    if (this.#latest?.height !== height) {
      const blockhash = bs58.encode(createHash('sha256').update(`${this.seed}:blockhash:${height}`).digest());
      this.#hashToHeight.set(blockhash, height);
      this.#latest = { height, blockhash };
      // Forget hashes nobody can use any more, so weeks of paper trading keep memory flat.
      if (this.#hashToHeight.size > 2_000) {
        for (const [hash, h] of this.#hashToHeight) if (h + BLOCKHASH_VALID_BLOCKS < height) this.#hashToHeight.delete(hash);
      }
    }
    return { blockhash: this.#latest.blockhash, lastValidBlockHeight: height + BLOCKHASH_VALID_BLOCKS };
  }

  blockhashValid(blockhash: string): boolean {
    const issued = this.#hashToHeight.get(blockhash);
    return issued !== undefined && this.height() <= issued + BLOCKHASH_VALID_BLOCKS;
  }

  /** Remembers what the transaction with these message bytes will do once signed and sent. */
  registerIntent(messageBytes: Uint8Array, intent: Intent): string {
    const key = messageKeyOf(messageBytes);
    this.#intents.set(key, intent);
    return key;
  }

  /** Registers what landing these bytes would move, for bytes whose intent is given only when they land. */
  registerPreview(messageBytes: Uint8Array, moves: () => readonly Move[], priorityLamports = 0n): void {
    if (this.#previews.size >= 10_000) this.#previews.clear();
    this.#previews.set(messageKeyOf(messageBytes), { moves, priorityLamports });
  }

  /**
   * What landing these bytes would do, applied to nothing: the fee payer's fee, then the intent's
   * transfers. Signatures are not checked (a simulation is asked before signing). Throws
   * {@link Rejection} where landing would be refused outright.
   */
  simulate(decoded: DecodedTx, fallback?: Intent): { moves: Move[]; err: { code: number; message: string } | null } {
    if (this.landedFor(decoded.messageKey)) return { moves: [], err: { code: ALREADY_PROCESSED, message: 'This transaction has already been processed' } };
    if (!this.blockhashValid(decoded.tx.message.recentBlockhash)) throw new Rejection('blockhash', 'Blockhash not found');
    const intent = this.#intents.get(decoded.messageKey) ?? fallback;
    const preview = intent?.preview
      ? { moves: () => (intent.preview as () => readonly Move[])(), priorityLamports: intent.priorityLamports ?? 0n }
      : this.#previews.get(decoded.messageKey);
    if (!preview) throw new Rejection('unknown', 'transaction not recognised by the simulator');
    const feePayer = (decoded.tx.message.staticAccountKeys[0] as PublicKey).toBase58();
    const fee = SIGNATURE_FEE_LAMPORTS * BigInt(decoded.tx.message.header.numRequiredSignatures) + preview.priorityLamports;
    if (this.ledger.balance(feePayer, SOL_MINT) < fee) throw new Rejection('fee', 'Attempt to debit an account but found no record of a prior credit.');
    const feeMove: Move = { from: feePayer, to: SystemWallet.fees, mint: SOL_MINT, amount: fee };
    let moves: readonly Move[];
    try {
      moves = preview.moves();
    } catch (error) {
      if (error instanceof ChainFailure) return { moves: [feeMove], err: { code: error.code, message: error.message } };
      if (error instanceof InsufficientBalance) return { moves: [feeMove], err: { code: 1, message: 'custom program error: 0x1 (insufficient funds)' } };
      throw error;
    }
    // Each debit, in order, against what the account holds by then.
    const held = new Map<string, bigint>();
    const balance = (wallet: string, mint: string): bigint => held.get(`${wallet}\u0000${mint}`) ?? this.ledger.balance(wallet, mint);
    for (const m of [feeMove, ...moves]) {
      const have = balance(m.from, m.mint);
      if (have < m.amount) return { moves: [feeMove], err: { code: 1, message: 'custom program error: 0x1 (insufficient funds)' } };
      held.set(`${m.from}\u0000${m.mint}`, have - m.amount);
      held.set(`${m.to}\u0000${m.mint}`, balance(m.to, m.mint) + m.amount);
    }
    return { moves: [feeMove, ...moves], err: null };
  }

  /** Gives the bytes `tampered` the effect registered for `genuine` (the hostile-answer fault). */
  aliasIntent(genuine: Uint8Array, tampered: Uint8Array): void {
    const intent = this.#intents.get(messageKeyOf(genuine));
    if (intent) this.#intents.set(messageKeyOf(tampered), intent);
    const preview = this.#previews.get(messageKeyOf(genuine));
    if (preview) this.#previews.set(messageKeyOf(tampered), preview);
  }

  /**
   * Makes the bytes' effect take `extra` besides what they say: a program inside the transaction
   * (a venue of a route) that moves more than its instruction shows (the hostile `venue-drain`
   * fault). The bytes stay as they are; simulating or landing them moves `extra` too. False when
   * nothing is registered for them.
   */
  addEffect(messageBytes: Uint8Array, extra: Move): boolean {
    const key = messageKeyOf(messageBytes);
    const intent = this.#intents.get(key);
    if (!intent?.preview) return false;
    const ledger = this.ledger;
    this.#intents.set(key, {
      kind: intent.kind,
      ...(intent.priorityLamports === undefined ? {} : { priorityLamports: intent.priorityLamports }),
      preview: () => [...(intent.preview?.() ?? []), extra],
      apply(signature) {
        const result = intent.apply(signature);
        ledger.transfer(extra.from, extra.to, extra.mint, extra.amount, 'drain', signature);
        return result;
      },
    });
    return true;
  }

  /** Forgets an intent that can no longer land (its build was superseded). */
  dropIntent(messageKey: string): void {
    this.#intents.delete(messageKey);
  }

  /** True when these bytes are known: an intent is waiting for them or they already landed. */
  knows(messageKey: string): boolean {
    return this.#intents.has(messageKey) || this.#landedByMessage.has(messageKey);
  }

  landedFor(messageKey: string): Landed | undefined {
    const sig = this.#landedByMessage.get(messageKey);
    return sig === undefined ? undefined : this.#landed.get(sig);
  }

  status(signature: string): { slot: number; confirmations: number | null; err: unknown; confirmationStatus: string } | null {
    const landed = this.#landed.get(signature);
    if (!landed) return null;
    const depth = this.height() - landed.height;
    const finalized = depth >= FINALITY_BLOCKS;
    return {
      slot: landed.slot,
      confirmations: finalized ? null : depth,
      err: landed.err ? { InstructionError: [0, { Custom: landed.err.code }] } : null,
      confirmationStatus: finalized ? 'finalized' : 'confirmed',
    };
  }

  /**
   * Lands a signed transaction: every signature valid, blockhash alive, bytes known. The intent runs
   * once; the same bytes again return the first result with `replay: true`.
   */
  land(decoded: DecodedTx, options: { intent?: Intent; trustedSigners?: readonly string[] } = {}): Landed {
    // Signatures first: a replay must carry the same valid signatures, not merely the same message.
    const signed = fullySigned(decoded, options.trustedSigners);
    if (signed === 'missing') throw new Rejection('unsigned', 'transaction is not fully signed');
    if (signed === 'invalid') throw new Rejection('signature', 'signature verification failed');
    const previous = this.landedFor(decoded.messageKey);
    if (previous) return { ...previous, replay: true };
    const intent = options.intent ?? this.#intents.get(decoded.messageKey);
    if (!intent) throw new Rejection('unknown', 'transaction not recognised by the simulator');
    if (!this.blockhashValid(decoded.tx.message.recentBlockhash)) throw new Rejection('blockhash', 'Blockhash not found');
    // The first signature names the transaction; a trusted fee payer's slot may still be empty.
    const first = decoded.tx.signatures.find((s) => s.some((b) => b !== 0)) ?? decoded.tx.signatures[0] ?? new Uint8Array(64);
    const signature = bs58.encode(first);
    const feePayer = (decoded.tx.message.staticAccountKeys[0] as PublicKey).toBase58();
    const fee = SIGNATURE_FEE_LAMPORTS * BigInt(decoded.tx.message.header.numRequiredSignatures) + (intent.priorityLamports ?? 0n);
    const firstEntry = this.ledger.entryCount;
    try {
      this.ledger.transfer(feePayer, SystemWallet.fees, SOL_MINT, fee, 'network-fee', signature);
    } catch (error) {
      if (error instanceof InsufficientBalance) throw new Rejection('fee', 'Attempt to debit an account but found no record of a prior credit.');
      throw error;
    }
    let err: Landed['err'] = null;
    let result: unknown = null;
    try {
      result = intent.apply(signature);
    } catch (error) {
      if (error instanceof ChainFailure) err = { code: error.code, message: error.message };
      else if (error instanceof InsufficientBalance) err = { code: 1, message: 'custom program error: 0x1 (insufficient funds)' };
      else throw error;
    }
    const landed: Landed = { signature, slot: this.slot(), height: this.height(), err, result, replay: false };
    this.history.record(
      { signature, slot: landed.slot, blockTime: Math.floor(this.now() / 1000), tx: decoded.tx, err, fee },
      this.ledger.entries().slice(firstEntry),
      decoded.tx.message.staticAccountKeys.map((k) => k.toBase58()),
    );
    this.#landed.set(signature, landed);
    this.#landedByMessage.set(decoded.messageKey, signature);
    this.#intents.delete(decoded.messageKey);
    return landed;
  }
}
