-- The tournament a table's game is played for ('' for none), so that a
-- game's page, live or replayed, links back to its tournament.
ALTER TABLE tables ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
