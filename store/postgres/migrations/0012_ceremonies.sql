-- Sign-in ceremonies under way, as the SQLite store's migration 0012: a
-- passkey's challenge between its begin and its finish, kept in the
-- database so that the finish may reach another node than the begin.
-- Each is taken once.
CREATE TABLE ceremonies (
	key     TEXT PRIMARY KEY,
	data    BYTEA NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX ceremonies_expires ON ceremonies (expires);
