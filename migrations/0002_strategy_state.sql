-- 0002_strategy_state: what only the decide loop knows of a strategy, kept across restarts.
--
-- The journal says what a strategy DID; this row keeps what it SAW: when it first ran (a schedule
-- counts missed runs from there), the last scheduled instant it accounted for (run, skipped or held),
-- and for the current arming generation the reference price and amount fixed at arming plus the
-- highest price seen (trailing stops, ratchets) and each prediction position's highest sell price.
-- Without it a restart re-based "+20%" levels on the price at restart and forgot every peak.
-- One row per strategy name; `state` is canonical JSON (docs/audit.md), prices as decimal text,
-- amounts as base-unit text. Arming itself is also an action (kind strategy.armed) in the audit log.
CREATE TABLE strategy_state (
  strategy   TEXT    PRIMARY KEY CHECK (length(strategy) BETWEEN 1 AND 200),
  state      TEXT    NOT NULL CHECK (json_valid(state)),
  updated_at INTEGER NOT NULL CHECK (updated_at >= 0)
) STRICT;
