-- The chat of a table: short plain-text lines of its players, kept with
-- the table, numbered from 1.
CREATE TABLE chat (
	table_id  TEXT NOT NULL REFERENCES tables (id),
	n         INTEGER NOT NULL,
	player_id TEXT NOT NULL,
	name      TEXT NOT NULL,
	text      TEXT NOT NULL,
	at        INTEGER NOT NULL,
	PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
