/**
 * What the journal says a strategy has already done, as the parts of StrategyState decide() needs
 * to not do it again. Derived from the `intents` table on every tick rather than kept in memory, so a
 * restart (or a hot reload that changes the version) sees exactly what the last process did:
 *
 * - `handled`: the version-free slot `rule/trigger` of every intent journaled and not failed or
 *   cancelled (a failed one may be decided again: nothing was done);
 * - `generation` / `filledRules`: the newest arming generation (`gN` trigger) journaled, and the
 *   rules whose swap confirmed in it;
 * - `lastScheduledRun`: the newest scheduled instant a `run` intent was journaled for, so runs
 *   missed while the daemon was down are seen by the catch-up policy;
 * - `notional`: today's (UTC) notional of swaps journaled and not failed, valued at `priceOf` now.
 *
 * Journal ids are `strategy/version12/rule/trigger` (intents.ts `intentId`); the trigger is read
 * back from the id with the row's own strategy and rule, never by splitting on "/".
 */
import type { IntentRow } from '../../store/intentRow.js';
import { type Fixed, mulFixed, unitsToFixed } from '../../money/decimal.js';
import { DAY_MS } from '../../strategies/snapshot.js';
import { triggerOf } from '../executor/attempts.js';

export interface StrategyProgress {
  readonly handled: ReadonlySet<string>;
  readonly generation: number;
  readonly filledRules: ReadonlySet<string>;
  readonly lastScheduledRun?: number;
  readonly notional: { readonly day: number; readonly usedUsd: Fixed };
}

/**
 * `filledIntents`: ids of the placing intents whose Trigger order filled (filledVaultIntents), for
 * the rules executed as vault orders; `endedIntents`: those whose orders all ended unfilled
 * (endedVaultIntents), which no longer count as handling their slot.
 */
export function strategyProgress(
  rows: readonly IntentRow[],
  now: number,
  priceOf: (mint: string) => Fixed | undefined,
  filledIntents: ReadonlySet<string> = new Set(),
  endedIntents: ReadonlySet<string> = new Set(),
): StrategyProgress {
  const { swapsByDay, ...rest } = journalProgress(rows, filledIntents, endedIntents);
  return { ...rest, notional: notionalToday(swapsByDay, now, priceOf) };
}

/** The part of {@link StrategyProgress} that the rows alone decide (it changes only when they do), and the live swaps by UTC day. */
export interface JournalProgress extends Omit<StrategyProgress, 'notional'> {
  readonly swapsByDay: ReadonlyMap<number, readonly IntentRow[]>;
}

export function journalProgress(
  rows: readonly IntentRow[],
  filledIntents: ReadonlySet<string> = new Set(),
  endedIntents: ReadonlySet<string> = new Set(),
): JournalProgress {
  const handled = new Set<string>();
  let generation = 0;
  let lastScheduledRun: number | undefined;
  const live = rows.filter((r) => r.state !== 'failed' && r.state !== 'cancelled');
  for (const row of live) {
    const trigger = triggerOf(row);
    if (trigger === null || row.rule === null) continue;
    if (!endedIntents.has(row.id)) handled.add(`${row.rule}/${trigger}`);
    const g = /^g(\d+)$/.exec(trigger);
    if (g) generation = Math.max(generation, Number(g[1]));
    if (row.rule === 'run') {
      const at = Date.parse(trigger);
      if (Number.isFinite(at)) lastScheduledRun = Math.max(lastScheduledRun ?? at, at);
    }
  }
  // A swap is its fill; a vault placement only places an order: its rule is filled once the order is.
  // A renewal's replacement carries a `renew:` trigger, not `gN`: it belongs to the generation it
  // was planned in, which is whatever generation was armed before it (rows are in creation order).
  const filledRules = new Set<string>();
  const start = live.find((row) => triggerOf(row) === `g${generation}`)?.createdAt ?? 0;
  for (const row of live) {
    if (row.state !== 'confirmed' || row.rule === null) continue;
    if (row.kind === 'place-vault-order') {
      if (row.createdAt >= start && filledIntents.has(row.id)) filledRules.add(row.rule);
    } else if (triggerOf(row) === `g${generation}`) filledRules.add(row.rule);
  }
  const swapsByDay = new Map<number, IntentRow[]>();
  for (const row of live) {
    if (row.kind !== 'swap') continue;
    const day = Math.floor(row.createdAt / DAY_MS);
    const list = swapsByDay.get(day);
    if (list) list.push(row);
    else swapsByDay.set(day, [row]);
  }
  return { handled, generation, filledRules, ...(lastScheduledRun === undefined ? {} : { lastScheduledRun }), swapsByDay };
}

/** Today's (UTC) notional of the live swaps, valued at `priceOf` now. */
export function notionalToday(
  swapsByDay: ReadonlyMap<number, readonly IntentRow[]>,
  now: number,
  priceOf: (mint: string) => Fixed | undefined,
): StrategyProgress['notional'] {
  const day = Math.floor(now / DAY_MS);
  let usedUsd = 0n;
  for (const row of swapsByDay.get(day) ?? []) {
    const { inputMint, inputDecimals, amount } = row.params;
    if (typeof inputMint !== 'string' || typeof inputDecimals !== 'number' || typeof amount !== 'string') continue;
    // Valued at the price now; an unknown price counts the swap at $1 a token rather than at nothing.
    const price = priceOf(inputMint) ?? 10n ** 18n;
    usedUsd += mulFixed(unitsToFixed(BigInt(amount), inputDecimals), price);
  }
  return { day, usedUsd };
}
