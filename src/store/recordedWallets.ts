/**
 * The wallet a database belongs to, from what it records rather than its file name (a copy can be
 * renamed): every start of the daemon records the wallet's address (`daemon.started`). A database
 * no daemon started on, or one older than that recording, names none.
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';

const WalletRow = z.object({ wallet: z.string() });

/** The wallet addresses the daemon's starts recorded, oldest first, each once. */
export function recordedWallets(db: Db): string[] {
  const sql = `SELECT json_extract(data, '$.wallet') AS wallet, min(id) AS first FROM actions
               WHERE kind = 'daemon.started' AND json_type(data, '$.wallet') = 'text'
               GROUP BY json_extract(data, '$.wallet') ORDER BY first`;
  return parseRows(WalletRow, db.prepare(sql).all(), 'recorded wallets').map((row) => row.wallet);
}
