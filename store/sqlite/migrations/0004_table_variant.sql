-- The version of its kind's rules a table plays, so that a change of a
-- game's default rules never changes a game in progress: '' for ordinary
-- Farkle (its rules are in the rules column) and for Dragon Farkle tables
-- stored before the army battle (they play the classic battle); 'army' for
-- Dragon Farkle tables with the army battle and seat bonus.
ALTER TABLE tables ADD COLUMN variant TEXT NOT NULL DEFAULT '';
