-- Glicko-2 ratings per rule family (package rating): each player's current
-- rating, and every rated game's change for the history and the game-over
-- screen. Players are keyed as in results (a person's ID, "bot:LEVEL").
-- Tables get a rated flag: house rules are rated only when their creator
-- asks.
CREATE TABLE ratings (
	family     TEXT NOT NULL,
	player_key TEXT NOT NULL,
	name       TEXT NOT NULL,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (family, player_key)
);
CREATE INDEX ratings_family_rating ON ratings (family, rating);

CREATE TABLE rating_changes (
	table_id          TEXT NOT NULL REFERENCES tables (id),
	player_key        TEXT NOT NULL,
	family            TEXT NOT NULL,
	name              TEXT NOT NULL,
	before_rating     REAL NOT NULL,
	before_deviation  REAL NOT NULL,
	before_volatility REAL NOT NULL,
	rating            REAL NOT NULL,
	deviation         REAL NOT NULL,
	volatility        REAL NOT NULL,
	games             INTEGER NOT NULL, -- the player's rated games before this one
	fixed             INTEGER NOT NULL,
	at                INTEGER NOT NULL,
	PRIMARY KEY (table_id, player_key)
);
CREATE INDEX rating_changes_player ON rating_changes (player_key, family, at);

ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
