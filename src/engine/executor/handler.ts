/**
 * The contract between the executor and one kind of intent. The executor owns the write-ahead
 * discipline (journal row first, bytes before sending, same bytes while valid, a new signature only
 * after provable expiry); a handler only knows its API: how to quote and sign, how to submit the
 * signed bytes, and how to read the fills of a landed transaction. Swaps are the first handler
 * (swapHandler.ts); vault and prediction flows plug in as further handlers.
 */
import type { FillInput, IntentRow, SignedRecord } from '../../store/journal.js';

export interface HandlerContext {
  /** Aborted when the executor stops: a handler should not start new calls after it. */
  readonly signal: AbortSignal;
}

/** A journal row that holds signed bytes (states signed and sent). */
export type SignedRow = IntentRow & { readonly signedTx: Uint8Array; readonly signature: string; readonly lastValidBlockHeight: number };

export type SubmitResult =
  /** Landed and succeeded; fills taken from the answer. */
  | { readonly kind: 'confirmed'; readonly data: object; readonly fills: readonly FillInput[] }
  /** Landed and failed on chain (fees paid): final, never retried. */
  | { readonly kind: 'failed'; readonly code: string; readonly message: string; readonly data: object }
  /** The answer is lost or ambiguous (timeout, 5xx, network): the signature decides. */
  | { readonly kind: 'unknown'; readonly code: string; readonly message: string; readonly data: object }
  /** This call did not land it (e.g. Jupiter refused): not final; the bytes may still land until they expire. */
  | { readonly kind: 'rejected'; readonly code: string; readonly message: string; readonly data: object };

export interface LandedReport {
  readonly data: object;
  /** Empty when the amounts cannot be learned any more (then `fillUnknown` explains why). */
  readonly fills: readonly FillInput[];
  readonly fillUnknown?: string | undefined;
}

export interface IntentHandler {
  /** The journal `kind` this handler executes. */
  readonly kind: string;
  /**
   * planned → signed: quote, check risk, guard and sign. Nothing may be sent that changes state.
   * Throw {@link IntentRefusedError} (or a GuardRefusal) to fail the intent for good; any other error
   * leaves it planned, to be tried again.
   */
  prepare(row: IntentRow, context: HandlerContext): Promise<SignedRecord>;
  /** Submits the row's signed bytes, unchanged: the first send, or a re-send while they are valid. */
  submit(row: SignedRow, mode: 'first' | 'resend', context: HandlerContext): Promise<SubmitResult>;
  /** The chain says the signature landed without error: report its fills (exactly once is the journal's job). */
  landed(row: SignedRow, context: HandlerContext): Promise<LandedReport>;
}
