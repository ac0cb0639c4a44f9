-- Moderation, as the SQLite store's migration 0019: moderators (accounts
-- named by farkle admin), their sanctions (mutes and bans of a player or
-- an address range), the players' reports, the audit log of every
-- moderator's action, and the notices a player is shown once. A chat line
-- may be hidden, and a table's watchers chat in a channel of their own.
-- Additive only: a node of the previous release ignores all of it.
ALTER TABLE chat ADD COLUMN watchers BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE chat ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE moderators (
	player_id TEXT PRIMARY KEY REFERENCES accounts (player_id),
	added     BIGINT NOT NULL
);

CREATE TABLE sanctions (
	id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	kind       TEXT NOT NULL,
	player_id  TEXT NOT NULL,
	addr_range TEXT NOT NULL,
	name       TEXT NOT NULL,
	reason     TEXT NOT NULL,
	by_player  TEXT NOT NULL,
	at         BIGINT NOT NULL,
	until      BIGINT NOT NULL,
	lifted     BIGINT NOT NULL
);
CREATE INDEX sanctions_player ON sanctions (player_id, id);

CREATE TABLE reports (
	id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	reporter  TEXT NOT NULL REFERENCES players (id),
	player_id TEXT NOT NULL REFERENCES players (id),
	name      TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	line      INTEGER NOT NULL,
	text      TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        BIGINT NOT NULL,
	closed    BIGINT NOT NULL,
	closed_by TEXT NOT NULL
);
CREATE INDEX reports_reporter ON reports (reporter, at);
CREATE INDEX reports_open ON reports (id) WHERE closed = 0;

CREATE TABLE moderation_log (
	id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	moderator TEXT NOT NULL,
	action    TEXT NOT NULL,
	target    TEXT NOT NULL,
	detail    TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        BIGINT NOT NULL
);

CREATE TABLE notices (
	id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	player_id TEXT NOT NULL REFERENCES players (id),
	kind      TEXT NOT NULL,
	old_name  TEXT NOT NULL,
	new_name  TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        BIGINT NOT NULL,
	seen      BOOLEAN NOT NULL
);
CREATE INDEX notices_player ON notices (player_id, id) WHERE NOT seen;
