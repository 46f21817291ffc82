/**
 * The `strategy_state` table (migrations/0002): one canonical-JSON document per strategy name with
 * what the decide loop saw and must not forget across a restart (see StrategyMemory). The document's
 * shape belongs to its one writer; this class only stores and reads it, in one transaction per tick.
 */
import { canonicalJson } from './canonicalJson.js';
import type { Db, Statement } from './db.js';
import { z } from 'zod';
import { parseOptionalRow } from './parseRows.js';

const StateRow = z.object({ state: z.string() });

export class StrategyStates {
  readonly #db: Db;
  readonly #get: Statement;
  readonly #put: Statement;

  constructor(db: Db) {
    this.#db = db;
    this.#get = db.prepare('SELECT state FROM strategy_state WHERE strategy = ?');
    this.#put = db.prepare(
      'INSERT INTO strategy_state (strategy, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (strategy) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at',
    );
  }

  /** The stored document, or undefined when the strategy never ran (or the row is not an object). */
  get(strategy: string): Record<string, unknown> | undefined {
    const row = parseOptionalRow(StateRow, this.#get.get(strategy), 'strategy state');
    if (row === undefined) return undefined;
    const parsed: unknown = JSON.parse(row.state);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  }

  /** Writes every document in one transaction. */
  putAll(documents: ReadonlyMap<string, object>, at: number): void {
    if (documents.size === 0) return;
    this.#db.transaction(() => {
      for (const [strategy, state] of documents) this.#put.run(strategy, canonicalJson(state), at);
    })();
  }
}
