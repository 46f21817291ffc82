-- 0013_protections: what the account-wide protections (config `protections:`) must remember across
-- a restart.
--
-- The equity peak: `max_drawdown` measures a drop from the highest equity seen, and a restart must
-- not forget it (a drop that began before the restart would otherwise start again from zero). One
-- row per figure; only the peak is kept, not its history (the audit log has the trips).
CREATE TABLE protection_peaks (
  name    TEXT    NOT NULL PRIMARY KEY,
  -- Dollars, decimal text with up to 18 places (exact, never a float).
  usd     TEXT    NOT NULL CHECK (usd GLOB '[0-9]*' AND usd NOT GLOB '*[^0-9.]*'),
  at      INTEGER NOT NULL CHECK (at >= 0)
) STRICT;

-- Every trip, active or cleared. A trip is active while `cleared_at` is null; a cleared one is kept
-- so that the same trip is never recorded twice (a restart on the same day finds today's daily-loss
-- trip; a cooldown's trip is known by the instant of the exit that started it). `data` is the
-- trip's figures as the `protection.tripped` action recorded them (JSON).
CREATE TABLE protection_trips (
  name       TEXT    NOT NULL,
  since      INTEGER NOT NULL CHECK (since >= 0),
  pauses     TEXT    NOT NULL CHECK (pauses IN ('buying', 'all')),
  data       TEXT    NOT NULL CHECK (json_valid(data)),
  cleared_at INTEGER CHECK (cleared_at IS NULL OR cleared_at >= 0),
  cleared_by TEXT,
  PRIMARY KEY (name, since)
) STRICT;
