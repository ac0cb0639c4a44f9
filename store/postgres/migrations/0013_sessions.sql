-- Every token is a session, as the SQLite store's migration 0013 has it: a
-- guest's token (until now only players.token_hash) as much as an
-- account's sign-in is a row of sessions, with an ID to name it, when it
-- was last seen and on what device, so that each can be listed and ended.
-- The tokens of existing guests and accounts become sessions here and
-- keep working. players.token_hash stays the hash of the token the player
-- was made with, or 'ended:' || id once that token's session has ended.
CREATE TABLE sessions_new (
	token_hash TEXT PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	player_id  TEXT NOT NULL REFERENCES players (id),
	created    BIGINT NOT NULL,
	last_seen  BIGINT NOT NULL,
	device     TEXT NOT NULL DEFAULT ''
);
INSERT INTO sessions_new (token_hash, id, player_id, created, last_seen)
	SELECT token_hash, substr(md5(random()::text || token_hash), 1, 18), player_id, created, created FROM sessions;
INSERT INTO sessions_new (token_hash, id, player_id, created, last_seen)
	SELECT token_hash, substr(md5(random()::text || token_hash), 1, 18), id, created, created FROM players
	WHERE token_hash NOT IN (SELECT token_hash FROM sessions_new);
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
ALTER INDEX sessions_new_pkey RENAME TO sessions_pkey;
ALTER INDEX sessions_new_id_key RENAME TO sessions_id_key;
CREATE INDEX sessions_player ON sessions (player_id, last_seen);

-- Passkey ceremonies hold no state any more: a begin hands out a challenge
-- signed with the server's secret (secrets), and a finish records the
-- challenge it spent (spent_challenges) until it expires, so that an
-- answer counts once. owner is the account that answered.
DROP TABLE ceremonies;
CREATE TABLE spent_challenges (
	key     TEXT PRIMARY KEY,
	owner   TEXT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX spent_challenges_owner ON spent_challenges (owner, expires);
CREATE INDEX spent_challenges_expires ON spent_challenges (expires);

CREATE TABLE secrets (
	name  TEXT PRIMARY KEY,
	value BYTEA NOT NULL
);

-- The skeletons of an account's name (store.NameLooks), as in SQLite:
-- filled in by the store when it opens for accounts made before; not
-- UNIQUE, as names made before may share one.
ALTER TABLE accounts ADD COLUMN skeleton TEXT;
ALTER TABLE accounts ADD COLUMN skeleton_upper TEXT;
CREATE INDEX accounts_skeleton ON accounts (skeleton);
CREATE INDEX accounts_skeleton_upper ON accounts (skeleton_upper);
