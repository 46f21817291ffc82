-- 0012_control_state: the operator's hands on the wheel, kept across restarts.
--
-- `control_halt` holds at most one row: the daemon is halted (no strategy decides) since `since`,
-- why, who asked, and whether every live vault and DCA order of ours is being cancelled and every
-- prediction position sold. A resume deletes the row. `control_paused` holds one row per paused
-- strategy. Every change is written in one transaction with the `control.*` audit action that says
-- who asked and when: these tables are the current state, the audit log is its history.
CREATE TABLE control_halt (
  id              INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
  since           INTEGER NOT NULL,
  reason          TEXT    NOT NULL,
  by              TEXT    NOT NULL,
  cancel_orders   INTEGER NOT NULL CHECK (cancel_orders IN (0, 1)),
  close_positions INTEGER NOT NULL CHECK (close_positions IN (0, 1))
) STRICT;

CREATE TABLE control_paused (
  strategy TEXT    NOT NULL PRIMARY KEY,
  since    INTEGER NOT NULL,
  reason   TEXT    NOT NULL,
  by       TEXT    NOT NULL
) STRICT, WITHOUT ROWID;
