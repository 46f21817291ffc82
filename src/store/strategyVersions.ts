import type { Db, Statement } from './db.js';
import { z } from 'zod';
import { parseOptionalRow, parseRow, parseRows } from './parseRows.js';

export interface StrategyVersionInput {
  readonly strategy: string;
  readonly sha256: string;
  readonly yaml: string;
  readonly sourceFile: string;
}

export interface StrategyVersionRow extends StrategyVersionInput {
  readonly version: number;
  readonly appliedAt: number;
}

/**
 * Every text a strategy ran with (table strategy_versions): version 1, 2, … per strategy. Applying
 * a text seen before (an edit reverted) reuses its row and number; the activation itself is an
 * audit action (`strategy.version`), written by the caller.
 */
const VersionRow = z.object({ version: z.number().int().positive() });
const NextRow = z.object({ next: z.number().int().positive() });

export class StrategyVersions {
  readonly #db: Db;
  readonly #find: Statement;
  readonly #next: Statement;
  readonly #insert: Statement;
  readonly #latest: Statement;

  constructor(db: Db) {
    this.#db = db;
    this.#find = db.prepare('SELECT version FROM strategy_versions WHERE strategy = ? AND yaml_sha256 = ?');
    this.#next = db.prepare('SELECT coalesce(max(version), 0) + 1 AS next FROM strategy_versions WHERE strategy = ?');
    this.#insert = db.prepare('INSERT INTO strategy_versions (strategy, version, yaml_sha256, yaml, source_file, applied_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.#latest = db.prepare(
      'SELECT strategy, version, yaml_sha256, yaml, source_file, applied_at FROM strategy_versions WHERE strategy = ? ORDER BY applied_at DESC, version DESC LIMIT 1',
    );
  }

  /** Records the version (or finds it) and returns its number and whether it is new. */
  record(input: StrategyVersionInput, at: number): { version: number; created: boolean } {
    return this.#db.transaction(() => {
      const found = parseOptionalRow(VersionRow, this.#find.get(input.strategy, input.sha256), 'strategy version');
      if (found) return { version: found.version, created: false };
      const { next } = parseRow(NextRow, this.#next.get(input.strategy), 'next strategy version');
      this.#insert.run(input.strategy, next, input.sha256, input.yaml, input.sourceFile, at);
      return { version: next, created: true };
    })();
  }

  latest(strategy: string): StrategyVersionRow | undefined {
    const row = this.#latest.get(strategy) as
      { strategy: string; version: number; yaml_sha256: string; yaml: string; source_file: string; applied_at: number } | undefined;
    if (!row) return undefined;
    return { strategy: row.strategy, version: row.version, sha256: row.yaml_sha256, yaml: row.yaml, sourceFile: row.source_file, appliedAt: row.applied_at };
  }
}

const VersionHistoryRow = z.object({ strategy: z.string(), version: z.number().int(), yaml_sha256: z.string(), applied_at: z.number().int() });

/** Every version of every strategy, in the order they were first applied. */
export function versionHistory(db: Db): { strategy: string; version: number; sha256: string; appliedAt: number }[] {
  const rows = parseRows(
    VersionHistoryRow,
    db.prepare('SELECT strategy, version, yaml_sha256, applied_at FROM strategy_versions ORDER BY applied_at, strategy, version').all(),
    'strategy versions',
  );
  return rows.map((r) => ({ strategy: r.strategy, version: r.version, sha256: r.yaml_sha256, appliedAt: r.applied_at }));
}
