-- Moderation: moderators (accounts named by farkle admin), their
-- sanctions (mutes and bans of a player or an address range), the
-- players' reports, the audit log of every moderator's action, and the
-- notices a player is shown once (a name a moderator changed). A chat
-- line may be hidden (kept for the reports), and a table's watchers chat
-- in a channel of their own, numbered with the players' lines. Additive
-- only: a node of the previous release ignores all of it.
ALTER TABLE chat ADD COLUMN watchers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

CREATE TABLE moderators (
	player_id TEXT PRIMARY KEY REFERENCES accounts (player_id),
	added     INTEGER NOT NULL
) WITHOUT ROWID;

-- player_id is '' for a range's sanction, addr_range '' for a player's;
-- until and lifted are 0 for none.
CREATE TABLE sanctions (
	id         INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL,
	player_id  TEXT NOT NULL,
	addr_range TEXT NOT NULL,
	name       TEXT NOT NULL,
	reason     TEXT NOT NULL,
	by_player  TEXT NOT NULL,
	at         INTEGER NOT NULL,
	until      INTEGER NOT NULL,
	lifted     INTEGER NOT NULL
);
CREATE INDEX sanctions_player ON sanctions (player_id, id);

CREATE TABLE reports (
	id        INTEGER PRIMARY KEY,
	reporter  TEXT NOT NULL REFERENCES players (id),
	player_id TEXT NOT NULL REFERENCES players (id),
	name      TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	line      INTEGER NOT NULL,
	text      TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        INTEGER NOT NULL,
	closed    INTEGER NOT NULL,
	closed_by TEXT NOT NULL
);
CREATE INDEX reports_reporter ON reports (reporter, at);
CREATE INDEX reports_open ON reports (id) WHERE closed = 0;

CREATE TABLE moderation_log (
	id        INTEGER PRIMARY KEY,
	moderator TEXT NOT NULL,
	action    TEXT NOT NULL,
	target    TEXT NOT NULL,
	detail    TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        INTEGER NOT NULL
);

CREATE TABLE notices (
	id        INTEGER PRIMARY KEY,
	player_id TEXT NOT NULL REFERENCES players (id),
	kind      TEXT NOT NULL,
	old_name  TEXT NOT NULL,
	new_name  TEXT NOT NULL,
	reason    TEXT NOT NULL,
	at        INTEGER NOT NULL,
	seen      INTEGER NOT NULL
);
CREATE INDEX notices_player ON notices (player_id, id) WHERE seen = 0;
