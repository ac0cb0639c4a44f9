-- Sign-in ceremonies under way (a passkey's challenge between its begin
-- and its finish), kept in the database so that the finish may reach
-- another node than the begin. Each is taken once.
CREATE TABLE ceremonies (
	key     TEXT PRIMARY KEY,
	data    BLOB NOT NULL,
	expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ceremonies_expires ON ceremonies (expires);
