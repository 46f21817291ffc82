/**
 * Which strategies a backtest ran, by the name each declares (a file's name need not be it), and
 * for one that made no trade, why, when the database shows it: the history never priced its tokens,
 * its intents failed (the error says why: a balance too small, a guard refusal), or nothing was due.
 */
import { basename } from 'node:path';
import type { Db } from '../store/db.js';
import type { PriceHistory } from './priceFile.js';

/** The strategies the daemon loaded (their recorded versions), sorted; and the files it loaded none from. */
export function loadedStrategies(db: Db, files: readonly string[]): { names: string[]; unloaded: string[] } {
  const rows = db.prepare('SELECT DISTINCT strategy, source_file FROM strategy_versions').all() as { strategy: string; source_file: string }[];
  const loadedFiles = new Set(rows.map((r) => basename(r.source_file)));
  return {
    names: [...new Set(rows.map((r) => r.strategy))].sort(),
    unloaded: files.filter((f) => !loadedFiles.has(basename(f))).sort(),
  };
}

/** Why `strategy` made no trade, as far as the database tells. */
export function idleReason(db: Db, strategy: string, history: PriceHistory): string {
  const pins = db.prepare('SELECT symbol, mint FROM token_pins WHERE strategy = ? ORDER BY symbol').all(strategy) as { symbol: string; mint: string }[];
  if (pins.length > 0 && !pins.some((p) => history.keys.includes(p.mint)))
    return `no trade: the price history has no price for its tokens (${pins.map((p) => p.symbol).join(', ')})`;
  const intents = db
    .prepare(
      `SELECT count(*) AS n, sum(state = 'failed') AS failed,
              (SELECT coalesce(error_code, '') || ': ' || coalesce(error_message, '') FROM intents
                WHERE strategy = ? AND state = 'failed' ORDER BY updated_at DESC, rowid DESC LIMIT 1) AS last
         FROM intents WHERE strategy = ?`,
    )
    .get(strategy, strategy) as { n: number; failed: number | null; last: string | null };
  if (intents.n > 0)
    return `no trade: ${intents.n} intent${intents.n === 1 ? '' : 's'}, none filled${intents.last === null ? '' : `; ${intents.failed} failed, the last with ${intents.last}`}`;
  return 'no trade: no rule asked to trade over the history (nothing was due, or the wallet held nothing it could trade)';
}
