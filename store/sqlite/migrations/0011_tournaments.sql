-- Tournaments: their settings, entrants (JSON []store.Entrant) and rounds
-- (JSON kept by the server: the pairings, their tables and results).
-- version counts the writes, for optimistic updates.
CREATE TABLE tournaments (
	id       TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	format   TEXT NOT NULL,
	kind     TEXT NOT NULL,
	rules    TEXT NOT NULL,
	pace     TEXT NOT NULL DEFAULT '',
	clock    INTEGER NOT NULL DEFAULT 0,
	rated    INTEGER NOT NULL DEFAULT 0,
	size     INTEGER NOT NULL,
	start    INTEGER NOT NULL DEFAULT 0,
	creator  TEXT NOT NULL,
	status   TEXT NOT NULL CHECK (status IN ('open', 'playing', 'over')),
	reason   TEXT NOT NULL DEFAULT '',
	entrants TEXT NOT NULL,
	state    TEXT NOT NULL,
	version  INTEGER NOT NULL,
	created  INTEGER NOT NULL,
	updated  INTEGER NOT NULL
);
CREATE INDEX tournaments_status_updated ON tournaments (status, updated);
