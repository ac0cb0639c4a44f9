-- Every token is a session. Until now a guest's token lived only in
-- players.token_hash and an account's sign-ins in sessions; now every
-- token a player acts with, a guest's as much as a sign-in's, is a row of
-- sessions (with an ID to name it, when it was last seen and on what
-- device), so that each can be listed and ended. The tokens of existing
-- guests and accounts become sessions here and keep working.
-- players.token_hash stays the hash of the token the player was made with,
-- or 'ended:' || id once that token's session has ended.
CREATE TABLE sessions_new (
	token_hash TEXT PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	player_id  TEXT NOT NULL REFERENCES players (id),
	created    INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL,
	device     TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
INSERT INTO sessions_new (token_hash, id, player_id, created, last_seen)
	SELECT token_hash, lower(hex(randomblob(9))), player_id, created, created FROM sessions;
INSERT INTO sessions_new (token_hash, id, player_id, created, last_seen)
	SELECT token_hash, lower(hex(randomblob(9))), id, created, created FROM players
	WHERE token_hash NOT IN (SELECT token_hash FROM sessions_new);
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
CREATE INDEX sessions_player ON sessions (player_id, last_seen);

-- Passkey ceremonies hold no state any more: a begin hands out a challenge
-- signed with the server's secret (secrets), and a finish records the
-- challenge it spent (spent_challenges) until it expires, so that an
-- answer counts once. owner is the account that answered.
DROP TABLE ceremonies;
CREATE TABLE spent_challenges (
	key     TEXT PRIMARY KEY,
	owner   TEXT NOT NULL,
	expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX spent_challenges_owner ON spent_challenges (owner, expires);
CREATE INDEX spent_challenges_expires ON spent_challenges (expires);

CREATE TABLE secrets (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
) WITHOUT ROWID;

-- The skeletons of an account's name (store.NameLooks): no two accounts
-- may share one, so that look-alike names cannot pass for each other.
-- Filled in by the store when it opens for accounts made before (it needs
-- Unicode's tables, which SQL has not); not UNIQUE, as names made before
-- may share one.
ALTER TABLE accounts ADD COLUMN skeleton TEXT;
ALTER TABLE accounts ADD COLUMN skeleton_upper TEXT;
CREATE INDEX accounts_skeleton ON accounts (skeleton);
CREATE INDEX accounts_skeleton_upper ON accounts (skeleton_upper);
