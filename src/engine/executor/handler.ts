/**
 * The contract between the executor and one kind of intent. The executor owns the write-ahead
 * discipline (journal row first, bytes before sending, same bytes while valid, a new signature only
 * after provable expiry); a handler only knows its API. Two shapes:
 *
 * - a {@link SigningHandler} (swaps, vault deposits and withdrawals): how to quote and sign, how to
 *   submit the signed bytes, and how to read the fills of a landed transaction;
 * - a {@link CallHandler} (e.g. `PATCH` of a vault order): one HTTP call that moves no funds and
 *   needs no signature. The row goes planned → sent (journaled BEFORE the call) → confirmed | failed;
 *   a row left `sent` (a crash, a lost answer) is settled by asking the API what happened, and the
 *   call is only made again when the handler says repeating it is harmless.
 */
import type { ErrorCode } from '../../errorCatalogue.js';
import type { FillInput, IntentRow, PlanInput, SignedRecord } from '../../store/journal.js';

export interface HandlerContext {
  /** Aborted when the executor stops: a handler should not start new calls after it. */
  readonly signal: AbortSignal;
  /** Journals (and audits) a step of this intent that changes no state, e.g. a quote asked for again. */
  readonly note?: ((kind: string, data: object) => void) | undefined;
}

/** A journal row that holds signed bytes (states signed and sent). */
export type SignedRow = IntentRow & { readonly signedTx: Uint8Array; readonly signature: string; readonly lastValidBlockHeight: number };

/**
 * What a confirmed intent hands on: the journal plans this intent in the same transaction that
 * confirms the current one (a renewal's replacement after its cancel), so no instant exists where
 * the first is done and the second is not journaled. The executor then drives it like any other.
 */
export interface Successor {
  readonly successor?: PlanInput | undefined;
}

/** The chain's id of the transaction, when the answer names it and we could not know it at signing. */
export interface Identified {
  readonly transactionId?: string | undefined;
}

export type SubmitResult =
  /** Landed and succeeded; fills taken from the answer. */
  | ({ readonly kind: 'confirmed'; readonly data: object; readonly fills: readonly FillInput[] } & Successor & Identified)
  /** Landed and failed on chain (fees paid): final, never retried. */
  | ({ readonly kind: 'failed'; readonly code: ErrorCode; readonly message: string; readonly data: object } & Identified)
  /** The answer is lost or ambiguous (timeout, 5xx, network): the signature decides. */
  | { readonly kind: 'unknown'; readonly code: ErrorCode; readonly message: string; readonly data: object }
  /** This call did not land it (e.g. Jupiter refused): not final; the bytes may still land until they expire. */
  | { readonly kind: 'rejected'; readonly code: ErrorCode; readonly message: string; readonly data: object };

export interface LandedReport extends Successor, Identified {
  readonly data: object;
  /** Empty when the amounts cannot be learned any more (then `fillUnknown` explains why). */
  readonly fills: readonly FillInput[];
  readonly fillUnknown?: string | undefined;
}

export interface SigningHandler {
  /** The journal `kind` this handler executes. */
  readonly kind: string;
  /**
   * planned → signed: quote, check risk, guard and sign. Nothing may be sent that changes state.
   * Throw {@link IntentRefusedError} (or a GuardRefusal) to fail the intent for good; any other error
   * leaves it planned, to be tried again.
   */
  prepare(row: IntentRow, context: HandlerContext): Promise<SignedRecord>;
  /**
   * A back-off: the instant (epoch ms) before which a `planned` row is not prepared again, or null for
   * now. Until then the executor leaves the row as it is and writes nothing, so waiting does not fill
   * the audit log. Optional: without it a planned row is prepared at every drive.
   */
  notBefore?(row: IntentRow): number | null;
  /** Submits the row's signed bytes, unchanged: the first send, or a re-send while they are valid. */
  submit(row: SignedRow, mode: 'first' | 'resend', context: HandlerContext): Promise<SubmitResult>;
  /** The chain says the signature landed without error: report its fills (exactly once is the journal's job). */
  landed(row: SignedRow, context: HandlerContext): Promise<LandedReport>;
}

export type CallResult =
  /** The call took effect (its answer, or the API's state, shows it). */
  | ({ readonly kind: 'confirmed'; readonly data: object; readonly fills?: readonly FillInput[] | undefined } & Successor)
  /** It did not and will not (a 4xx: the order is not open, the params are refused): final. */
  | { readonly kind: 'failed'; readonly code: ErrorCode; readonly message: string; readonly data: object }
  /** The answer is lost or ambiguous (timeout, 5xx, network, 429): the row stays `sent`; the next pass settles it. */
  | { readonly kind: 'unknown'; readonly code: ErrorCode; readonly message: string; readonly data: object };

/** What a `sent` call row turned out to be; `repeat`: not visible, and calling again is harmless. */
export type SettleResult = CallResult | { readonly kind: 'repeat'; readonly reason: string };

export interface CallHandler {
  /** The journal `kind` this handler executes. */
  readonly kind: string;
  /**
   * The call itself; the row is already `sent` in the journal. Throw {@link IntentRefusedError} only
   * for params that can never work (nothing sent); any other throw counts as an unknown outcome.
   */
  call(row: IntentRow, context: HandlerContext): Promise<CallResult>;
  /**
   * A `sent` row whose outcome is unknown (a crash after markSent, a lost answer): read the state and
   * say what happened. Answer `repeat` only if making the call again cannot act twice.
   */
  settle(row: IntentRow, context: HandlerContext): Promise<SettleResult>;
}

export type IntentHandler = SigningHandler | CallHandler;

/** Whether `handler` takes the unsigned path. */
export function isCallHandler(handler: IntentHandler): handler is CallHandler {
  return 'call' in handler;
}
