-- Invitations under control: an index of every player's open seats, so that
-- a player's open games, its invitations and the counts of invitations are
-- read from that player's rows, never from every table; and the players
-- each player blocks.
--
-- open_seats has a row for every human seat of a waiting or playing table
-- that a player holds (invited 0), or that is free and kept for one
-- (invited 1: an invitation, whose inviter is the table's creator;
-- player_id is then the seat's "invited", which may name no player). The
-- triggers keep it in step with tables.seats and tables.status whatever
-- writes them. SQLite drops a table's triggers with it: a migration that
-- rebuilds the tables table must create them again.
CREATE TABLE open_seats (
	player_id TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	seat      INTEGER NOT NULL,
	invited   INTEGER NOT NULL,
	inviter   TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (player_id, table_id, seat)
) WITHOUT ROWID;
CREATE INDEX open_seats_table ON open_seats (table_id);
CREATE INDEX open_seats_inviter ON open_seats (inviter) WHERE invited = 1;

INSERT INTO open_seats (player_id, table_id, seat, invited, inviter)
	SELECT CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') <> '' THEN json_extract(s.value, '$.player_id') ELSE json_extract(s.value, '$.invited') END,
		t.id, s.key,
		coalesce(json_extract(s.value, '$.player_id'), '') = '',
		CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') = '' THEN t.creator ELSE '' END
	FROM tables AS t, json_each(t.seats) AS s
	WHERE t.status IN ('waiting', 'playing')
		AND (coalesce(json_extract(s.value, '$.player_id'), '') <> '' OR coalesce(json_extract(s.value, '$.invited'), '') <> '');

CREATE TRIGGER open_seats_insert AFTER INSERT ON tables
WHEN NEW.status IN ('waiting', 'playing')
BEGIN
	INSERT OR IGNORE INTO open_seats (player_id, table_id, seat, invited, inviter)
		SELECT CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') <> '' THEN json_extract(s.value, '$.player_id') ELSE json_extract(s.value, '$.invited') END,
			NEW.id, s.key,
			coalesce(json_extract(s.value, '$.player_id'), '') = '',
			CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') = '' THEN NEW.creator ELSE '' END
		FROM json_each(NEW.seats) AS s
		WHERE coalesce(json_extract(s.value, '$.player_id'), '') <> '' OR coalesce(json_extract(s.value, '$.invited'), '') <> '';
END;

-- An action rewrites the status ('playing') without changing it: only a
-- change of the seats, or a table opening or ending, touches the index.
CREATE TRIGGER open_seats_update AFTER UPDATE OF seats, status ON tables
WHEN OLD.seats IS NOT NEW.seats OR (OLD.status IN ('waiting', 'playing')) <> (NEW.status IN ('waiting', 'playing'))
BEGIN
	DELETE FROM open_seats WHERE table_id = OLD.id;
	INSERT OR IGNORE INTO open_seats (player_id, table_id, seat, invited, inviter)
		SELECT CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') <> '' THEN json_extract(s.value, '$.player_id') ELSE json_extract(s.value, '$.invited') END,
			NEW.id, s.key,
			coalesce(json_extract(s.value, '$.player_id'), '') = '',
			CASE WHEN coalesce(json_extract(s.value, '$.player_id'), '') = '' THEN NEW.creator ELSE '' END
		FROM json_each(NEW.seats) AS s
		WHERE NEW.status IN ('waiting', 'playing')
			AND (coalesce(json_extract(s.value, '$.player_id'), '') <> '' OR coalesce(json_extract(s.value, '$.invited'), '') <> '');
END;

CREATE TRIGGER open_seats_delete AFTER DELETE ON tables
BEGIN
	DELETE FROM open_seats WHERE table_id = OLD.id;
END;

CREATE TABLE blocks (
	blocker TEXT NOT NULL REFERENCES players (id),
	blocked TEXT NOT NULL REFERENCES players (id),
	created INTEGER NOT NULL,
	PRIMARY KEY (blocker, blocked)
) WITHOUT ROWID;
CREATE INDEX blocks_blocker_created ON blocks (blocker, created);
