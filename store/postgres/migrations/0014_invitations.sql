-- Invitations under control, as the SQLite store's migration 0014: an index
-- of every player's open seats, so that a player's open games, its
-- invitations and the counts of invitations are read from that player's
-- rows, never from every table; and the players each player blocks.
--
-- open_seats has a row for every human seat of a waiting or playing table
-- that a player holds (invited false), or that is free and kept for one
-- (invited true: an invitation, whose inviter is the table's creator;
-- player_id is then the seat's "invited", which may name no player). The
-- triggers keep it in step with tables.seats and tables.status whatever
-- writes them.
CREATE TABLE open_seats (
	player_id TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	seat      INTEGER NOT NULL,
	invited   BOOLEAN NOT NULL,
	inviter   TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (player_id, table_id, seat)
);
CREATE INDEX open_seats_table ON open_seats (table_id);
CREATE INDEX open_seats_inviter ON open_seats (inviter) WHERE invited;

-- open_seats_of writes the rows of one table (its seats and status).
CREATE FUNCTION open_seats_of(t_id TEXT, t_seats JSONB, t_status TEXT, t_creator TEXT) RETURNS void LANGUAGE sql AS $$
	INSERT INTO open_seats (player_id, table_id, seat, invited, inviter)
		SELECT CASE WHEN coalesce(e.s->>'player_id', '') <> '' THEN e.s->>'player_id' ELSE e.s->>'invited' END,
			t_id, (e.n - 1)::int,
			coalesce(e.s->>'player_id', '') = '',
			CASE WHEN coalesce(e.s->>'player_id', '') = '' THEN t_creator ELSE '' END
		FROM jsonb_array_elements(t_seats) WITH ORDINALITY AS e(s, n)
		WHERE t_status IN ('waiting', 'playing')
			AND (coalesce(e.s->>'player_id', '') <> '' OR coalesce(e.s->>'invited', '') <> '')
		ON CONFLICT DO NOTHING
$$;

SELECT open_seats_of(id, seats, status, creator) FROM tables WHERE status IN ('waiting', 'playing');

CREATE FUNCTION open_seats_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		DELETE FROM open_seats WHERE table_id = OLD.id;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM open_seats_of(NEW.id, NEW.seats, NEW.status, NEW.creator);
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER open_seats_insert AFTER INSERT ON tables FOR EACH ROW
	WHEN (NEW.status IN ('waiting', 'playing'))
	EXECUTE FUNCTION open_seats_sync();
-- An action rewrites the status ('playing') without changing it: only a
-- change of the seats, or a table opening or ending, touches the index.
CREATE TRIGGER open_seats_update AFTER UPDATE OF seats, status ON tables FOR EACH ROW
	WHEN (OLD.seats IS DISTINCT FROM NEW.seats OR (OLD.status IN ('waiting', 'playing')) IS DISTINCT FROM (NEW.status IN ('waiting', 'playing')))
	EXECUTE FUNCTION open_seats_sync();
CREATE TRIGGER open_seats_delete AFTER DELETE ON tables FOR EACH ROW
	EXECUTE FUNCTION open_seats_sync();

CREATE TABLE blocks (
	blocker TEXT NOT NULL REFERENCES players (id),
	blocked TEXT NOT NULL REFERENCES players (id),
	created BIGINT NOT NULL,
	PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocker_created ON blocks (blocker, created);
