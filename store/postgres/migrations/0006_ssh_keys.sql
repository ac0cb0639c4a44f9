-- SSH public keys of players (farkle serve --ssh), as the SQLite store's
-- migration 0006 has them: a key's SHA256 fingerprint ("SHA256:…") names
-- the player it signs in as; a player may have several keys. The numbers
-- of this and the following migrations are those of the SQLite
-- migrations they mirror.
CREATE TABLE ssh_keys (
	fingerprint TEXT PRIMARY KEY,
	player_id   TEXT NOT NULL REFERENCES players (id),
	created     BIGINT NOT NULL
);
CREATE INDEX ssh_keys_player ON ssh_keys (player_id);
