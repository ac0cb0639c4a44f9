-- A game against bots its player left long enough is adjourned (farkle
-- serve --adjourn-after): a status of its own, neither open (it counts
-- against no cap, holds no open seat, is not kept in memory, takes no
-- action) nor ended (it is never lost, rated or in anyone's stats); its
-- player resumes it, and it is playing again as it stood. SQLite cannot
-- change a CHECK constraint in place, so the table is rebuilt as in 0003
-- (the runner turns foreign keys off around it and checks them before
-- commit), and its indexes and triggers (0003, 0014, 0017) are made again.
CREATE TABLE tables_new (
	id      TEXT PRIMARY KEY,
	rules   TEXT NOT NULL,            -- JSON rules.Rules
	seats   TEXT NOT NULL,            -- JSON []store.Seat
	seed    TEXT NOT NULL,            -- hex; secret until the game is over
	status  TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'over', 'failed', 'expired', 'adjourned')),
	actions INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	winners TEXT,                     -- JSON []int when over
	scores  TEXT,                     -- JSON []int when over
	record  TEXT,                     -- the final record JSON when over
	kind    TEXT NOT NULL DEFAULT '', -- the game (game.Kind)
	reason  TEXT NOT NULL DEFAULT '', -- why the table failed or expired
	creator TEXT NOT NULL DEFAULT '', -- the player who created it
	rated   INTEGER NOT NULL DEFAULT 0,
	pace    TEXT NOT NULL DEFAULT '',
	local   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO tables_new (id, rules, seats, seed, status, actions, created, updated, winners, scores, record, kind, reason, creator, rated, pace, local)
	SELECT id, rules, seats, seed, status, actions, created, updated, winners, scores, record, kind, reason, creator, rated, pace, local FROM tables;
DROP TABLE tables;
ALTER TABLE tables_new RENAME TO tables;
CREATE INDEX tables_status_updated ON tables (status, updated);
CREATE INDEX tables_creator_status ON tables (creator, status);

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

CREATE TRIGGER players_kept_by_table AFTER INSERT ON tables
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (
		SELECT NEW.creator
		UNION SELECT json_extract(s.value, '$.player_id') FROM json_each(NEW.seats) AS s
		UNION SELECT json_extract(s.value, '$.invited') FROM json_each(NEW.seats) AS s) AND kept = 0;
END;

CREATE TRIGGER players_kept_by_seat AFTER UPDATE OF seats ON tables
WHEN OLD.seats IS NOT NEW.seats
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (
		SELECT json_extract(s.value, '$.player_id') FROM json_each(NEW.seats) AS s
		UNION SELECT json_extract(s.value, '$.invited') FROM json_each(NEW.seats) AS s) AND kept = 0;
END;

-- The players each player follows (POST /api/me/follows), the latest
-- first; a follow keeps both guests (0017).
CREATE TABLE follows (
	follower TEXT NOT NULL REFERENCES players (id),
	followed TEXT NOT NULL REFERENCES players (id),
	created  INTEGER NOT NULL,
	PRIMARY KEY (follower, followed)
) WITHOUT ROWID;
CREATE INDEX follows_follower_created ON follows (follower, created);

CREATE TRIGGER players_kept_by_follow AFTER INSERT ON follows
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (NEW.follower, NEW.followed) AND kept = 0;
END;
