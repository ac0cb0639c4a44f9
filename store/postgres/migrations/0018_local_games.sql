-- Local games, as the SQLite store's migration 0013: a game the web page
-- played by itself (offline or not) and uploaded when it was over, stored
-- whole and over, unrated, in no stats.
ALTER TABLE tables ADD COLUMN local BOOLEAN NOT NULL DEFAULT false;
