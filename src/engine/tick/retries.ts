/**
 * A decision whose execution failed for a reason the market may lift is tried again — as a NEW
 * intent, never by reviving the failed row (failed is final: nothing it signed can land any more).
 *
 * decide() keeps asking for the same intent id while its slot is not handled (a failed row does not
 * count as handled, see strategyProgress.ts). Without this, the journal would answer every later
 * tick with the failed row and a stop-loss whose swap failed once on slippage would never sell. With
 * it, the tick plans `${id}~r1`, `~r2`, … (deterministic, so a restart finds them) once the last
 * failure is RETRY_AFTER_MS old, up to MAX_RETRIES; then the rule stays failed and says so.
 *
 * Only codes where nothing happened and a later try may succeed are retried: a guard refusal, a
 * risk limit or bad params fail the same way every time and must reach an operator instead.
 */
import { retriesRule } from '../../errorCatalogue.js';
import type { IntentRow, Journal, PlanInput } from '../../store/journal.js';

export const MAX_RETRIES = 3;
export const RETRY_AFTER_MS = 60_000;

/**
 * A placement that confirmed but whose order ended unfilled (expired while the daemon was down,
 * cancelled outside it). decide() asks for the rule's order again only when no live order serves
 * the rule, so this is what re-protects the position.
 */
export const VAULT_ORDER_ENDED = 'VAULT_ORDER_ENDED';

const RETRY_SUFFIX = /~r(\d+)$/;

/** The id of retry `n` (1-based) of `id`. */
export function retryId(id: string, n: number): string {
  return `${id}~r${n}`;
}

/** Which retry `id` is: 0 for an original, n for `~rn`. */
export function retryNumber(id: string): number {
  const match = RETRY_SUFFIX.exec(id);
  return match ? Number(match[1]) : 0;
}

/** `id` without a retry suffix: the slot a retry belongs to is its original's. */
export function withoutRetry(id: string): string {
  return id.replace(RETRY_SUFFIX, '');
}

export type NextAttempt =
  /** Plan (or find) this input: the original or a retry of it. */
  | { readonly kind: 'plan'; readonly input: PlanInput }
  /** The latest attempt failed retryably; the next one is allowed at `at`. */
  | { readonly kind: 'wait'; readonly at: number; readonly last: IntentRow }
  /** The latest attempt failed for good (or retries are used up): nothing to do. */
  | { readonly kind: 'final'; readonly last: IntentRow };

/**
 * What the tick should do with `input`: the newest attempt that is not final, or a new retry. A
 * retry's params are the original's (what decide asked for again now), with `retryOf` evidence.
 */
export function nextAttempt(journal: Pick<Journal, 'get'>, input: PlanInput, now: number, ended: (row: IntentRow) => boolean = () => false): NextAttempt {
  let last = journal.get(input.id);
  if (last === undefined) return { kind: 'plan', input };
  let n = 0;
  const over = (row: IntentRow): boolean => row.state === 'failed' || row.state === 'cancelled' || ended(row);
  for (;;) {
    if (!over(last)) return { kind: 'plan', input: n === 0 ? input : retryInput(input, n, last) };
    const next = journal.get(retryId(input.id, n + 1));
    if (next === undefined) break;
    last = next;
    n += 1;
  }
  const code = codeOf(last, ended);
  if (code === null || !retriesRule(code) || n >= MAX_RETRIES) return { kind: 'final', last };
  // An ended order waited out its whole life: re-protecting the position does not wait further.
  const at = code === VAULT_ORDER_ENDED ? now : last.updatedAt + RETRY_AFTER_MS;
  if (now < at) return { kind: 'wait', at, last };
  return { kind: 'plan', input: retryInput(input, n + 1, last, code) };
}

function codeOf(row: IntentRow, ended: (row: IntentRow) => boolean): string | null {
  return row.state === 'confirmed' && ended(row) ? VAULT_ORDER_ENDED : row.errorCode;
}

function retryInput(input: PlanInput, n: number, previous: IntentRow, code: string | null = previous.errorCode): PlanInput {
  return {
    ...input,
    id: retryId(input.id, n),
    evidence: { ...(input.evidence ?? {}), retry: n, retryOf: previous.id, previousError: code },
    ...(input.reason === undefined ? {} : { reason: `${input.reason} (retry ${n} of ${MAX_RETRIES} after ${code ?? previous.state})` }),
  };
}

/**
 * Scheduled runs are the exception to "decide() asks again": a DCA run is decided once for its
 * instant (the schedule then moves past it), so a run whose swap failed retryably — a 5xx burst on
 * the quote that left it planned until reconciliation cancelled it as stale, say — would simply be
 * lost. While the run is still on time (`onTimeMs` after its instant, the strategy's
 * `on_time_within`), its retry is planned from the journal row itself, like any other retry.
 */
export function runRetries(
  journal: Pick<Journal, 'get'>,
  rows: readonly IntentRow[],
  onTimeMs: number,
  now: number,
  instantOf: (row: IntentRow) => number | null,
): PlanInput[] {
  const out: PlanInput[] = [];
  for (const row of rows) {
    if (row.rule !== 'run' || withoutRetry(row.id) !== row.id) continue;
    const at = instantOf(row);
    if (at === null || now - at > onTimeMs) continue;
    const original: PlanInput = {
      id: row.id,
      kind: row.kind,
      strategy: row.strategy,
      rule: row.rule,
      params: row.params,
      evidence: { scheduledFor: new Date(at).toISOString() },
      reason: `scheduled run due ${new Date(at).toISOString()}`,
    };
    const attempt = nextAttempt(journal, original, now);
    if (attempt.kind === 'plan' && attempt.input.id !== row.id && journal.get(attempt.input.id) === undefined) out.push(attempt.input);
  }
  return out;
}
