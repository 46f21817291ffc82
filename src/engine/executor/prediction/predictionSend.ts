/**
 * What the prediction handlers share: sending signed bytes (`POST /prediction/v1/execute` with the
 * build's `execution.context`, or the RPC when that context is gone after a restart — both are
 * documented ways to submit), the lifetime of a build's blockhash, and reading the
 * position back to tell "refused for good" from "not now" when a build is refused.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { ExecuteFailedError } from '../../../jupiter/errors.js';
import { executePrediction } from '../../../jupiter/prediction.js';
import { type JupiterClient, Priority } from '../../../jupiter/transport.js';
import type { SignedBase64 } from '../../../solana/guardedSigner.js';
import { BLOCKHASH_VALID_BLOCKS, type SolanaRpc } from '../../../solana/rpc.js';
import type { SignedRecord } from '../../../store/journal.js';
import type { SignedRow, SubmitResult } from '../handler.js';
import { submitOutcome } from '../submitOutcome.js';

/**
 * The `execution.context` of builds this process signed, by signature. Not journaled: after a
 * restart the same bytes go through the RPC instead, which needs no context.
 */
export type ExecutionContexts = Map<string, Record<string, unknown>>;

/** What a send did: `landed` (/execute reports it landed without error), else a result to hand back as is. */
export type SendOutcome = SubmitResult | { readonly kind: 'landed'; readonly signature: string; readonly via: string };

/** Sends the row's bytes unchanged. */
export async function sendSigned(
  client: JupiterClient,
  rpc: SolanaRpc,
  contexts: ExecutionContexts,
  row: SignedRow,
  mode: 'first' | 'resend',
): Promise<SendOutcome> {
  const base64 = Buffer.from(row.signedTx).toString('base64');
  const context = contexts.get(row.signature);
  if (context !== undefined) {
    try {
      // No stop signal: a submission that has started finishes, so its answer is not lost needlessly.
      const answer = await executePrediction(client, { signedTransaction: base64, context }, { priority: Priority.Exit });
      return { kind: 'landed', signature: answer.signature ?? row.signature, via: 'execute' };
    } catch (error) {
      if (error instanceof ExecuteFailedError) {
        // "Failed" with a signature may have landed with a program error: the chain says which.
        // Without one, this call did not land it; the bytes may still land until they expire.
        const data = { via: 'execute', mode, signature: error.signature };
        return error.signature
          ? { kind: 'unknown', code: error.code, message: error.message, data }
          : { kind: 'rejected', code: error.code, message: error.message, data };
      }
      return submitOutcome(error, { mode });
    }
  }
  try {
    const signature = await rpc.sendTransaction(base64, { skipPreflight: false, maxRetries: 0 });
    return {
      kind: 'unknown',
      code: 'SENT_VIA_RPC',
      message: 'sent through RPC sendTransaction (no execution context after a restart)',
      data: { via: 'rpc', mode, signature },
    };
  } catch (error) {
    return submitOutcome(error, { mode });
  }
}

/** The build's lastValidBlockHeight, else now + 150 (an upper bound: waiting longer is safe, expiring early is not). */
export async function lifetimeOf(
  rpc: SolanaRpc,
  bytes: Uint8Array,
  txMeta: { lastValidBlockHeight: number } | null | undefined,
): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
  const blockhash = VersionedTransaction.deserialize(bytes).message.recentBlockhash;
  const lastValidBlockHeight = txMeta ? txMeta.lastValidBlockHeight : (await rpc.getBlockHeight()) + BLOCKHASH_VALID_BLOCKS;
  return { blockhash, lastValidBlockHeight };
}

/** The journal record of a prediction build the guard let through: its bytes, lifetime, and what was built. */
export async function signedBuild(
  rpc: SolanaRpc,
  signed: SignedBase64,
  txMeta: { lastValidBlockHeight: number } | null | undefined,
  build: object,
): Promise<SignedRecord> {
  const bytes = Buffer.from(signed.signed, 'base64');
  return {
    bytes,
    signature: signed.signature,
    ...(await lifetimeOf(rpc, bytes, txMeta)),
    requestId: null,
    data: { build, guard: { programs: signed.summary.programs, priorityFeeLamports: signed.summary.priorityFeeLamports, feePayer: signed.summary.feePayer } },
  };
}
