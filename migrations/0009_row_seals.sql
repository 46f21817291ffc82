-- 0009_row_seals: fills, intents and trigger_orders come under the hash chain.
--
-- From this version every write of a row of those tables appends, in the same transaction, an
-- action whose data.sealed holds the row's digest, and `audit verify` compares the tables with the
-- chain (docs/audit.md, "What the chain covers"). Rows written before have no seal: their keys are
-- listed here, and the first writer to open the database after this migration seals them in
-- `audit.sealed` actions and empties this table in the same transaction. A database created by this
-- version has nothing to list, and this table stays empty.
CREATE TABLE unsealed_rows (
  tbl TEXT NOT NULL CHECK (tbl IN ('fills', 'intents', 'trigger_orders')),
  key TEXT NOT NULL,
  PRIMARY KEY (tbl, key)
) STRICT, WITHOUT ROWID;

INSERT INTO unsealed_rows (tbl, key)
  SELECT 'fills', CAST(id AS TEXT) FROM fills
  UNION ALL SELECT 'intents', id FROM intents
  UNION ALL SELECT 'trigger_orders', id FROM trigger_orders;
