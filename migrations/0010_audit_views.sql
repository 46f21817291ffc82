-- 0010_audit_views: views an auditor reads in the sqlite3 shell, in human units (docs/audit.md,
-- "Views"): `trades` (one row per fill), `orders` (one row per Trigger order), `holdings` (the
-- wallet's newest recorded balances). They store nothing: each reads the tables when queried.
--
-- Amounts are decimal text built on the digits (the base units padded with zeros, the point put in,
-- trailing zeros dropped), never through a float: 2500000000 at 9 decimals is '2.5'. A dollar price
-- is an exact long division on the digits, rounded toward zero at 18 places like jupbot's own
-- (`jupbot audit trades --json`). Times are ISO 8601 UTC with milliseconds, as JavaScript writes them.
-- Symbols: the first a strategy pinned for the mint, else SOL, USDC, USDT by their mints, else a
-- prediction contract as `<market> YES|NO`, else the mint itself.
--
-- A migration that rebuilds a table these views read (SQLite's table rebuild drops and renames it)
-- must drop the views first and create them again after: SQLite refuses the rename while a view
-- names a table that is gone.

CREATE VIEW trades AS
WITH RECURSIVE
  pins AS (
    SELECT mint, symbol FROM (
      SELECT mint, symbol, row_number() OVER (PARTITION BY mint ORDER BY pinned_at, strategy, symbol) AS n FROM token_pins
    ) WHERE n = 1
  ),
  -- A fill with one dollar leg is a buy (dollars given) or a sell (dollars received) of the other
  -- token; any other fill is a swap of the token given for the one received.
  sided AS (
    SELECT f.*,
      CASE
        WHEN f.in_mint IN ('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')
         AND f.out_mint NOT IN ('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB') THEN 'buy'
        WHEN f.out_mint IN ('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')
         AND f.in_mint NOT IN ('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB') THEN 'sell'
        ELSE 'swap'
      END AS side
    FROM fills f
  ),
  -- The token bought or sold (a swap: the one given) and what was paid or received for it.
  oriented AS (
    SELECT id, side,
      CASE side WHEN 'buy' THEN out_mint ELSE in_mint END AS token_mint,
      CASE side WHEN 'buy' THEN out_amount ELSE in_amount END AS token_units,
      CASE side WHEN 'buy' THEN out_decimals ELSE in_decimals END AS token_decimals,
      CASE side WHEN 'buy' THEN in_mint ELSE out_mint END AS counter_mint,
      CASE side WHEN 'buy' THEN in_amount ELSE out_amount END AS counter_units,
      CASE side WHEN 'buy' THEN in_decimals ELSE out_decimals END AS counter_decimals
    FROM sided
  ),
  legs (id, role, mint, units, decimals) AS (
    SELECT id, 'token', token_mint, token_units, token_decimals FROM oriented
    UNION ALL SELECT id, 'counter', counter_mint, counter_units, counter_decimals FROM oriented
    UNION ALL SELECT id, 'fee', fee_mint, fee_amount, fee_decimals FROM fills WHERE fee_mint IS NOT NULL
  ),
  padded AS (
    SELECT *, substr(replace(hex(zeroblob(decimals)), '00', '0') || units, -max(length(units), decimals + 1)) AS digits FROM legs
  ),
  named AS (
    SELECT l.id, l.role,
      coalesce(
        CASE WHEN l.mint LIKE 'prediction:%:yes' THEN substr(l.mint, 12, length(l.mint) - 15) || ' YES'
             WHEN l.mint LIKE 'prediction:%:no' THEN substr(l.mint, 12, length(l.mint) - 14) || ' NO' END,
        p.symbol,
        CASE l.mint WHEN 'So11111111111111111111111111111111111111112' THEN 'SOL'
                    WHEN 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' THEN 'USDC'
                    WHEN 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' THEN 'USDT' END,
        l.mint) AS symbol,
      CASE WHEN l.decimals = 0 THEN l.units
           ELSE rtrim(rtrim(substr(l.digits, 1, length(l.digits) - l.decimals) || '.' || substr(l.digits, -l.decimals), '0'), '.') END AS amount
    FROM padded l LEFT JOIN pins p ON p.mint = l.mint
  ),
  -- Dollars per token = dollar units × 10^token decimals ÷ (token units × 10^dollar decimals): the
  -- digits of floor(price × 10^18), one long-division step each (integer part, then `places` digits).
  -- Exact while every product fits SQLite's 64-bit integers: amounts of at most 18 and 17 digits; a
  -- larger fill's price is left NULL (`jupbot audit trades` gives it).
  division (id, step, places, remainder, divisor, digits) AS (
    SELECT id, 0, 18 + token_decimals - counter_decimals,
      CAST(counter_units AS INTEGER) % CAST(token_units AS INTEGER),
      CAST(token_units AS INTEGER),
      CAST(CAST(counter_units AS INTEGER) / CAST(token_units AS INTEGER) AS TEXT)
    FROM oriented
    WHERE side <> 'swap' AND token_units <> '0' AND length(counter_units) <= 18 AND length(token_units) <= 17
      AND 18 + token_decimals - counter_decimals >= 0
    UNION ALL
    SELECT id, step + 1, places, remainder * 10 % divisor, divisor, digits || (remainder * 10 / divisor)
    FROM division WHERE step < places
  ),
  prices AS (
    SELECT id, substr(zeros || whole, -max(length(whole), 19)) AS digits FROM (
      SELECT id, coalesce(nullif(ltrim(digits, '0'), ''), '0') AS whole, replace(hex(zeroblob(18)), '00', '0') AS zeros
      FROM division WHERE step = places
    )
  ),
  planned AS (
    SELECT intent_id, min(id) AS first, json_extract(data, '$.reason') AS reason
    FROM actions WHERE kind = 'intent.planned' AND intent_id IS NOT NULL GROUP BY intent_id
  )
SELECT
  f.id,
  strftime('%Y-%m-%dT%H:%M:%S', f.at / 1000, 'unixepoch') || printf('.%03dZ', f.at % 1000) AS at_utc,
  f.strategy,
  f.source,
  o.side,
  t.symbol AS token,
  t.amount AS token_amount,
  c.symbol AS counter,
  c.amount AS counter_amount,
  rtrim(rtrim(substr(pr.digits, 1, length(pr.digits) - 18) || '.' || substr(pr.digits, -18), '0'), '.') AS price_usd,
  fee.symbol AS fee_token,
  fee.amount AS fee_amount,
  f.signature,
  f.intent_id,
  i.rule,
  pl.reason,
  o.token_mint,
  o.counter_mint
FROM fills f
JOIN oriented o ON o.id = f.id
JOIN named t ON t.id = f.id AND t.role = 'token'
JOIN named c ON c.id = f.id AND c.role = 'counter'
LEFT JOIN named fee ON fee.id = f.id AND fee.role = 'fee'
LEFT JOIN prices pr ON pr.id = f.id
LEFT JOIN intents i ON i.id = f.intent_id
LEFT JOIN planned pl ON pl.intent_id = f.intent_id
ORDER BY f.at, f.id;

CREATE VIEW orders AS
WITH
  pins AS (
    SELECT mint, symbol FROM (
      SELECT mint, symbol, row_number() OVER (PARTITION BY mint ORDER BY pinned_at, strategy, symbol) AS n FROM token_pins
    ) WHERE n = 1
  ),
  legs (id, role, mint, units, decimals) AS (
    SELECT id, 'input', input_mint, input_amount, input_decimals FROM trigger_orders
    UNION ALL SELECT id, 'remaining', input_mint, remaining_input_amount, input_decimals FROM trigger_orders WHERE remaining_input_amount IS NOT NULL
    UNION ALL SELECT id, 'output', output_mint, coalesce(output_amount, '0'), output_decimals FROM trigger_orders
    UNION ALL SELECT id, 'trigger', trigger_mint, '0', 0 FROM trigger_orders WHERE trigger_mint IS NOT NULL
  ),
  padded AS (
    SELECT *, substr(replace(hex(zeroblob(decimals)), '00', '0') || units, -max(length(units), decimals + 1)) AS digits FROM legs
  ),
  named AS (
    SELECT l.id, l.role,
      coalesce(
        p.symbol,
        CASE l.mint WHEN 'So11111111111111111111111111111111111111112' THEN 'SOL'
                    WHEN 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' THEN 'USDC'
                    WHEN 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' THEN 'USDT' END,
        l.mint) AS symbol,
      CASE WHEN l.decimals = 0 THEN l.units
           ELSE rtrim(rtrim(substr(l.digits, 1, length(l.digits) - l.decimals) || '.' || substr(l.digits, -l.decimals), '0'), '.') END AS amount
    FROM padded l LEFT JOIN pins p ON p.mint = l.mint
  )
SELECT
  o.id,
  strftime('%Y-%m-%dT%H:%M:%S', o.created_at / 1000, 'unixepoch') || printf('.%03dZ', o.created_at % 1000) AS created_utc,
  strftime('%Y-%m-%dT%H:%M:%S', o.updated_at / 1000, 'unixepoch') || printf('.%03dZ', o.updated_at % 1000) AS updated_utc,
  CASE WHEN o.expires_at IS NOT NULL
       THEN strftime('%Y-%m-%dT%H:%M:%S', o.expires_at / 1000, 'unixepoch') || printf('.%03dZ', o.expires_at % 1000) END AS expires_utc,
  o.family,
  o.order_type AS type,
  o.state,
  CASE WHEN o.adopted = 1 THEN 'adopted' ELSE o.strategy END AS strategy,
  i.symbol AS input,
  i.amount AS input_amount,
  r.amount AS remaining_input_amount,
  u.symbol AS output,
  CASE WHEN o.output_amount IS NOT NULL THEN u.amount END AS output_amount,
  t.symbol AS trigger_token,
  o.trigger_condition,
  o.trigger_price_usd,
  o.tp_price_usd,
  o.sl_price_usd,
  o.slippage_bps,
  o.trailing_bps,
  o.intent_id,
  o.deposit_signature
FROM trigger_orders o
JOIN named i ON i.id = o.id AND i.role = 'input'
JOIN named u ON u.id = o.id AND u.role = 'output'
LEFT JOIN named r ON r.id = o.id AND r.role = 'remaining'
LEFT JOIN named t ON t.id = o.id AND t.role = 'trigger'
ORDER BY o.created_at, o.id;

CREATE VIEW holdings AS
WITH
  pins AS (
    SELECT mint, symbol FROM (
      SELECT mint, symbol, row_number() OVER (PARTITION BY mint ORDER BY pinned_at, strategy, symbol) AS n FROM token_pins
    ) WHERE n = 1
  ),
  newest AS (SELECT id, data FROM actions WHERE kind = 'wallet.balances' ORDER BY id DESC LIMIT 1),
  held AS (
    SELECT json_extract(b.value, '$.mint') AS mint,
      json_extract(b.value, '$.amount') AS units,
      json_extract(b.value, '$.decimals') AS decimals,
      json_extract(n.data, '$.readAt') AS read_at,
      n.id AS action_id
    FROM newest n, json_each(n.data, '$.balances') b
  ),
  padded AS (
    SELECT *, substr(replace(hex(zeroblob(decimals)), '00', '0') || units, -max(length(units), decimals + 1)) AS digits FROM held
  )
SELECT
  h.mint,
  coalesce(
    p.symbol,
    CASE h.mint WHEN 'So11111111111111111111111111111111111111112' THEN 'SOL'
                WHEN 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' THEN 'USDC'
                WHEN 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' THEN 'USDT' END,
    h.mint) AS symbol,
  CASE WHEN h.decimals = 0 THEN h.units
       ELSE rtrim(rtrim(substr(h.digits, 1, length(h.digits) - h.decimals) || '.' || substr(h.digits, -h.decimals), '0'), '.') END AS amount,
  h.units,
  h.decimals,
  strftime('%Y-%m-%dT%H:%M:%S', h.read_at / 1000, 'unixepoch') || printf('.%03dZ', h.read_at % 1000) AS read_utc,
  h.action_id
FROM padded h LEFT JOIN pins p ON p.mint = h.mint
ORDER BY h.mint;
