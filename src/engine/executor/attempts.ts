/**
 * A decision whose execution failed is tried again — as a NEW intent, never by reviving the failed
 * row (failed is final: nothing it signed can land any more).
 *
 * decide() keeps asking for the same intent id while its slot is not handled (a failed row does not
 * count as handled, see strategyProgress.ts). Without this, the journal would answer every later
 * tick with the failed row and a stop-loss whose swap failed once would never sell. With it, the
 * tick plans `${id}~r1`, `~r2`, … (deterministic, so a restart finds them) with backoff: the wait
 * before retry n is {@link retryDelay}(n), from one minute doubling to {@link SLOW_RETRY_MS}.
 *
 * - A rule that protects a position (a price order's exit, a prediction exit, a withdrawal of our
 *   own funds) is never disarmed by a failure: while decide() still asks, it is retried, at the slow
 *   pace once the backoff reaches it, for as long as it takes. A guard refusal is a verdict on one
 *   transaction, not on the rule: the next answer may be clean.
 * - Any other rule (a DCA run) is retried for the codes where a later try may succeed (the catalogue's
 *   `retryRule`, guard refusals among them), at most {@link MAX_RETRIES} times; then it stays failed.
 *
 * {@link DEGRADED_AFTER} failures in a row mark the strategy degraded (the tick loop says so); it
 * recovers when an attempt confirms or the rule stops asking.
 */
import { retriesRule } from '../../errorCatalogue.js';
import type { IntentRow, Journal, PlanInput } from '../../store/journal.js';

/** Retries of a rule that does not protect a position. */
export const MAX_RETRIES = 3;
/** The wait before the first retry; it doubles with each one up to {@link SLOW_RETRY_MS}. */
export const RETRY_AFTER_MS = 60_000;
/** The slowest pace: a protective rule goes on retrying at it for as long as it fires. */
export const SLOW_RETRY_MS = 5 * 60_000;
/** Failed attempts of one decision in a row that mark its strategy degraded. */
export const DEGRADED_AFTER = 3;

/** The wait before retry `n` (1-based): one minute, two, four, then five minutes each. */
export function retryDelay(n: number): number {
  return Math.min(RETRY_AFTER_MS * 2 ** Math.max(0, n - 1), SLOW_RETRY_MS);
}

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

/** The trigger part of a journal id (a retry's `~rN` dropped: it fills its original's slot), or null when the id is not in the intents.ts shape. */
export function triggerOf(row: Pick<IntentRow, 'id' | 'strategy' | 'rule'>): string | null {
  if (row.strategy === null || row.rule === null) return null;
  const head = `${row.strategy}/`;
  if (!row.id.startsWith(head)) return null;
  const rest = row.id.slice(head.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const tail = withoutRetry(rest.slice(slash + 1));
  return tail.startsWith(`${row.rule}/`) ? tail.slice(row.rule.length + 1) : null;
}

const instants = new WeakMap<object, number | null>();

/** A scheduled run's instant, from its journal id (`…/run/<ISO>`); read once per row object (rows are reused until the journal changes). */
export function runInstantOf(row: Pick<IntentRow, 'id' | 'strategy' | 'rule'>): number | null {
  let at = instants.get(row);
  if (at === undefined) {
    const trigger = triggerOf(row);
    const parsed = trigger === null ? Number.NaN : Date.parse(trigger);
    instants.set(row, (at = Number.isFinite(parsed) ? parsed : null));
  }
  return at;
}

/** `failures`: attempts of this decision that failed in a row, newest last (0 when the latest did not). */
export type NextAttempt =
  /** Plan (or find) this input: the original or a retry of it. */
  | { readonly kind: 'plan'; readonly input: PlanInput; readonly failures: number }
  /** The latest attempt failed; the next one is allowed at `at`. */
  | { readonly kind: 'wait'; readonly at: number; readonly last: IntentRow; readonly failures: number }
  /** The latest attempt failed for good (or retries are used up): nothing to do. */
  | { readonly kind: 'final'; readonly last: IntentRow; readonly failures: number };

/**
 * What the tick should do with `input`: the newest attempt that is not final, or a new retry. A
 * retry's params are the original's (what decide asked for again now), with `retryOf` evidence.
 * `protective`: the rule protects a position, so no failure disarms it.
 */
export function nextAttempt(
  journal: Pick<Journal, 'get'>,
  input: PlanInput,
  now: number,
  ended: (row: IntentRow) => boolean = () => false,
  protective = false,
): NextAttempt {
  let last = journal.get(input.id);
  if (last === undefined) return { kind: 'plan', input, failures: 0 };
  let n = 0;
  let failures = 0;
  const over = (row: IntentRow): boolean => row.state === 'failed' || row.state === 'cancelled' || ended(row);
  for (;;) {
    if (!over(last)) return { kind: 'plan', input: n === 0 ? input : retryInput(input, n, last, last.errorCode, protective), failures };
    failures = last.state === 'failed' ? failures + 1 : 0;
    const next = journal.get(retryId(input.id, n + 1));
    if (next === undefined) break;
    last = next;
    n += 1;
  }
  const code = codeOf(last, ended);
  const retryable = code !== null && (protective || retriesRule(code));
  if (!retryable || (!protective && n >= MAX_RETRIES)) return { kind: 'final', last, failures };
  // An ended order waited out its whole life: re-protecting the position does not wait further.
  const at = code === VAULT_ORDER_ENDED ? now : last.updatedAt + retryDelay(n + 1);
  if (now < at) return { kind: 'wait', at, last, failures };
  return { kind: 'plan', input: retryInput(input, n + 1, last, code, protective), failures };
}

function codeOf(row: IntentRow, ended: (row: IntentRow) => boolean): string | null {
  return row.state === 'confirmed' && ended(row) ? VAULT_ORDER_ENDED : row.errorCode;
}

function retryInput(input: PlanInput, n: number, previous: IntentRow, code: string | null, protective: boolean): PlanInput {
  const which = protective ? `retry ${n}` : `retry ${n} of ${MAX_RETRIES}`;
  return {
    ...input,
    id: retryId(input.id, n),
    evidence: { ...(input.evidence ?? {}), retry: n, retryOf: previous.id, previousError: code },
    ...(input.reason === undefined ? {} : { reason: `${input.reason} (${which} after ${code ?? previous.state})` }),
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
