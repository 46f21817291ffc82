/**
 * Which transaction signatures the journal holds. Every transaction the daemon signs has its
 * signature journaled (`intents.signature`) before it is sent, and the chain's id replaces it once
 * learned (someone signed after us); a landed transaction carrying either is ours. One that carries
 * neither was signed by someone else with the wallet's key (engine/sharing/).
 */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRows } from './parseRows.js';
import { statement } from './statementCache.js';

const Row = z.object({ signature: z.string() });

/** SQLite's default limit on bound parameters is far above this; one statement per size is kept. */
const CHUNK = 100;

/** The signatures among `signatures` that some intent holds. */
export function journaledSignatures(db: Db, signatures: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < signatures.length; i += CHUNK) {
    const chunk = signatures.slice(i, i + CHUNK);
    const sql = `SELECT signature FROM intents WHERE signature IN (${chunk.map(() => '?').join(', ')})`;
    for (const row of parseRows(Row, statement(db, sql).all(...chunk), 'journaled signatures')) found.add(row.signature);
  }
  return found;
}
