-- The tournament a table's game is played for ('' for none), as the SQLite
-- store's migration 0022: a game's page links back to its tournament.
ALTER TABLE tables ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
