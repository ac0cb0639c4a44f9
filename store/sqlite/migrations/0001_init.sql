-- The first schema of the web game.
CREATE TABLE players (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	created    INTEGER NOT NULL
);

CREATE TABLE tables (
	id      TEXT PRIMARY KEY,
	rules   TEXT NOT NULL,            -- JSON rules.Rules
	seats   TEXT NOT NULL,            -- JSON []store.Seat
	seed    TEXT NOT NULL,            -- hex; secret until the game is over
	status  TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'over')),
	actions INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	winners TEXT,                     -- JSON []int when over
	scores  TEXT,                     -- JSON []int when over
	record  TEXT                      -- the final record JSON when over
);
CREATE INDEX tables_status_updated ON tables (status, updated);

CREATE TABLE actions (
	table_id TEXT NOT NULL REFERENCES tables (id),
	n        INTEGER NOT NULL,         -- 1 for the first action
	entry    TEXT NOT NULL,            -- JSON record.Entry
	PRIMARY KEY (table_id, n)
) WITHOUT ROWID;

CREATE TABLE results (
	table_id   TEXT NOT NULL REFERENCES tables (id),
	seat       INTEGER NOT NULL,
	player_key TEXT NOT NULL,
	name       TEXT NOT NULL,
	score      INTEGER NOT NULL,
	won        INTEGER NOT NULL,
	turns      INTEGER NOT NULL,
	farkles    INTEGER NOT NULL,
	banked     INTEGER NOT NULL,
	best_turn  INTEGER NOT NULL,
	penalties  INTEGER NOT NULL,
	finished   INTEGER NOT NULL,
	PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_player ON results (player_key, finished);
