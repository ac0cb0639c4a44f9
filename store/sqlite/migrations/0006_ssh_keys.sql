-- SSH public keys of players (farkle serve --ssh): a key is an account.
-- The key's SHA256 fingerprint ("SHA256:…", as ssh-keygen -l prints it)
-- names the player it signs in as; a player may have several keys.
CREATE TABLE ssh_keys (
    fingerprint TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL REFERENCES players(id),
    created     INTEGER NOT NULL
);
CREATE INDEX ssh_keys_player ON ssh_keys(player_id);
