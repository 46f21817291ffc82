-- 0011_renew_kind: renewals are journaled under their own kind, `renew-vault-order`.
--
-- Before this version a renewal reached the journal as a `cancel-vault-order` row whose params
-- carried the replacement under `then`; an auditor reading the journal saw a cancel where the
-- strategy had decided a renewal. This migration gives those rows their own kind. Nothing else of a
-- row changes: its params, state and history stay as written.
--
-- `intents` rows are sealed by the audit chain (0009), so changing a row's kind changes its digest.
-- The rows changed are listed in `rekinded_rows` with their old and new kind, and the first writer
-- to open the database after this migration appends, for each, an `intent.rekinded` action naming
-- both kinds and sealing the row as it now is (only if the row's last seal is that of the row with
-- its old kind: nothing else may have changed), then empties this table in the same transaction.
-- A database created by this version has nothing to list, and the table stays empty.
CREATE TABLE rekinded_rows (
  key      TEXT NOT NULL PRIMARY KEY,
  old_kind TEXT NOT NULL,
  new_kind TEXT NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO rekinded_rows (key, old_kind, new_kind)
  SELECT id, kind, 'renew-vault-order' FROM intents
   WHERE kind = 'cancel-vault-order' AND json_type(params, '$.then') = 'object';

-- What an intent is about is immutable (0001_init): the trigger that says so is lifted for this one
-- update, inside the migration's transaction, and put back exactly as it was.
DROP TRIGGER intents_identity_immutable;

UPDATE intents SET kind = 'renew-vault-order' WHERE id IN (SELECT key FROM rekinded_rows);

CREATE TRIGGER intents_identity_immutable
BEFORE UPDATE OF id, strategy, strategy_version, rule, kind, params, created_at ON intents
WHEN OLD.id IS NOT NEW.id OR OLD.strategy IS NOT NEW.strategy OR OLD.strategy_version IS NOT NEW.strategy_version
  OR OLD.rule IS NOT NEW.rule OR OLD.kind IS NOT NEW.kind OR OLD.params IS NOT NEW.params
  OR OLD.created_at IS NOT NEW.created_at
BEGIN
  SELECT RAISE(ABORT, 'intents: id, strategy, rule, kind, params and created_at are immutable');
END;
