-- Accounts: players who keep their identity with passkeys (WebAuthn)
-- rather than one browser's cookie. name_key is the name as names must
-- differ (store.NameKey: case-folded), unique among accounts; guests may
-- share names. recovery_hash is the SHA-256 of the one-time recovery code.
-- A session is a sign-in on one device, its token stored hashed as a
-- guest's is.
CREATE TABLE accounts (
	player_id     TEXT PRIMARY KEY REFERENCES players (id),
	name_key      TEXT NOT NULL UNIQUE,
	recovery_hash TEXT NOT NULL,
	created       INTEGER NOT NULL
);

CREATE TABLE passkeys (
	id         TEXT PRIMARY KEY,           -- the credential ID, base64url
	player_id  TEXT NOT NULL REFERENCES accounts (player_id),
	label      TEXT NOT NULL,
	credential TEXT NOT NULL,              -- JSON webauthn.Credential
	created    INTEGER NOT NULL,
	used       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX passkeys_player ON passkeys (player_id, created);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	player_id  TEXT NOT NULL REFERENCES accounts (player_id),
	created    INTEGER NOT NULL
);
CREATE INDEX sessions_player ON sessions (player_id);
