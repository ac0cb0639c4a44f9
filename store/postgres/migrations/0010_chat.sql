-- The chat of a table, as the SQLite store's migration 0010: short
-- plain-text lines of its players, kept with the table, numbered from 1.
CREATE TABLE chat (
	table_id  TEXT NOT NULL REFERENCES tables (id),
	n         INTEGER NOT NULL,
	player_id TEXT NOT NULL,
	name      TEXT NOT NULL,
	text      TEXT NOT NULL,
	at        BIGINT NOT NULL,
	PRIMARY KEY (table_id, n)
);
