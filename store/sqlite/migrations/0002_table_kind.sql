-- Tables of another game than ordinary Farkle (Dragon Farkle): the kind of
-- game a table plays. '' is ordinary Farkle; for 'dragon' the actions'
-- entries and the final record are Dragon Farkle JSON (dragon.Action,
-- dragon.Record) and the rules column holds the soldier table.
ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT '';
