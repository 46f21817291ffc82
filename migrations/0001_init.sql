-- 0001_init: the daemon's first schema. Forward only: never edit this file once released;
-- change the schema with 0002_….sql. docs/audit.md describes every table and column.
--
-- Conventions (rules of the house 3 and 4):
--   * times are UTC epoch milliseconds (INTEGER), bound from the injected Clock, never CURRENT_TIMESTAMP;
--   * token amounts are integer base units stored as TEXT (u64 exceeds 2^53), always next to their
--     mint and decimals; prices are decimal TEXT; prediction money is micro-USD TEXT (1000000 = $1);
--   * JSON columns hold canonical JSON (sorted keys, no whitespace) and must be json_valid;
--   * every table is STRICT, so a wrong type is an error instead of a silent conversion.

-- One row per distinct YAML text a strategy ran with. Re-applying an earlier text reuses its row;
-- every activation is also an action (kind strategy.version) in the audit log.
CREATE TABLE strategy_versions (
  id          INTEGER PRIMARY KEY,
  strategy    TEXT    NOT NULL CHECK (length(strategy) BETWEEN 1 AND 200),
  version     INTEGER NOT NULL CHECK (version >= 1),
  yaml_sha256 TEXT    NOT NULL CHECK (length(yaml_sha256) = 64 AND yaml_sha256 NOT GLOB '*[^0-9a-f]*'),
  yaml        TEXT    NOT NULL,
  source_file TEXT    NOT NULL,
  applied_at  INTEGER NOT NULL CHECK (applied_at >= 0),
  UNIQUE (strategy, yaml_sha256),
  UNIQUE (strategy, version)
) STRICT;

-- The write-ahead intent journal (rule 1: persist before you act). The executor writes a row in
-- state 'planned' before any call, stores the signed bytes and signature ('signed') before sending,
-- and moves it along the transitions enforced by the trigger below:
--
--   planned -> signed | sent | failed | cancelled   (sent without signing: e.g. a PATCH of an order)
--   signed  -> sent | confirmed | failed | expired | cancelled
--                                  (confirmed straight from signed: reconcile found the signature landed
--                                   although the send call's answer was lost)
--   sent    -> confirmed | failed | expired
--   expired -> planned            (re-armed only once the blockhash is provably dead: block height past
--                                  last_valid_block_height and the signature unknown; attempts + 1)
--   confirmed, failed, cancelled are final.
CREATE TABLE intents (
  id                      TEXT    PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  strategy                TEXT,
  strategy_version        INTEGER,
  rule                    TEXT,
  kind                    TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 64 AND kind GLOB '[a-z]*' AND kind NOT GLOB '*[^a-z0-9._-]*'),
  params                  TEXT    NOT NULL CHECK (json_valid(params)),
  state                   TEXT    NOT NULL DEFAULT 'planned'
                                  CHECK (state IN ('planned', 'signed', 'sent', 'confirmed', 'failed', 'expired', 'cancelled')),
  signed_tx               BLOB,
  signature               TEXT    UNIQUE,
  blockhash               TEXT,
  last_valid_block_height INTEGER CHECK (last_valid_block_height IS NULL OR last_valid_block_height >= 0),
  request_id              TEXT,
  deposit_request_id      TEXT,
  cancel_request_id       TEXT,
  order_id                TEXT,
  attempts                INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  error_code              TEXT,
  error_message           TEXT,
  created_at              INTEGER NOT NULL CHECK (created_at >= 0),
  updated_at              INTEGER NOT NULL CHECK (updated_at >= 0),
  -- A signed intent must carry what is needed to re-send it or to look it up on chain.
  CHECK (state <> 'signed' OR (signed_tx IS NOT NULL AND signature IS NOT NULL)),
  CHECK (strategy_version IS NULL OR strategy IS NOT NULL),
  FOREIGN KEY (strategy, strategy_version) REFERENCES strategy_versions (strategy, version)
) STRICT;

-- Startup reconcile reads the non-final intents: keep that query an index scan.
CREATE INDEX intents_pending ON intents (state, updated_at) WHERE state IN ('planned', 'signed', 'sent', 'expired');
CREATE INDEX intents_strategy ON intents (strategy, created_at);
CREATE INDEX intents_order ON intents (order_id) WHERE order_id IS NOT NULL;

CREATE TRIGGER intents_state_transition
BEFORE UPDATE OF state ON intents
WHEN OLD.state <> NEW.state AND NOT (
     (OLD.state = 'planned' AND NEW.state IN ('signed', 'sent', 'failed', 'cancelled'))
  OR (OLD.state = 'signed'  AND NEW.state IN ('sent', 'confirmed', 'failed', 'expired', 'cancelled'))
  OR (OLD.state = 'sent'    AND NEW.state IN ('confirmed', 'failed', 'expired'))
  OR (OLD.state = 'expired' AND NEW.state = 'planned')
)
BEGIN
  SELECT RAISE(ABORT, 'intents: illegal state transition');
END;

-- What an intent is about never changes after it is planned; only its progress does.
CREATE TRIGGER intents_identity_immutable
BEFORE UPDATE OF id, strategy, strategy_version, rule, kind, params, created_at ON intents
WHEN OLD.id IS NOT NEW.id OR OLD.strategy IS NOT NEW.strategy OR OLD.strategy_version IS NOT NEW.strategy_version
  OR OLD.rule IS NOT NEW.rule OR OLD.kind IS NOT NEW.kind OR OLD.params IS NOT NEW.params
  OR OLD.created_at IS NOT NEW.created_at
BEGIN
  SELECT RAISE(ABORT, 'intents: id, strategy, rule, kind, params and created_at are immutable');
END;

CREATE TRIGGER intents_no_delete
BEFORE DELETE ON intents
BEGIN
  SELECT RAISE(ABORT, 'intents: rows are never deleted');
END;

-- Mirror of Trigger V2 vault orders (price and DCA), including orders placed outside the daemon
-- (adopted = 1: found in /orders/history but unknown to this database). Updated on every poll;
-- state is our normalised state, raw_state what the API said.
CREATE TABLE trigger_orders (
  id                     TEXT    PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  intent_id              TEXT    REFERENCES intents (id),
  strategy               TEXT,
  adopted                INTEGER NOT NULL DEFAULT 0 CHECK (adopted IN (0, 1)),
  family                 TEXT    NOT NULL CHECK (family IN ('price', 'dca')),
  order_type             TEXT    NOT NULL CHECK (order_type IN ('single', 'oco', 'otoco', 'time_based', 'price_conditional')),
  state                  TEXT    NOT NULL CHECK (state IN ('pending', 'open', 'active', 'executing', 'filled', 'completed',
                                                           'pending_withdraw', 'cancelled', 'expired', 'failed', 'unknown')),
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

-- Renewal before expiry and reconcile both scan the live orders.
CREATE INDEX trigger_orders_live ON trigger_orders (state, expires_at)
  WHERE state IN ('pending', 'open', 'active', 'executing', 'pending_withdraw', 'unknown');
CREATE INDEX trigger_orders_strategy ON trigger_orders (strategy, created_at);
CREATE INDEX trigger_orders_intent ON trigger_orders (intent_id) WHERE intent_id IS NOT NULL;

-- Executed trades, one row per (transaction signature, instruction/event index): replaying a poll
-- or a restart inserts with ON CONFLICT DO NOTHING and can never double-count (peer lesson 6).
CREATE TABLE fills (
  id               INTEGER PRIMARY KEY,
  signature        TEXT    NOT NULL,
  idx              INTEGER NOT NULL CHECK (idx >= 0),
  source           TEXT    NOT NULL CHECK (source IN ('swap', 'trigger', 'dca', 'prediction')),
  strategy         TEXT,
  intent_id        TEXT    REFERENCES intents (id),
  trigger_order_id TEXT    REFERENCES trigger_orders (id),
  position_pubkey  TEXT,
  in_mint          TEXT    NOT NULL,
  in_amount        TEXT    NOT NULL CHECK (in_amount GLOB '[0-9]*' AND in_amount NOT GLOB '*[^0-9]*'),
  in_decimals      INTEGER NOT NULL CHECK (in_decimals BETWEEN 0 AND 255),
  out_mint         TEXT    NOT NULL,
  out_amount       TEXT    NOT NULL CHECK (out_amount GLOB '[0-9]*' AND out_amount NOT GLOB '*[^0-9]*'),
  out_decimals     INTEGER NOT NULL CHECK (out_decimals BETWEEN 0 AND 255),
  fee_mint         TEXT,
  fee_amount       TEXT    CHECK (fee_amount IS NULL OR (fee_amount GLOB '[0-9]*' AND fee_amount NOT GLOB '*[^0-9]*')),
  fee_decimals     INTEGER CHECK (fee_decimals IS NULL OR fee_decimals BETWEEN 0 AND 255),
  raw              TEXT    CHECK (raw IS NULL OR json_valid(raw)),
  at               INTEGER NOT NULL CHECK (at >= 0),
  recorded_at      INTEGER NOT NULL CHECK (recorded_at >= 0),
  UNIQUE (signature, idx),
  CHECK ((fee_amount IS NULL) = (fee_mint IS NULL) AND (fee_amount IS NULL) = (fee_decimals IS NULL))
) STRICT;

CREATE INDEX fills_in_mint ON fills (in_mint, at);
CREATE INDEX fills_out_mint ON fills (out_mint, at);
CREATE INDEX fills_strategy ON fills (strategy, at);
CREATE INDEX fills_intent ON fills (intent_id) WHERE intent_id IS NOT NULL;
CREATE INDEX fills_trigger_order ON fills (trigger_order_id) WHERE trigger_order_id IS NOT NULL;

-- Prediction positions as polled. A new row only when something changed is the writer's policy;
-- the table keeps history so exits can be explained (what the price was when a rule fired).
CREATE TABLE position_snapshots (
  id                    INTEGER PRIMARY KEY,
  position_pubkey       TEXT    NOT NULL,
  market_id             TEXT    NOT NULL,
  event_id              TEXT,
  is_yes                INTEGER NOT NULL CHECK (is_yes IN (0, 1)),
  contracts_micro       TEXT    NOT NULL CHECK (contracts_micro GLOB '[0-9]*' AND contracts_micro NOT GLOB '*[^0-9]*'),
  avg_price_micro_usd   TEXT    CHECK (avg_price_micro_usd IS NULL OR (avg_price_micro_usd GLOB '[0-9]*' AND avg_price_micro_usd NOT GLOB '*[^0-9]*')),
  mark_price_micro_usd  TEXT    CHECK (mark_price_micro_usd IS NULL OR (mark_price_micro_usd GLOB '[0-9]*' AND mark_price_micro_usd NOT GLOB '*[^0-9]*')),
  sell_price_micro_usd  TEXT    CHECK (sell_price_micro_usd IS NULL OR (sell_price_micro_usd GLOB '[0-9]*' AND sell_price_micro_usd NOT GLOB '*[^0-9]*')),
  total_cost_micro_usd  TEXT    CHECK (total_cost_micro_usd IS NULL OR (total_cost_micro_usd GLOB '[0-9]*' AND total_cost_micro_usd NOT GLOB '*[^0-9]*')),
  value_micro_usd       TEXT    CHECK (value_micro_usd IS NULL OR (value_micro_usd GLOB '[0-9]*' AND value_micro_usd NOT GLOB '*[^0-9]*')),
  -- Profit and loss can be negative: an optional '-' then digits.
  pnl_micro_usd         TEXT    CHECK (pnl_micro_usd IS NULL OR ((pnl_micro_usd GLOB '[0-9]*' OR pnl_micro_usd GLOB '-[0-9]*') AND substr(pnl_micro_usd, 2) NOT GLOB '*[^0-9]*')),
  claimable             INTEGER NOT NULL DEFAULT 0 CHECK (claimable IN (0, 1)),
  claimed               INTEGER NOT NULL DEFAULT 0 CHECK (claimed IN (0, 1)),
  raw                   TEXT    NOT NULL CHECK (json_valid(raw)),
  at                    INTEGER NOT NULL CHECK (at >= 0)
) STRICT;

CREATE INDEX position_snapshots_position ON position_snapshots (position_pubkey, at);
CREATE INDEX position_snapshots_market ON position_snapshots (market_id, at);

-- A symbol in a strategy file resolves to a mint once and stays pinned: a new token taking the same
-- symbol later cannot silently redirect a strategy's money.
CREATE TABLE token_pins (
  strategy  TEXT    NOT NULL,
  symbol    TEXT    NOT NULL CHECK (length(symbol) BETWEEN 1 AND 64),
  mint      TEXT    NOT NULL CHECK (length(mint) BETWEEN 32 AND 44),
  decimals  INTEGER NOT NULL CHECK (decimals BETWEEN 0 AND 255),
  pinned_at INTEGER NOT NULL CHECK (pinned_at >= 0),
  PRIMARY KEY (strategy, symbol)
) STRICT;

-- The append-only, hash-chained audit log. hash = sha256(prev_hash || canonical row encoding); the
-- exact definition is in docs/audit.md and src/store/actionRow.ts. AUTOINCREMENT (not plain rowid)
-- so ids are never reused and sqlite_sequence remembers the highest id ever written: that is how
-- `audit verify` detects rows deleted from the tail.
CREATE TABLE actions (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  at         INTEGER NOT NULL CHECK (at >= 0),
  kind       TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 64 AND kind GLOB '[a-z]*' AND kind NOT GLOB '*[^a-z0-9._-]*'),
  strategy   TEXT,
  intent_id  TEXT,
  mint       TEXT,
  -- Base units; may be negative (a signed delta). Canonical: no '+', no leading zeros, no '-0'.
  amount     TEXT    CHECK (amount IS NULL OR (
                       (amount GLOB '[0-9]*' OR amount GLOB '-[1-9]*')
                       AND substr(amount, 2) NOT GLOB '*[^0-9]*'
                       AND (amount = '0' OR amount NOT GLOB '0*'))),
  decimals   INTEGER CHECK (decimals IS NULL OR decimals BETWEEN 0 AND 255),
  signature  TEXT,
  data       TEXT    NOT NULL CHECK (json_valid(data)),
  prev_hash  TEXT    NOT NULL CHECK (length(prev_hash) = 64 AND prev_hash NOT GLOB '*[^0-9a-f]*'),
  hash       TEXT    NOT NULL CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
  CHECK (amount IS NULL OR (mint IS NOT NULL AND decimals IS NOT NULL)),
  CHECK (decimals IS NULL OR mint IS NOT NULL)
) STRICT;

-- One index only: every index is one more page written per commit, and this table takes every
-- write the daemon makes. Time ranges (audit actions --since/--until, and kind/strategy filters
-- within them) use it; intents, fills and trigger_orders carry the per-intent, per-signature and
-- per-mint indexes. An auditor who needs more indexes adds them to a copy (docs/audit.md).
CREATE INDEX actions_at ON actions (at);

-- These stop accidents, not a determined tamperer (who can drop them): the hash chain detects that.
CREATE TRIGGER actions_no_update
BEFORE UPDATE ON actions
BEGIN
  SELECT RAISE(ABORT, 'actions is append-only');
END;

CREATE TRIGGER actions_no_delete
BEFORE DELETE ON actions
BEGIN
  SELECT RAISE(ABORT, 'actions is append-only');
END;

-- The chain can never fork or reuse an id: a new row must take the id after the highest ever used
-- (sqlite_sequence) and link to the current last row (or to the genesis value when the table is
-- empty), whichever connection or process writes it. Writers therefore supply the id explicitly.
CREATE TRIGGER actions_chain_link
BEFORE INSERT ON actions
WHEN NEW.id IS NOT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'actions'), 0) + 1
  OR NEW.prev_hash IS NOT coalesce(
       (SELECT hash FROM actions ORDER BY id DESC LIMIT 1),
       '0000000000000000000000000000000000000000000000000000000000000000')
BEGIN
  SELECT RAISE(ABORT, 'actions: chain head moved (a new row needs id = highest id ever used + 1 and prev_hash = hash of the last row)');
END;
