-- Local games: a game the web page played by itself (offline or not) and
-- uploaded when it was over, stored whole and over, unrated, in no stats.
ALTER TABLE tables ADD COLUMN local INTEGER NOT NULL DEFAULT 0;
