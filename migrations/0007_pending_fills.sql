-- 0007_pending_fills: landed transactions whose fill is not known yet.
--
-- A transaction that landed but whose amounts could not be learned (Jupiter's answer lost and the
-- request forgotten, the chain not answering) is confirmed with no fill, and gets a row here in the
-- same transaction. The daemon reads the fill back (the execute answer, then the chain) with backoff
-- until it is known, then deletes the row in the transaction that records the fill. Until then the
-- row is the audit's "fill pending": `jupbot audit trades`, `/status` and the report show it.
CREATE TABLE pending_fills (
  intent_id TEXT    NOT NULL PRIMARY KEY REFERENCES intents (id),
  since     INTEGER NOT NULL CHECK (since >= 0),
  attempts  INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_at   INTEGER NOT NULL CHECK (next_at >= 0),
  reason    TEXT    NOT NULL
) STRICT;

CREATE INDEX pending_fills_next ON pending_fills (next_at);
