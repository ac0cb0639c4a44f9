-- Guests that nothing keeps expire (store.Store.ExpireGuests, farkle serve
-- --guest-expiry): each POST /api/players makes a guest, so a flood from
-- many addresses would grow the players table for good. players.kept is 1
-- once anything but its own sessions names the player: a seat, an
-- invitation or the creation of a table, a result, a rating, a chat line,
-- a tournament it made or entered, a block (by or of it), an account or an
-- SSH key. The triggers set it whatever writes those rows, and nothing
-- clears it: a guest once kept is kept for good. The guests not kept are
-- found by the partial index, oldest first.
ALTER TABLE players ADD COLUMN kept INTEGER NOT NULL DEFAULT 0;

UPDATE players SET kept = 1 WHERE id IN (
	SELECT creator FROM tables
	UNION SELECT json_extract(s.value, '$.player_id') FROM tables AS t, json_each(t.seats) AS s
	UNION SELECT json_extract(s.value, '$.invited') FROM tables AS t, json_each(t.seats) AS s
	UNION SELECT player_key FROM results
	UNION SELECT player_key FROM ratings
	UNION SELECT player_key FROM rating_changes
	UNION SELECT player_id FROM chat
	UNION SELECT creator FROM tournaments
	UNION SELECT json_extract(e.value, '$.player_id') FROM tournaments AS t, json_each(t.entrants) AS e
	UNION SELECT blocker FROM blocks
	UNION SELECT blocked FROM blocks
	UNION SELECT player_id FROM accounts
	UNION SELECT player_id FROM ssh_keys);

CREATE INDEX players_unkept ON players (created) WHERE kept = 0;

-- Each trigger looks its players up by their IDs (the primary key).
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

CREATE TRIGGER players_kept_by_result AFTER INSERT ON results
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_key AND kept = 0;
END;

CREATE TRIGGER players_kept_by_rating AFTER INSERT ON ratings
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_key AND kept = 0;
END;

CREATE TRIGGER players_kept_by_rating_change AFTER INSERT ON rating_changes
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_key AND kept = 0;
END;

CREATE TRIGGER players_kept_by_chat AFTER INSERT ON chat
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_id AND kept = 0;
END;

CREATE TRIGGER players_kept_by_tournament AFTER INSERT ON tournaments
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (
		SELECT NEW.creator
		UNION SELECT json_extract(e.value, '$.player_id') FROM json_each(NEW.entrants) AS e) AND kept = 0;
END;

CREATE TRIGGER players_kept_by_entrant AFTER UPDATE OF entrants ON tournaments
WHEN OLD.entrants IS NOT NEW.entrants
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (
		SELECT json_extract(e.value, '$.player_id') FROM json_each(NEW.entrants) AS e) AND kept = 0;
END;

CREATE TRIGGER players_kept_by_block AFTER INSERT ON blocks
BEGIN
	UPDATE players SET kept = 1 WHERE id IN (NEW.blocker, NEW.blocked) AND kept = 0;
END;

CREATE TRIGGER players_kept_by_account AFTER INSERT ON accounts
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_id AND kept = 0;
END;

CREATE TRIGGER players_kept_by_key AFTER INSERT ON ssh_keys
BEGIN
	UPDATE players SET kept = 1 WHERE id = NEW.player_id AND kept = 0;
END;
