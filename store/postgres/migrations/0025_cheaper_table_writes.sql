-- Cheaper writes of tables: PostgreSQL compiles a table's CHECK
-- constraints from their stored form at each statement that writes a row
-- (6 % of its CPU an action under load, for the one on the status), and a
-- LANGUAGE sql function called from a trigger is parsed and planned again
-- at each call (the triggers of a table's creation, its seats and its
-- start and end).
--
-- The status's check becomes a trigger on the writes that set the status:
-- an action's update, which sets only its count and times, no longer
-- looks at it; a status outside the six is refused as before
-- (check_violation, naming the same constraint).
CREATE FUNCTION tables_status_refused() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'new row for relation "tables" violates check constraint "tables_status_check"'
		USING ERRCODE = 'check_violation', CONSTRAINT = 'tables_status_check', TABLE = 'tables', COLUMN = 'status';
END
$$;
ALTER TABLE tables DROP CONSTRAINT IF EXISTS tables_status_check;
CREATE TRIGGER tables_status_check BEFORE INSERT OR UPDATE OF status ON tables FOR EACH ROW
	WHEN (NEW.status NOT IN ('waiting', 'playing', 'over', 'failed', 'expired', 'adjourned'))
	EXECUTE FUNCTION tables_status_refused();

-- The triggers' SQL functions become PL/pgSQL, whose statements' plans a
-- connection keeps: the same statements, the same arguments and results.
CREATE OR REPLACE FUNCTION open_seats_of(t_id TEXT, t_seats JSONB, t_status TEXT, t_creator TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO open_seats (player_id, table_id, seat, invited, inviter)
		SELECT CASE WHEN coalesce(e.s->>'player_id', '') <> '' THEN e.s->>'player_id' ELSE e.s->>'invited' END,
			t_id, (e.n - 1)::int,
			coalesce(e.s->>'player_id', '') = '',
			CASE WHEN coalesce(e.s->>'player_id', '') = '' THEN t_creator ELSE '' END
		FROM jsonb_array_elements(t_seats) WITH ORDINALITY AS e(s, n)
		WHERE t_status IN ('waiting', 'playing')
			AND (coalesce(e.s->>'player_id', '') <> '' OR coalesce(e.s->>'invited', '') <> '')
		ON CONFLICT DO NOTHING;
END
$$;
CREATE OR REPLACE FUNCTION players_keep(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	UPDATE players SET kept = true WHERE id = ANY(ids) AND NOT kept;
END
$$;
