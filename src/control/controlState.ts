/**
 * The operator's control state (tables `control_halt` and `control_paused`, migration 0012): whether
 * the daemon is halted, and which strategies are paused. Each change is written in one transaction
 * with its `control.*` audit action, so the state and the record of who asked can never disagree; a
 * change that changes nothing (a resume of a daemon that is not halted) writes nothing and says so.
 *
 * The state lives in the database, not in the process: a halted daemon that restarts stays halted,
 * and a command run while no daemon runs records the change for the next start.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { parseOptionalRow, parseRows } from '../store/parseRows.js';
import { TypedEmitter } from '../typedEmitter.js';

export interface Halt {
  readonly since: number;
  readonly reason: string;
  /** Who asked: user, uid and pid of the command, as it said. */
  readonly by: string;
  /** Every live vault and DCA order of ours is being cancelled (and withdrawn). */
  readonly cancelOrders: boolean;
  /** Every prediction position is being sold. */
  readonly closePositions: boolean;
}

export interface Paused {
  readonly strategy: string;
  readonly since: number;
  readonly reason: string;
  readonly by: string;
}

/** The `control` key of `/status`. */
export interface ControlStatus {
  readonly halted: Halt | null;
  readonly paused: readonly Paused[];
}

export interface HaltRequest {
  readonly reason: string;
  readonly by: string;
  readonly cancelOrders: boolean;
  readonly closePositions: boolean;
}

/** What a request did: `changed` false when the state already was what was asked. */
export interface ControlChange {
  readonly changed: boolean;
  readonly status: ControlStatus;
  /** The protections a `resume` with `protections` cleared. */
  readonly cleared?: readonly string[];
}

const HaltRow = z
  .object({ since: z.number().int(), reason: z.string(), by: z.string(), cancel_orders: z.number().int(), close_positions: z.number().int() })
  .transform((r): Halt => ({ since: r.since, reason: r.reason, by: r.by, cancelOrders: r.cancel_orders === 1, closePositions: r.close_positions === 1 }));
const PausedRow = z.object({ strategy: z.string(), since: z.number().int(), reason: z.string(), by: z.string() });

export class ControlState {
  /** After every change this process wrote. */
  readonly events = new TypedEmitter<{ changed: ControlStatus }>();
  readonly #db: Db;
  readonly #audit: AuditLog;
  readonly #clock: Clock;

  constructor(db: Db, audit: AuditLog, clock: Clock) {
    this.#db = db;
    this.#audit = audit;
    this.#clock = clock;
  }

  halted(): Halt | null {
    const row: unknown = this.#db.prepare('SELECT since, reason, by, cancel_orders, close_positions FROM control_halt WHERE id = 1').get();
    return parseOptionalRow(HaltRow, row, 'control halt') ?? null;
  }

  paused(): Paused[] {
    return parseRows(PausedRow, this.#db.prepare('SELECT strategy, since, reason, by FROM control_paused ORDER BY strategy').all(), 'paused strategies');
  }

  status(): ControlStatus {
    return { halted: this.halted(), paused: this.paused() };
  }

  /**
   * Halts (or, halted already, widens the halt: a cancel or close asked now is added, never taken
   * back; the first reason and time stay). Recorded as `control.halted`.
   */
  halt(request: HaltRequest): ControlChange {
    return this.#change(() => {
      const before = this.halted();
      const cancelOrders = request.cancelOrders || (before?.cancelOrders ?? false);
      const closePositions = request.closePositions || (before?.closePositions ?? false);
      if (before !== null && before.cancelOrders === cancelOrders && before.closePositions === closePositions) return false;
      const since = before?.since ?? this.#clock.now();
      const reason = before?.reason ?? request.reason;
      this.#db
        .prepare(
          `INSERT INTO control_halt (id, since, reason, by, cancel_orders, close_positions) VALUES (1, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET cancel_orders = excluded.cancel_orders, close_positions = excluded.close_positions`,
        )
        .run(since, reason, before?.by ?? request.by, cancelOrders ? 1 : 0, closePositions ? 1 : 0);
      this.#audit.append({
        kind: 'control.halted',
        data: { reason: request.reason, by: request.by, cancelOrders, closePositions, ...(before === null ? {} : { widened: true, since }) },
      });
      return true;
    });
  }

  /** Lifts the halt (strategies decide again; orders already cancelled stay cancelled). Recorded as `control.resumed`. */
  resume(by: string): ControlChange {
    return this.#change(() => {
      const before = this.halted();
      if (before === null) return false;
      this.#db.prepare('DELETE FROM control_halt WHERE id = 1').run();
      this.#audit.append({ kind: 'control.resumed', data: { by, haltedSince: before.since, haltReason: before.reason } });
      return true;
    });
  }

  /** Pauses one strategy: it no longer decides; its orders keep working. Recorded as `control.paused`. */
  pause(strategy: string, reason: string, by: string): ControlChange {
    return this.#change(() => {
      if (this.paused().some((p) => p.strategy === strategy)) return false;
      this.#db.prepare('INSERT INTO control_paused (strategy, since, reason, by) VALUES (?, ?, ?, ?)').run(strategy, this.#clock.now(), reason, by);
      this.#audit.append({ kind: 'control.paused', strategy, data: { reason, by } });
      return true;
    });
  }

  /** Lets a paused strategy decide again. Recorded as `control.strategy-resumed`. */
  resumeStrategy(strategy: string, by: string): ControlChange {
    return this.#change(() => {
      const before = this.paused().find((p) => p.strategy === strategy);
      if (before === undefined) return false;
      this.#db.prepare('DELETE FROM control_paused WHERE strategy = ?').run(strategy);
      this.#audit.append({ kind: 'control.strategy-resumed', strategy, data: { by, pausedSince: before.since } });
      return true;
    });
  }

  #change(write: () => boolean): ControlChange {
    const changed = this.#db.transaction(write)();
    const status = this.status();
    if (changed) this.events.emit('changed', status);
    return { changed, status };
  }
}

/** Why `strategy` may not decide now because of the operator, else null: the halt first, then its own pause. */
export function controlPausedReason(status: ControlStatus, strategy: string): string | null {
  const iso = (ms: number): string => new Date(ms).toISOString();
  if (status.halted !== null) return `halted by ${status.halted.by} at ${iso(status.halted.since)}: ${status.halted.reason}`;
  const paused = status.paused.find((p) => p.strategy === strategy);
  return paused === undefined ? null : `paused by ${paused.by} at ${iso(paused.since)}: ${paused.reason}`;
}
