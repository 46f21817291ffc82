/**
 * Intents whose journal kind an upgrade changed (migration 0011: renewals once journaled as
 * `cancel-vault-order` became `renew-vault-order`), brought back under the hash chain. The migration
 * changes the column and lists each row in `rekinded_rows`; the first audit log opened for writing
 * then appends, per row, an `intent.rekinded` action that names the old and the new kind and seals
 * the row as it now is, and empties the list in the same transaction. `audit verify` then compares
 * the row with that seal like any other: the upgrade passes, a later edit is still `row_changed`.
 *
 * The chain vouches for a row only as far as it saw it: a row is sealed again only when its last seal
 * is the digest of the row with its old kind (the migration changed that and nothing else), or
 * already of the row as it is (sealed after the migration, when the database predates sealing). Any
 * other row — edited outside jupbot, or slipped into the list, or a change of kind other than the
 * renewal's (with its replacement under `then`) — gets the action without a seal, and `audit verify`
 * keeps naming it against the seal it fails.
 */
import type { ActionInput } from './actionRow.js';
import type { Db } from './db.js';
import { rowDigest } from './rowSeal.js';

/** The action that records an intent's kind changed by an upgrade. */
export const REKINDED_KIND = 'intent.rekinded';

interface Listed {
  readonly key: string;
  readonly old_kind: string;
  readonly new_kind: string;
}

/** The one change of kind an upgrade has made (migration 0011). */
const RENEWAL = { from: 'cancel-vault-order', to: 'renew-vault-order' } as const;

/** Why a listed row is not sealed again. */
function notSealedWhy(renewal: boolean, last: string | undefined): string {
  if (!renewal) return 'not a renewal journaled as a cancel: no upgrade changes this kind';
  if (last === undefined) return 'the chain holds no seal of this row';
  return 'the row differs from its last seal by more than its kind';
}

/** The last digest the chain holds for each listed intent. */
function lastSeals(db: Db): Map<string, string> {
  const last = new Map<string, string>();
  const rows = db
    .prepare(
      `SELECT json_extract(s.value, '$.key') AS key, json_extract(s.value, '$.sha256') AS sha256
         FROM actions a, json_each(a.data, '$.sealed') s
        WHERE instr(a.data, '"sealed":[') > 0 AND json_type(a.data, '$.sealed') = 'array'
          AND json_extract(s.value, '$.table') = 'intents'
          AND json_extract(s.value, '$.key') IN (SELECT key FROM rekinded_rows)
        ORDER BY a.id, s.key`,
    )
    .iterate() as Iterable<{ key: string; sha256: string }>;
  for (const { key, sha256 } of rows) last.set(key, sha256);
  return last;
}

/**
 * Appends the `intent.rekinded` actions for the rows the migration listed, once. `append` is the
 * audit log's (inside this function's transaction); nothing is written when the list is empty.
 */
export function recordRekindedRows(db: Db, append: (action: ActionInput) => unknown): void {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rekinded_rows'").get();
  if (table === undefined) return;
  const listed = db.prepare('SELECT key, old_kind, new_kind FROM rekinded_rows ORDER BY key').all() as Listed[];
  if (listed.length === 0) return;
  db.transaction(() => {
    const seals = lastSeals(db);
    const read = db.prepare('SELECT * FROM intents WHERE id = ?');
    // The migration's own test of a renewal: a replacement order under `then`.
    const carriesReplacement = db.prepare("SELECT json_type(params, '$.then') = 'object' AS yes FROM intents WHERE id = ?").pluck();
    for (const { key, old_kind: from, new_kind: to } of listed) {
      const row = read.get(key) as Record<string, unknown> | undefined;
      // Intents are never deleted; a listed key with no row names nothing to record.
      if (row === undefined) continue;
      const last = seals.get(key);
      // Only the change the migration makes: a renewal, once journaled as a cancel carrying its
      // replacement under `then`, given its own kind. Any other pair is an edit, whoever listed it.
      const renewal = from === RENEWAL.from && to === RENEWAL.to && row['kind'] === to && carriesReplacement.get(key) === 1;
      const honest = renewal && last !== undefined && (last === rowDigest({ ...row, kind: from }) || last === rowDigest(row));
      const strategy = typeof row['strategy'] === 'string' ? row['strategy'] : null;
      append({
        kind: REKINDED_KIND,
        strategy,
        intentId: key,
        data: honest
          ? { from, to, reason: 'journaled under its own kind from this version: only the kind changed' }
          : { from, to, reason: 'journaled under its own kind from this version', notSealed: notSealedWhy(renewal, last) },
        ...(honest ? { seal: [{ table: 'intents' as const, key }] } : {}),
      });
    }
    db.prepare('DELETE FROM rekinded_rows').run();
  })();
}
