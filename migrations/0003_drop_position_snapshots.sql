-- 0003_drop_position_snapshots: the table of polled prediction positions is dropped.
--
-- Nothing ever wrote or read it: an exit is explained by its `intent.planned` action, which carries
-- the position, market and score the rule fired on, and the positions feed is recorded by its
-- `feed.*` actions. An empty table only suggested evidence that did not exist.
DROP INDEX position_snapshots_market;
DROP INDEX position_snapshots_position;
DROP TABLE position_snapshots;
