/**
 * What the decide loop keeps in the database besides the journal rows the executor owns: what each
 * strategy did (journal and order mirror, read through the table-version cache), what only the
 * daemon knows of it (`strategy_state`: the arming reference and peaks), the rules' health
 * (`strategy.degraded` / `strategy.recovered`) and the loop's own failures. One place builds them
 * over the database, so the loop itself holds no database handle.
 */
import type { Clock } from '../../clock.js';
import type { AuditLog } from '../../store/audit.js';
import type { Db } from '../../store/db.js';
import { StrategyStates } from '../../store/strategyStates.js';
import { strategyRecords, type StrategyRecords } from '../../store/strategyRecords.js';
import type { Fixed } from '../../money/decimal.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import type { Snapshot, StrategyState } from '../../strategies/snapshot.js';
import { RuleHealth } from './ruleHealth.js';
import { StrategyMemory } from './strategyMemory.js';
import { journalProgress, notionalToday, type JournalProgress, type StrategyProgress } from './strategyProgress.js';

export interface DecisionRecords {
  /**
   * What `strategy` decides on besides the snapshot: what the journal says it did (today's notional
   * valued at the snapshot's prices), merged with what only the daemon remembers of it.
   */
  state(strategy: LoadedStrategy, snapshot: Snapshot, now: number): StrategyState;
  readonly memory: StrategyMemory;
  readonly health: RuleHealth;
  /** A failure of the loop itself (`during`: what it was doing), for the audit log. */
  error(during: string, message: string): void;
}

/** What the journal says of a strategy, derived once per read of its records (they are replaced when the journal changes). */
const progressByRecords = new WeakMap<StrategyRecords, JournalProgress>();

function progressOf(db: Db, strategy: string, now: number, priceOf: (mint: string) => Fixed | undefined): StrategyProgress {
  const records = strategyRecords(db, strategy);
  let journal = progressByRecords.get(records);
  if (journal === undefined) progressByRecords.set(records, (journal = journalProgress(records.rows, records.filled, records.ended)));
  const { swapsByDay, ...rest } = journal;
  return { ...rest, notional: notionalToday(swapsByDay, now, priceOf) };
}

export function decisionRecords(db: Db, audit: AuditLog, clock: Clock): DecisionRecords {
  const memory = new StrategyMemory({
    store: new StrategyStates(db),
    // "+20%" is relative to this: the audit log says what it was and when it was fixed.
    onArmed: ({ strategy, ...armed }) => audit.append({ kind: 'strategy.armed', strategy, data: armed }),
  });
  return {
    state: (strategy, snapshot, now) =>
      memory.state(
        strategy,
        progressOf(db, strategy.name, now, (mint) => snapshot.prices.get(mint)?.usd),
        snapshot,
        now,
      ),
    memory,
    health: new RuleHealth({ audit, now: () => clock.now() }),
    error: (during, message) => audit.append({ kind: 'error', data: { during, message } }),
  };
}
