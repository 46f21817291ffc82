/**
 * The one way the daemon signs a transaction: check it with the guard against the intent, record a
 * refusal in the audit log (kind `guard.refused`) and the log, and sign only what was accepted.
 * The wallet itself stays a plain signer, so the rule lives in one place that is easy to audit.
 */
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import { describeExpectation, type Expectation } from './expectation.js';
import { checkTransaction, type GuardOptions, type GuardSummary } from './guard.js';
import { GuardRefusal } from './guardRefusal.js';
import type { Wallet } from './wallet.js';

export interface GuardedSignerOptions extends Omit<GuardOptions, 'wallet'> {
  readonly wallet: Wallet;
  readonly audit?: AuditLog | undefined;
  readonly log?: Logger | undefined;
}

/** Who asked, for the audit row. */
export interface SignContext {
  readonly strategy?: string | null | undefined;
  readonly intentId?: string | null | undefined;
}

export interface GuardedSigner {
  readonly address: string;
  /** Checks `tx`; resolves with the summary, or records the refusal and rethrows it. Does not sign. */
  check(tx: VersionedTransaction, expectation: Expectation, context?: SignContext): Promise<GuardSummary>;
  /** Checks, then adds our signature to `tx` in place. Nothing is signed when the check fails. */
  sign(tx: VersionedTransaction, expectation: Expectation, context?: SignContext): Promise<{ tx: VersionedTransaction; summary: GuardSummary }>;
  /**
   * The same for a base64 transaction as Jupiter hands them out: resolves with the signed base64 and our
   * signature (base58; the transaction id when we pay the fee). Bytes that do not decode are refused.
   */
  signBase64(base64: string, expectation: Expectation, context?: SignContext): Promise<{ signed: string; signature: string; summary: GuardSummary }>;
}

export function createGuardedSigner(options: GuardedSignerOptions): GuardedSigner {
  const { wallet, audit, log, ...guard } = options;
  const address = wallet.address;
  const check = async (tx: VersionedTransaction | string, expectation: Expectation, context: SignContext = {}): Promise<GuardSummary> => {
    try {
      const decoded = typeof tx === 'string' ? VersionedTransaction.deserialize(Buffer.from(tx, 'base64')) : tx;
      return await checkTransaction(decoded, expectation, { ...guard, wallet: address });
    } catch (error) {
      const refusal =
        error instanceof GuardRefusal
          ? error
          : new GuardRefusal('MALFORMED_TRANSACTION', 'the transaction could not be decoded', { cause: error instanceof Error ? error.message : String(error) });
      const data = { reason: refusal.reason, expectation: describeExpectation(expectation), details: refusal.details };
      log?.warn({ code: refusal.code, reason: refusal.reason, intent: expectation.kind, intentId: context.intentId ?? null }, refusal.message);
      audit?.append({ kind: 'guard.refused', strategy: context.strategy ?? null, intentId: context.intentId ?? null, data });
      throw refusal;
    }
  };
  return {
    address,
    check,
    async sign(tx, expectation, context = {}) {
      const summary = await check(tx, expectation, context);
      return { tx: wallet.signTransaction(tx), summary };
    },
    async signBase64(base64, expectation, context = {}) {
      const summary = await check(base64, expectation, context);
      // Decoded again from the same bytes: what is signed is exactly what was checked.
      const tx = wallet.signTransaction(VersionedTransaction.deserialize(Buffer.from(base64, 'base64')));
      const index = tx.message.staticAccountKeys.findIndex((k) => k.toBase58() === address);
      return { signed: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[index] as Uint8Array), summary };
    },
  };
}
