-- The schema of the web game, as the SQLite store's migrations 0001 to
-- 0005 leave it: guest players, tables of any kind of game with their
-- rules and secret seed, every action in order, the results of finished
-- games, and the one row rewritten by health checks. Times are Unix
-- nanoseconds, as in SQLite, so a copy between the two keeps them exactly.
-- JSON the game wrote (rules, actions, records) is kept as text, byte for
-- byte; the seats are jsonb, searched by player.
CREATE TABLE players (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	created    BIGINT NOT NULL
);

CREATE TABLE tables (
	id      TEXT PRIMARY KEY,
	kind    TEXT NOT NULL,            -- game.Kind: 'farkle', 'dragon'
	rules   TEXT NOT NULL,            -- the variant's rules JSON (game.Variant.Rules)
	seats   JSONB NOT NULL,           -- []store.Seat
	seed    TEXT NOT NULL,            -- hex; secret until the game is over
	status  TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'over', 'failed', 'expired')),
	actions INTEGER NOT NULL DEFAULT 0,
	created BIGINT NOT NULL,
	updated BIGINT NOT NULL,
	winners TEXT,                     -- JSON []int when over
	scores  TEXT,                     -- JSON []int when over
	record  TEXT,                     -- the final record JSON when over
	reason  TEXT NOT NULL DEFAULT '', -- why the table failed or expired
	creator TEXT NOT NULL DEFAULT ''  -- the player who created it
);
CREATE INDEX tables_status_updated ON tables (status, updated);
CREATE INDEX tables_creator_status ON tables (creator, status);
CREATE INDEX tables_seats ON tables USING gin (seats jsonb_path_ops);

-- The unique (table_id, n) is what serializes the actions of a table over
-- every node: of two nodes writing action n, one fails.
CREATE TABLE actions (
	table_id TEXT NOT NULL REFERENCES tables (id),
	n        INTEGER NOT NULL,         -- 1 for the first action
	entry    TEXT NOT NULL,            -- the variant's record entry JSON
	PRIMARY KEY (table_id, n)
);

CREATE TABLE results (
	table_id   TEXT NOT NULL REFERENCES tables (id),
	seat       INTEGER NOT NULL,
	player_key TEXT NOT NULL,
	name       TEXT NOT NULL,
	score      INTEGER NOT NULL,
	won        BOOLEAN NOT NULL,
	turns      INTEGER NOT NULL,
	farkles    INTEGER NOT NULL,
	banked     INTEGER NOT NULL,
	best_turn  INTEGER NOT NULL,
	penalties  INTEGER NOT NULL,
	finished   BIGINT NOT NULL,
	PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_player ON results (player_key, finished);

CREATE TABLE health (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	n  BIGINT NOT NULL,
	at BIGINT NOT NULL
);
