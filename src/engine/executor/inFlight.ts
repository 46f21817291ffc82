/**
 * What became of a signed transaction, decided only from the chain (the Solana retry rule):
 * - its signature has a confirmed status → it landed (with or without a program error);
 * - block height is past its lastValidBlockHeight *and* the signature is absent → it never landed
 *   and never can: the attempt is expired and a new signature becomes safe;
 * - otherwise it may still land: re-send the same bytes, never new ones.
 *
 * Block height is read *before* the status. Read the other way round, the transaction could land in
 * the last valid block between the two reads and be declared expired although it landed.
 */
import type { SignatureStatus, SolanaRpc } from '../../solana/rpc.js';
import type { TransactionFinder } from './transactionId.js';

export type InFlight =
  | { readonly kind: 'landed'; readonly status: SignatureStatus; readonly height: number }
  | { readonly kind: 'landed-failed'; readonly status: SignatureStatus; readonly height: number }
  | { readonly kind: 'expired'; readonly height: number }
  | { readonly kind: 'pending'; readonly height: number; readonly status: SignatureStatus | null };

export async function resolveInFlight(rpc: SolanaRpc, signature: string, lastValidBlockHeight: number): Promise<InFlight> {
  // Finalized: a height no fork can take back, so "past lastValidBlockHeight" is a proof, not a guess.
  const height = await rpc.getBlockHeight('finalized');
  const [status] = await rpc.getSignatureStatuses([signature]);
  if (status) {
    // `processed` can still be rolled back: only a confirmed (or finalized) status settles it.
    if (status.confirmationStatus === 'processed' || status.confirmationStatus === null) return { kind: 'pending', height, status };
    return status.err === null || status.err === undefined ? { kind: 'landed', status, height } : { kind: 'landed-failed', status, height };
  }
  if (height > lastValidBlockHeight) return { kind: 'expired', height };
  return { kind: 'pending', height, status: null };
}

/**
 * The same decision for a transaction whose id we do not know yet (someone signs after us): it has
 * landed when the wallet's history holds a transaction carrying our signature (then its id is the
 * answer), and it is expired when that history does not while block height is past its
 * lastValidBlockHeight. Height first again, for the same reason as above.
 */
export async function resolveUnidentified(
  rpc: SolanaRpc,
  finder: TransactionFinder,
  ours: { readonly signer: string; readonly own: string },
  lastValidBlockHeight: number,
  notBeforeMs: number,
): Promise<{ readonly kind: 'found'; readonly transactionId: string } | Extract<InFlight, { kind: 'expired' | 'pending' }>> {
  const height = await rpc.getBlockHeight('finalized');
  const transactionId = await finder.find(ours.signer, ours.own, notBeforeMs);
  if (transactionId !== null) return { kind: 'found', transactionId };
  return height > lastValidBlockHeight ? { kind: 'expired', height } : { kind: 'pending', height, status: null };
}
