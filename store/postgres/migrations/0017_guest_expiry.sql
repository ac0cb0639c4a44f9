-- Guests that nothing keeps expire, as the SQLite store's migration 0017
-- (store.Store.ExpireGuests, farkle serve --guest-expiry): players.kept is
-- true once anything but its own sessions names the player (a seat, an
-- invitation or the creation of a table, a result, a rating, a chat line,
-- a tournament it made or entered, a block by or of it, an account or an
-- SSH key). The triggers set it whatever writes those rows, and nothing
-- clears it. The guests not kept are found by the partial index, oldest
-- first.
ALTER TABLE players ADD COLUMN kept BOOLEAN NOT NULL DEFAULT false;

-- players_elements returns the elements of a JSON array, none of anything
-- else (a tournament without entrants holds null).
CREATE FUNCTION players_elements(j jsonb) RETURNS SETOF jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(j) = 'array' THEN j ELSE '[]'::jsonb END)
$$;

UPDATE players SET kept = true WHERE id IN (
	SELECT creator FROM tables
	UNION SELECT s->>'player_id' FROM tables AS t, players_elements(t.seats) AS s
	UNION SELECT s->>'invited' FROM tables AS t, players_elements(t.seats) AS s
	UNION SELECT player_key FROM results
	UNION SELECT player_key FROM ratings
	UNION SELECT player_key FROM rating_changes
	UNION SELECT player_id FROM chat
	UNION SELECT creator FROM tournaments
	UNION SELECT e->>'player_id' FROM tournaments AS t, players_elements(t.entrants::jsonb) AS e
	UNION SELECT blocker FROM blocks
	UNION SELECT blocked FROM blocks
	UNION SELECT player_id FROM accounts
	UNION SELECT player_id FROM ssh_keys);

CREATE INDEX players_unkept ON players (created) WHERE NOT kept;

-- players_keep marks the players of the IDs kept (by the primary key).
CREATE FUNCTION players_keep(ids TEXT[]) RETURNS void LANGUAGE sql AS $$
	UPDATE players SET kept = true WHERE id = ANY(ids) AND NOT kept
$$;

-- players_kept_by_table keeps a table's creator and the players of its
-- seats, taken or kept for them.
CREATE FUNCTION players_kept_by_table() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM players_keep(ARRAY(
		SELECT NEW.creator
		UNION SELECT s->>'player_id' FROM players_elements(NEW.seats) AS s
		UNION SELECT s->>'invited' FROM players_elements(NEW.seats) AS s));
	RETURN NULL;
END
$$;
CREATE TRIGGER players_kept_by_table AFTER INSERT ON tables FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_table();
CREATE TRIGGER players_kept_by_seat AFTER UPDATE OF seats ON tables FOR EACH ROW
	WHEN (OLD.seats IS DISTINCT FROM NEW.seats)
	EXECUTE FUNCTION players_kept_by_table();

-- players_kept_by_tournament keeps a tournament's creator and entrants.
CREATE FUNCTION players_kept_by_tournament() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM players_keep(ARRAY(
		SELECT NEW.creator
		UNION SELECT e->>'player_id' FROM players_elements(NEW.entrants::jsonb) AS e));
	RETURN NULL;
END
$$;
CREATE TRIGGER players_kept_by_tournament AFTER INSERT ON tournaments FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_tournament();
CREATE TRIGGER players_kept_by_entrant AFTER UPDATE OF entrants ON tournaments FOR EACH ROW
	WHEN (OLD.entrants IS DISTINCT FROM NEW.entrants)
	EXECUTE FUNCTION players_kept_by_tournament();

-- players_kept_by_column keeps the players named by the new row's columns
-- the trigger's arguments name.
CREATE FUNCTION players_kept_by_column() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r jsonb := to_jsonb(NEW);
BEGIN
	PERFORM players_keep(ARRAY(SELECT r->>c FROM unnest(TG_ARGV) AS c));
	RETURN NULL;
END
$$;
CREATE TRIGGER players_kept_by_result AFTER INSERT ON results FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_key');
CREATE TRIGGER players_kept_by_rating AFTER INSERT ON ratings FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_key');
CREATE TRIGGER players_kept_by_rating_change AFTER INSERT ON rating_changes FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_key');
CREATE TRIGGER players_kept_by_chat AFTER INSERT ON chat FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_id');
CREATE TRIGGER players_kept_by_block AFTER INSERT ON blocks FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('blocker', 'blocked');
CREATE TRIGGER players_kept_by_account AFTER INSERT ON accounts FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_id');
CREATE TRIGGER players_kept_by_key AFTER INSERT ON ssh_keys FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('player_id');
