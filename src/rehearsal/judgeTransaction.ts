/**
 * The guard's turn in a rehearsal: the transaction Jupiter built for the watched wallet is checked
 * exactly as it would be before signing (the static checks, then its effects proven by simulation,
 * which is read-only), and never signed. Every transaction received gets one verdict in the audit log,
 * `rehearsal.transaction` on its intent, with the bytes and the expectation they were held to, so
 * `jupbot tx explain --intent` can run the guard on them again and `jupbot rehearsal summary` can
 * count them. A refusal is also the guard's own `guard.refused` row, as in live mode.
 */
import type { Expectation } from '../solana/expectation.js';
import { describeExpectation } from '../solana/expectation.js';
import type { CheckedSummary, SignContext, TransactionGuard } from '../solana/guardedSigner.js';
import { GuardRefusal } from '../solana/guardRefusal.js';
import type { HandlerContext } from '../engine/executor/handler.js';

/** The audit action kind of a verdict. */
export const REHEARSAL_TRANSACTION = 'rehearsal.transaction';

/** What a verdict row holds of the simulated effects: net change per mint, as decimal strings. */
function effectsOf(summary: CheckedSummary): Record<string, unknown> | null {
  if (summary.effects === null) return null;
  return { deltas: summary.effects.deltas, unitsConsumed: summary.effects.unitsConsumed };
}

/**
 * Judges `base64` for `expectation`, records the verdict on the intent, and resolves with the
 * guard's summary, or rethrows the refusal. A refusal about the moment (the node could not simulate
 * now) is recorded as `deferred`: the transaction is built again, and judged again.
 */
export async function judgeTransaction(
  guard: TransactionGuard,
  base64: string,
  expectation: Expectation,
  signContext: SignContext,
  context: HandlerContext,
): Promise<CheckedSummary> {
  const base = { kind: expectation.kind, transaction: base64, expectation: describeExpectation(expectation) };
  try {
    const summary = await guard.check(base64, expectation, signContext);
    context.note?.(REHEARSAL_TRANSACTION, {
      ...base,
      verdict: 'accepted',
      programs: summary.programs,
      priorityFeeLamports: summary.priorityFeeLamports.toString(),
      effects: effectsOf(summary),
    });
    return summary;
  } catch (error) {
    const refusal = error instanceof GuardRefusal ? error : null;
    context.note?.(REHEARSAL_TRANSACTION, {
      ...base,
      verdict: refusal === null ? 'error' : refusal.transient ? 'deferred' : 'refused',
      reason: refusal?.reason ?? null,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/**
 * The verdict on a transaction whose build the intent's own checks refused before the guard was
 * asked (the sale is not the one decided, its floor is below the intent's minimum): live mode stops
 * at the same point and signs nothing, and the guard is not asked either, but the transaction was
 * received, so it gets its verdict row, with the check's code as the reason and the expectation the
 * guard would have held it to.
 */
export function noteRefusedBuild(context: HandlerContext, expectation: Expectation, base64: string, refusal: { code: string; message: string }): void {
  context.note?.(REHEARSAL_TRANSACTION, {
    kind: expectation.kind,
    transaction: base64,
    expectation: describeExpectation(expectation),
    verdict: 'refused',
    by: 'intent-check',
    reason: refusal.code,
    message: refusal.message,
  });
}
