-- 0004_price_samples: the prices the daemon polls, kept so every run builds its own history.
--
-- One row per token (its mint) per sampling interval (`history.sample_every`): `at` is the start of
-- the interval in epoch ms, and the first price polled in it is kept (INSERT OR IGNORE). Prices are
-- decimal text as the API gave them, like every amount in this database; rows older than
-- `history.keep` are deleted by the daemon.
CREATE TABLE price_samples (
  mint TEXT    NOT NULL CHECK (length(mint) BETWEEN 1 AND 100),
  at   INTEGER NOT NULL CHECK (at >= 0),
  usd  TEXT    NOT NULL CHECK (usd GLOB '[0-9]*' AND usd NOT GLOB '*[^0-9.]*'),
  PRIMARY KEY (mint, at)
) STRICT, WITHOUT ROWID;

CREATE INDEX price_samples_at ON price_samples (at);
