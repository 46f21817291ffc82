-- 0006_venue_idls: what the daemon learned of Jupiter Aggregator v6's route venues from the program's
-- on-chain IDL, kept so a restart knows them before the node is asked again.
--
-- One row per program: the IDL account it was read from, the program's deploy slot at that read
-- (null when the node would not say), the IDL's `types` as JSON (enough to walk every `Swap` variant
-- the IDL describes), how many `Swap` variants that is, and when it was read (epoch ms).
CREATE TABLE venue_idls (
  program     TEXT    NOT NULL PRIMARY KEY CHECK (length(program) BETWEEN 32 AND 44),
  idl_address TEXT    NOT NULL CHECK (length(idl_address) BETWEEN 32 AND 44),
  deploy_slot INTEGER CHECK (deploy_slot IS NULL OR deploy_slot >= 0),
  types       TEXT    NOT NULL CHECK (json_valid(types)),
  variants    INTEGER NOT NULL CHECK (variants BETWEEN 0 AND 256),
  read_at     INTEGER NOT NULL CHECK (read_at >= 0)
) STRICT;
