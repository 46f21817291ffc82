/**
 * The one way the daemon signs anything with the hot key: a transaction is checked with the guard
 * against the intent (the static checks, then its effects proven by simulation), a Trigger login
 * message against Jupiter's challenge text; a refusal is recorded in the audit log (kind
 * `guard.refused`) and the log, and only what was accepted is signed. The wallet itself stays a plain
 * signer, so the rule lives in one place that is easy to audit.
 */
import { createHash } from 'node:crypto';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Clock } from '../clock.js';
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import { type EffectsReport, type EffectsRpc, proveEffects } from './effects.js';
import { describeExpectation, type Expectation } from './expectation.js';
import { checkTransaction, type GuardOptions, type GuardSummary } from './guard.js';
import { GuardRefusal, type RefusalReason } from './guardRefusal.js';
import { CHALLENGE_PREFIX, isLoginChallengeText } from './loginChallengeText.js';
import { createLookupTableResolver } from './lookupTables.js';
import { recordRefusal } from './recordRefusal.js';
import { JupbotError } from '../errors.js';
import type { Wallet } from './wallet.js';

export interface GuardedSignerOptions extends Omit<GuardOptions, 'wallet'> {
  readonly wallet: Pick<Wallet, 'address' | 'signMessage' | 'signTransaction'>;
  /**
   * Runs the simulations that prove each transaction's effects. Without it every transaction that
   * would be sent is refused (SIMULATION_UNAVAILABLE); only a login challenge, which is never sent,
   * is signed on the static checks alone.
   */
  readonly effects?: EffectsRpc | undefined;
  readonly audit?: AuditLog | undefined;
  readonly log?: Logger | undefined;
}

/** Who asked, for the audit row. */
export interface SignContext {
  readonly strategy?: string | null | undefined;
  readonly intentId?: string | null | undefined;
  /**
   * Refusals the caller answers itself (a fresh build, a route asked for again without a venue): still
   * audited, logged at info rather than as a warning. Transient refusals are always handled so.
   */
  readonly handles?: readonly RefusalReason[] | undefined;
}

/** An accepted transaction: the static summary plus, for anything that will be sent, its simulated effects. */
export interface CheckedSummary extends GuardSummary {
  readonly effects: EffectsReport | null;
}

export interface SignedBase64 {
  readonly signed: string;
  /**
   * The transaction id as the chain will know it: its first signature. That is ours when we pay,
   * Jupiter's when a gasless payer signed first, and null while the first slot waits for someone
   * who signs after us (an RFQ maker at /execute).
   */
  readonly signature: string;
  readonly transactionId: string | null;
  /** Our own signature. */
  readonly ownSignature: string;
  readonly summary: CheckedSummary;
}

export interface GuardedSigner {
  readonly address: string;
  /** Checks `tx`; resolves with the summary, or records the refusal and rethrows it. Does not sign. */
  check(tx: VersionedTransaction, expectation: Expectation, context?: SignContext): Promise<CheckedSummary>;
  /** Checks, then adds our signature to `tx` in place. Nothing is signed when the check fails. */
  sign(tx: VersionedTransaction, expectation: Expectation, context?: SignContext): Promise<{ tx: VersionedTransaction; summary: CheckedSummary }>;
  /** The same for a base64 transaction as Jupiter hands them out. Bytes that do not decode are refused. */
  signBase64(base64: string, expectation: Expectation, context?: SignContext): Promise<SignedBase64>;
  /**
   * Signs the UTF-8 bytes of a Trigger login message challenge and resolves with the base58 ed25519
   * signature. Any text but Jupiter's challenge text is refused (`LOGIN_TEXT_UNEXPECTED`), recorded
   * like every refusal, and nothing is signed.
   */
  signLoginMessage(text: string): Promise<string>;
}

const isEmpty = (sig: Uint8Array | undefined): boolean => sig === undefined || sig.every((b) => b === 0);

/**
 * The bytes offered are a message this signer signed already (two equal deposits or swaps built in
 * one slot come out identical, and one signature can land only once). Not a refusal: nothing is
 * wrong with the transaction, it only has to be built again once the blockhash is newer.
 */
export class IdenticalBytesError extends JupbotError {
  override name = 'IdenticalBytesError';
  constructor() {
    super(
      'IDENTICAL_BYTES',
      'this transaction is byte for byte one already signed (an equal intent built in the same slot): build it again with a newer blockhash',
    );
  }
}

/** Messages signed lately, remembered so the same one is never signed for two intents. */
const REMEMBERED = 1_000;

/** The guard alone: what a rehearsal holds in place of a signer (it can only judge). */
export interface TransactionGuard {
  readonly address: string;
  /** Checks `tx`; resolves with the summary, or records the refusal and rethrows it. Signs nothing. */
  check(tx: VersionedTransaction | string, expectation: Expectation, context?: SignContext): Promise<CheckedSummary>;
}

export interface TransactionGuardOptions extends Omit<GuardedSignerOptions, 'wallet'> {
  /** The wallet the transactions are judged for (its address only). */
  readonly address: string;
}

/**
 * The static checks, then the effects proven by simulation; a refusal is logged and recorded in the
 * audit log (kind `guard.refused`) before it is rethrown.
 */
export function createTransactionGuard(options: TransactionGuardOptions): TransactionGuard {
  const { address, audit, log, effects, ...guard } = options;
  const check = async (tx: VersionedTransaction | string, expectation: Expectation, context: SignContext = {}): Promise<CheckedSummary> => {
    try {
      const decoded = typeof tx === 'string' ? VersionedTransaction.deserialize(Buffer.from(tx, 'base64')) : tx;
      const summary = await checkTransaction(decoded, expectation, { ...guard, wallet: address });
      // A login challenge is signed to prove the key, never sent: there is nothing to simulate.
      if (expectation.kind === 'login-challenge') return { ...summary, effects: null };
      if (!effects) throw new GuardRefusal('SIMULATION_UNAVAILABLE', 'no RPC to simulate the transaction with: its effects cannot be proven', {});
      return { ...summary, effects: await proveEffects(decoded, expectation, summary, { wallet: address, rpc: effects }) };
    } catch (error) {
      const refusal =
        error instanceof GuardRefusal
          ? error
          : new GuardRefusal('MALFORMED_TRANSACTION', 'the transaction could not be decoded', {
              cause: error instanceof Error ? error.message : String(error),
            });
      recordRefusal(
        { audit, log },
        { refusal, what: `the ${expectation.kind} transaction`, expectation: { ...describeExpectation(expectation), kind: expectation.kind }, ...context },
      );
      throw refusal;
    }
  };
  return { address, check };
}

export function createGuardedSigner(options: GuardedSignerOptions): GuardedSigner {
  const { wallet, ...guardOptions } = options;
  const { audit, log } = options;
  const address = wallet.address;
  const signedMessages = new Set<string>();
  const remember = (key: string): void => {
    signedMessages.add(key);
    if (signedMessages.size > REMEMBERED) signedMessages.delete(signedMessages.values().next().value as string);
  };
  const guard = createTransactionGuard({ ...guardOptions, address });
  const check = (tx: VersionedTransaction | string, expectation: Expectation, context?: SignContext): Promise<CheckedSummary> =>
    guard.check(tx, expectation, context);
  return {
    address,
    check,
    async sign(tx, expectation, context = {}) {
      const key = messageKey(tx);
      if (signedMessages.has(key)) throw new IdenticalBytesError();
      const summary = await check(tx, expectation, context);
      remember(key);
      return { tx: wallet.signTransaction(tx), summary };
    },
    async signBase64(base64, expectation, context = {}) {
      // Before the guard: bytes signed already would only be refused as landed (or land twice).
      const key = messageKeyOf(base64);
      if (key !== null && signedMessages.has(key)) throw new IdenticalBytesError();
      const summary = await check(base64, expectation, context);
      if (key !== null) remember(key);
      // Decoded again from the same bytes: what is signed is exactly what was checked.
      const tx = wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(base64, 'base64')));
      const index = tx.message.staticAccountKeys.findIndex((k) => k.toBase58() === address);
      const ownSignature = bs58.encode(tx.signatures[index] as Uint8Array);
      const first = tx.signatures[0];
      const transactionId = isEmpty(first) ? null : bs58.encode(first as Uint8Array);
      return { signed: Buffer.from(tx.serialize()).toString('base64'), signature: transactionId ?? ownSignature, transactionId, ownSignature, summary };
    },
    signLoginMessage(text) {
      if (!isLoginChallengeText(text)) {
        // Public data only: how the text starts (cut short, it may be long) and its length.
        const refusal = new GuardRefusal('LOGIN_TEXT_UNEXPECTED', `the login message is not the expected "${CHALLENGE_PREFIX.trim()} …" text`, {
          start: text.slice(0, 60),
          length: text.length,
        });
        recordRefusal({ audit, log }, { refusal, what: 'the Trigger login message', expectation: { kind: 'login-message' }, fails: 'the login' });
        return Promise.reject(refusal);
      }
      return Promise.resolve(bs58.encode(wallet.signMessage(new TextEncoder().encode(text))));
    },
  };
}

function messageKey(tx: VersionedTransaction): string {
  return createHash('sha256').update(tx.message.serialize()).digest('hex');
}

/** The message key of base64 wire bytes, or null when they do not decode (the guard then says why). */
function messageKeyOf(base64: string): string | null {
  try {
    return messageKey(VersionedTransaction.deserialize(Buffer.from(base64, 'base64')));
  } catch {
    return null;
  }
}

/**
 * The guarded signer as the daemon runs it: lookup tables resolved and effects simulated through one
 * RPC node (the simulator's in paper mode and in tests, `rpc.url` live).
 */
export function createRpcGuardedSigner(
  options: Omit<GuardedSignerOptions, 'effects' | 'resolveLookupTable'> & { readonly rpc: EffectsRpc; readonly clock: Clock },
): GuardedSigner {
  const { rpc, clock, ...rest } = options;
  return createGuardedSigner({ ...rest, effects: rpc, resolveLookupTable: createLookupTableResolver({ rpc, clock }) });
}

/** The guard alone, as a rehearsal runs it: the same lookup tables and simulations as the signer's. */
export function createRpcTransactionGuard(
  options: Omit<TransactionGuardOptions, 'effects' | 'resolveLookupTable'> & { readonly rpc: EffectsRpc; readonly clock: Clock },
): TransactionGuard {
  const { rpc, clock, ...rest } = options;
  return createTransactionGuard({ ...rest, effects: rpc, resolveLookupTable: createLookupTableResolver({ rpc, clock }) });
}
