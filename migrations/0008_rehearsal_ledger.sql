-- 0008_rehearsal_ledger: what a rehearsal (mode: rehearsal) starts from and what it pays in SOL.
--
-- A rehearsal signs nothing: its trades are filled in its own database at the prices Jupiter quoted,
-- so its balances are a ledger, computed, never read from the chain. The ledger is the opening
-- balances below, plus every fill, less what its simulated vault orders hold, less the network fees
-- its confirmed intents would have paid. The other modes never write these tables.

-- The opening balances, written once when the ledger is first opened: the wallet's real balances
-- then (source 'wallet') or those the config declares (source 'config').
CREATE TABLE rehearsal_opening (
  mint      TEXT    NOT NULL PRIMARY KEY,
  amount    TEXT    NOT NULL CHECK (amount GLOB '[0-9]*' AND amount NOT GLOB '*[^0-9]*'),
  decimals  INTEGER NOT NULL CHECK (decimals BETWEEN 0 AND 255),
  source    TEXT    NOT NULL CHECK (source IN ('wallet', 'config')),
  opened_at INTEGER NOT NULL CHECK (opened_at >= 0)
) STRICT;

-- The SOL network fees (signature, prioritization, rent) a rehearsed intent's answer declared we
-- would pay, in lamports. Written before the intent is confirmed and counted only once it is, so a
-- crash between the two counts nothing, and a retried intent replaces its row rather than adding one.
CREATE TABLE rehearsal_costs (
  intent_id   TEXT    NOT NULL PRIMARY KEY REFERENCES intents (id),
  lamports    TEXT    NOT NULL CHECK (lamports GLOB '[0-9]*' AND lamports NOT GLOB '*[^0-9]*'),
  recorded_at INTEGER NOT NULL CHECK (recorded_at >= 0)
) STRICT;
