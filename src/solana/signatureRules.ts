/**
 * Who pays and who signs. Our wallet must be a required signer; the fee payer is our wallet unless
 * the intent allows someone else to pay (a gasless answer's payer, an RFQ maker, Jupiter's
 * prediction payer); every other signer must be one the intent names or a co-signer whose signature
 * is already present. A swap's payer signs at `/execute`, after us, so its slot may still be empty;
 * a prediction order arrives with Jupiter's signatures in place. Every signature already present
 * must verify against the message: we add only our own and never change the message, so a
 * signature that fails now fails on chain, or was made for other bytes.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import type { Expectation } from './expectation.js';
import { GuardRefusal } from './guardRefusal.js';
import type { ResolvedTransaction } from './resolveAccounts.js';

export type SignatureState = 'ours' | 'present' | 'empty';

export interface SignerFacts {
  readonly address: string;
  readonly state: SignatureState;
}

export interface SignatureRuleOptions {
  readonly wallet: string;
  /** Signers named elsewhere in the transaction that may co-sign (the prediction protocol signer). */
  readonly coSigners?: readonly string[] | undefined;
}

/** Reads and verifies the signatures already present. */
export function signerFacts(tx: VersionedTransaction, resolved: ResolvedTransaction, wallet: string): SignerFacts[] {
  const message = tx.message.serialize();
  return resolved.signers.map((address, i) => {
    if (address === wallet) return { address, state: 'ours' };
    const sig = tx.signatures[i];
    if (!sig || sig.every((b) => b === 0)) return { address, state: 'empty' };
    const key = tx.message.staticAccountKeys[i]?.toBytes();
    if (!key || !nacl.sign.detached.verify(message, sig, key)) {
      throw new GuardRefusal('SIGNATURE_INVALID', `the signature already present for ${address} does not verify against this message`, { signer: address });
    }
    return { address, state: 'present' };
  });
}

/** Whether the intent lets someone other than our wallet pay, and who. */
function allowedPayer(expectation: Expectation, feePayer: string, signers: readonly SignerFacts[]): boolean {
  const payer = signers.find((s) => s.address === feePayer);
  switch (expectation.kind) {
    case 'swap':
      if (expectation.rfqMaker !== undefined) return feePayer === expectation.rfqMaker;
      if (expectation.gasless !== true) return false;
      // The payer the answer names (Jupiter's gas wallet, an integrator's `payer`): it signs after us.
      return expectation.feePayer === feePayer && payer !== undefined;
    case 'prediction-sell':
    case 'prediction-partial-sell':
    case 'prediction-claim':
    case 'prediction-buy':
      // Jupiter pays for every prediction order (its payer is not one fixed key): its signature must be there.
      return payer?.state === 'present';
    default:
      return false;
  }
}

export function checkSigners(tx: VersionedTransaction, resolved: ResolvedTransaction, expectation: Expectation, options: SignatureRuleOptions): SignerFacts[] {
  const { wallet } = options;
  const signers = signerFacts(tx, resolved, wallet);
  if (!resolved.signers.includes(wallet))
    throw new GuardRefusal('WALLET_NOT_SIGNER', `our wallet ${wallet} is not a required signer`, { signers: resolved.signers });
  if (expectation.kind === 'swap' && expectation.rfqMaker !== undefined && resolved.feePayer !== wallet && resolved.feePayer !== expectation.rfqMaker) {
    throw new GuardRefusal('RFQ_MAKER_MISMATCH', `the RFQ answer names maker ${expectation.rfqMaker}, the transaction is paid by ${resolved.feePayer}`, {
      maker: expectation.rfqMaker,
      feePayer: resolved.feePayer,
    });
  }
  if (resolved.feePayer !== wallet && !allowedPayer(expectation, resolved.feePayer, signers)) {
    throw new GuardRefusal(
      'FEE_PAYER_MISMATCH',
      `fee payer is ${resolved.feePayer}; this ${expectation.kind} must be paid by our wallet${expectation.kind === 'swap' && expectation.rfqMaker ? ` or the RFQ maker ${expectation.rfqMaker}` : ''}`,
      {
        feePayer: resolved.feePayer,
        expected: wallet,
      },
    );
  }
  const vault = expectation.kind === 'vault-withdrawal' ? expectation.vault : null;
  const coSigners = new Set(options.coSigners ?? []);
  for (const signer of signers) {
    if (signer.state === 'ours' || signer.address === resolved.feePayer) continue;
    if (signer.address === vault) continue;
    // The RFQ maker signs at /execute, after us: its slot is empty now.
    if (expectation.kind === 'swap' && signer.address === expectation.rfqMaker) continue;
    // A co-signer the transaction itself names for its program (the prediction protocol signer) has signed already.
    if (signer.state === 'present' && coSigners.has(signer.address)) continue;
    throw new GuardRefusal(
      'UNEXPECTED_SIGNER',
      `unexpected signer ${signer.address} (${signer.state === 'empty' ? 'its signature would have to come from elsewhere' : 'not named by the intent'})`,
      {
        signer: signer.address,
        signers: resolved.signers,
      },
    );
  }
  return signers;
}
