-- Tables that failed (could not be loaded, or their bots not prepared) or
-- expired (waiting, nobody joined in time), with the reason; and the player
-- who created each table, for per-player quotas. SQLite cannot change a
-- CHECK constraint in place, so the table is rebuilt (the runner turns
-- foreign keys off around this migration and checks them before commit).
CREATE TABLE tables_new (
	id      TEXT PRIMARY KEY,
	rules   TEXT NOT NULL,            -- JSON rules.Rules
	seats   TEXT NOT NULL,            -- JSON []store.Seat
	seed    TEXT NOT NULL,            -- hex; secret until the game is over
	status  TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'over', 'failed', 'expired')),
	actions INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	winners TEXT,                     -- JSON []int when over
	scores  TEXT,                     -- JSON []int when over
	record  TEXT,                     -- the final record JSON when over
	kind    TEXT NOT NULL DEFAULT '', -- '' ordinary Farkle, 'dragon' Dragon Farkle
	reason  TEXT NOT NULL DEFAULT '', -- why the table failed or expired
	creator TEXT NOT NULL DEFAULT ''  -- the player who created it; '' before this migration
);
INSERT INTO tables_new (id, rules, seats, seed, status, actions, created, updated, winners, scores, record, kind)
	SELECT id, rules, seats, seed, status, actions, created, updated, winners, scores, record, kind FROM tables;
DROP TABLE tables;
ALTER TABLE tables_new RENAME TO tables;
CREATE INDEX tables_status_updated ON tables (status, updated);
CREATE INDEX tables_creator_status ON tables (creator, status);

-- One row rewritten by every health check, to prove that writes work.
CREATE TABLE health (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	n     INTEGER NOT NULL,
	at    INTEGER NOT NULL
);
