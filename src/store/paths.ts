import { join } from 'node:path';

/** The daemon's trading mode, which decides which database file it uses. */
export type TradingMode = 'paper' | 'live' | 'rehearsal';

/**
 * The database file for a mode: `<dataDir>/jupbot-<mode>.sqlite`. Paper and live never share a
 * file, so simulated fills can never mix into the live audit trail (peer lesson: freqtrade's
 * separate `tradesv3.dryrun.sqlite`). Rehearsal keeps its own ledger the same way.
 *
 * @example
 * databaseFile('./data', 'paper') // 'data/jupbot-paper.sqlite'
 */
export function databaseFile(dataDir: string, mode: TradingMode): string {
  // Checked at run time too: the mode may come from an unvalidated string (a CLI flag, env).
  if (mode !== 'paper' && mode !== 'live' && mode !== 'rehearsal') throw new TypeError(`mode must be 'paper', 'live' or 'rehearsal', got ${String(mode)}`);
  return join(dataDir, `jupbot-${mode}.sqlite`);
}
