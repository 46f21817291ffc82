-- 0005_order_gone: a mirrored vault order can be `gone` — the Trigger API no longer knows it.
--
-- An order of ours that order history stopped listing (absent from consecutive reads and from a
-- complete read of every page) is marked `gone` by the order sync; the `order.gone` action holds the
-- evidence and what the vault still held. SQLite cannot change a CHECK constraint in place, so the
-- table is rebuilt as SQLite documents it: a new table, the rows copied, the old one dropped, the new
-- one renamed, its indexes made again. `fills.trigger_order_id` names the table, not its storage, so
-- it points at the rebuilt one. The runner turns foreign key enforcement off for this file (the line
-- below) and checks every foreign key before it commits.
--
-- jupbot-migration: foreign-keys-off
CREATE TABLE trigger_orders_0005 (
  id                     TEXT    PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  intent_id              TEXT    REFERENCES intents (id),
  strategy               TEXT,
  adopted                INTEGER NOT NULL DEFAULT 0 CHECK (adopted IN (0, 1)),
  family                 TEXT    NOT NULL CHECK (family IN ('price', 'dca')),
  order_type             TEXT    NOT NULL CHECK (order_type IN ('single', 'oco', 'otoco', 'time_based', 'price_conditional')),
  state                  TEXT    NOT NULL CHECK (state IN ('pending', 'open', 'active', 'executing', 'filled', 'completed',
                                                           'pending_withdraw', 'cancelled', 'expired', 'failed', 'gone', 'unknown')),
  raw_state              TEXT,
  input_mint             TEXT    NOT NULL,
  input_decimals         INTEGER NOT NULL CHECK (input_decimals BETWEEN 0 AND 255),
  output_mint            TEXT    NOT NULL,
  output_decimals        INTEGER NOT NULL CHECK (output_decimals BETWEEN 0 AND 255),
  input_amount           TEXT    NOT NULL CHECK (input_amount GLOB '[0-9]*' AND input_amount NOT GLOB '*[^0-9]*'),
  remaining_input_amount TEXT    CHECK (remaining_input_amount IS NULL OR (remaining_input_amount GLOB '[0-9]*' AND remaining_input_amount NOT GLOB '*[^0-9]*')),
  input_used             TEXT    CHECK (input_used IS NULL OR (input_used GLOB '[0-9]*' AND input_used NOT GLOB '*[^0-9]*')),
  output_amount          TEXT    CHECK (output_amount IS NULL OR (output_amount GLOB '[0-9]*' AND output_amount NOT GLOB '*[^0-9]*')),
  trigger_mint           TEXT,
  trigger_condition      TEXT    CHECK (trigger_condition IS NULL OR trigger_condition IN ('above', 'below')),
  trigger_price_usd      TEXT    CHECK (trigger_price_usd IS NULL OR (trigger_price_usd GLOB '[0-9]*' AND trigger_price_usd NOT GLOB '*[^0-9.]*')),
  tp_price_usd           TEXT    CHECK (tp_price_usd IS NULL OR (tp_price_usd GLOB '[0-9]*' AND tp_price_usd NOT GLOB '*[^0-9.]*')),
  sl_price_usd           TEXT    CHECK (sl_price_usd IS NULL OR (sl_price_usd GLOB '[0-9]*' AND sl_price_usd NOT GLOB '*[^0-9.]*')),
  slippage_bps           INTEGER CHECK (slippage_bps IS NULL OR slippage_bps BETWEEN 0 AND 10000),
  trailing_bps           INTEGER CHECK (trailing_bps IS NULL OR trailing_bps BETWEEN 50 AND 9000),
  expires_at             INTEGER CHECK (expires_at IS NULL OR expires_at >= 0),
  deposit_signature      TEXT,
  raw                    TEXT    NOT NULL CHECK (json_valid(raw)),
  created_at             INTEGER NOT NULL CHECK (created_at >= 0),
  updated_at             INTEGER NOT NULL CHECK (updated_at >= 0),
  first_seen_at          INTEGER NOT NULL CHECK (first_seen_at >= 0),
  last_synced_at         INTEGER NOT NULL CHECK (last_synced_at >= 0)
) STRICT;

INSERT INTO trigger_orders_0005 SELECT * FROM trigger_orders;
DROP TABLE trigger_orders;
ALTER TABLE trigger_orders_0005 RENAME TO trigger_orders;

CREATE INDEX trigger_orders_live ON trigger_orders (state, expires_at)
  WHERE state IN ('pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown');
CREATE INDEX trigger_orders_strategy ON trigger_orders (strategy, created_at);
CREATE INDEX trigger_orders_intent ON trigger_orders (intent_id) WHERE intent_id IS NOT NULL;
