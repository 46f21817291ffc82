/**
 * Reconciliation: at start, before any new intent, and then periodically,
 * every non-final intent in the journal is resolved through the executor, which reads the row back
 * and lets the chain decide:
 *
 * - planned (never signed): nothing was sent, so it is safe to resume — unless it was decided on a
 *   market price and is older than `staleAfterMs`, when that market is gone: it is cancelled instead
 *   (recorded). Vault placements and cancels are never stale (see {@link NEVER_STALE_KINDS});
 * - signed / sent: the signature status decides — landed → confirmed with its fills (exactly once:
 *   `fills` is keyed by (signature, idx)) or failed; still valid → the same bytes are re-sent;
 *   provably dead (block height past lastValidBlockHeight, signature absent) → expired, and a new
 *   attempt follows while attempts remain;
 * - expired: re-armed for a new attempt, or failed when attempts are used up.
 *
 * A failure to resolve one intent (RPC down) is recorded and leaves it pending for the next pass;
 * it never stops the others.
 */
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { AuditLog } from '../store/audit.js';
import type { IntentRow, IntentState, Journal } from '../store/journal.js';
import type { Executor } from './executor/executor.js';
import { DCA_PLACE_KIND } from './executor/dca/placeDcaOrder.js';
import { VAULT_CANCEL_KIND } from './executor/vault/cancelVaultOrder.js';
import { VAULT_PLACE_KIND } from './executor/vault/placeVaultOrder.js';
import { VAULT_RENEW_KIND } from './executor/vault/renewVaultOrder.js';

/**
 * Kinds a planned row of which is resumed however old it is. Staleness protects intents whose
 * substance is a market price (a swap, a prediction sell, a ratchet's PATCH level from the peak):
 * acting on that price minutes later is acting on a guess. A vault placement's levels are the
 * strategy's own and the order waits for them in the vault (a DCA order's rounds likewise), a cancel only withdraws our funds,
 * and a renewal withdraws them to place the strategy's own levels again, so age does not make them
 * wrong. Cancelling them would be: decide() counts the slot as handled once journaled and never asks
 * again (a re-decided id finds the cancelled row), so a dropped placement leaves the position
 * unprotected — above all a renewal's replacement, planned when its withdrawal confirmed, whose old
 * order is already withdrawn.
 */
export const NEVER_STALE_KINDS: ReadonlySet<string> = new Set([VAULT_PLACE_KIND, VAULT_CANCEL_KIND, VAULT_RENEW_KIND, DCA_PLACE_KIND]);

export interface ReconcileOptions {
  readonly journal: Journal;
  readonly executor: Executor;
  readonly clock: Clock;
  readonly audit?: AuditLog | undefined;
  readonly log?: Logger | undefined;
  /** A `planned` intent decided longer ago than this is cancelled, not resumed (not {@link NEVER_STALE_KINDS}). @default undefined (always resume) */
  readonly staleAfterMs?: number | undefined;
}

export interface ReconcileReport {
  /** Pending intents found at the start of the pass. */
  readonly examined: number;
  /** Final state (or the pending state it stayed in) per intent id. */
  readonly outcomes: Readonly<Record<string, IntentState>>;
  /** Intents still pending after the pass (in flight, or an error to retry). */
  readonly stillPending: number;
}

/** One reconciliation pass over every pending intent, oldest first. */
export async function reconcile(options: ReconcileOptions): Promise<ReconcileReport> {
  const { journal, executor, clock, log } = options;
  const pending = journal.pending();
  const outcomes: Record<string, IntentState> = {};
  for (const row of pending) {
    if (executor.stopped) break;
    outcomes[row.id] = (await resolveOne(row)).state;
  }
  // Landed trades whose fill is not known yet: looked for again, with backoff, until it is.
  if (!executor.stopped)
    await executor
      .recoverFills()
      .catch((error: unknown) => log?.error({ err: error }, `reading pending fills failed: ${errorMessage(error)}; the next pass tries again`));
  const stillPending = Object.values(outcomes).filter((s) => s === 'planned' || s === 'signed' || s === 'sent' || s === 'expired').length;
  const report = { examined: pending.length, outcomes, stillPending };
  if (pending.length > 0) {
    options.audit?.append({ kind: 'reconcile.pass', data: { examined: pending.length, stillPending, outcomes } });
    log?.info({ examined: pending.length, stillPending }, 'reconciled pending intents');
  }
  return report;

  async function resolveOne(row: IntentRow): Promise<IntentRow> {
    // Age from the decision (created_at), not the last touch: retries of a failing quote must not keep it fresh.
    if (
      row.state === 'planned' &&
      options.staleAfterMs !== undefined &&
      !NEVER_STALE_KINDS.has(row.kind) &&
      clock.now() - row.createdAt > options.staleAfterMs
    ) {
      return journal.markCancelled(row.id, {
        code: 'STALE_INTENT',
        message: `decided ${clock.now() - row.createdAt} ms ago and not signed; too old to act on`,
        data: { staleAfterMs: options.staleAfterMs, attempts: row.attempts },
      });
    }
    try {
      return await executor.drive(row.id);
    } catch (error) {
      // The executor records its own failures; this is a bug or the database itself failing.
      log?.error(
        { intentId: row.id, err: error },
        `reconcile could not resolve intent ${row.id}: ${errorMessage(error)}; it stays as it is and the next pass tries again`,
      );
      options.audit?.append({ kind: 'error', intentId: row.id, strategy: row.strategy, data: { during: 'reconcile', message: errorMessage(error) } });
      return journal.require(row.id);
    }
  }
}

/**
 * Periodic reconciliation on the injected clock until `signal` aborts. The first pass runs at once:
 * callers await `ready` before planning new intents.
 */
export function startReconcileLoop(options: ReconcileOptions & { readonly intervalMs: number; readonly signal: AbortSignal }): {
  ready: Promise<ReconcileReport>;
  done: Promise<void>;
} {
  const ready = reconcile(options);
  const done = (async () => {
    await ready.catch(() => undefined);
    while (!options.signal.aborted) {
      try {
        await options.clock.sleep(options.intervalMs, options.signal);
      } catch {
        return;
      }
      await reconcile(options).catch((error: unknown) =>
        options.log?.error({ err: error }, `reconcile pass failed: ${errorMessage(error)}; the next pass tries again`),
      );
    }
  })();
  return { ready, done };
}
