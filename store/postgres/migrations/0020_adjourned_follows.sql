-- As the SQLite store's migration 0020: a game against bots its player
-- left long enough is adjourned, a status of its own (neither open nor
-- ended; its player resumes it); and the players each player follows.
ALTER TABLE tables DROP CONSTRAINT tables_status_check;
ALTER TABLE tables ADD CONSTRAINT tables_status_check CHECK (status IN ('waiting', 'playing', 'over', 'failed', 'expired', 'adjourned'));

CREATE TABLE follows (
	follower TEXT NOT NULL REFERENCES players (id),
	followed TEXT NOT NULL REFERENCES players (id),
	created  BIGINT NOT NULL,
	PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_follower_created ON follows (follower, created);
CREATE TRIGGER players_kept_by_follow AFTER INSERT ON follows FOR EACH ROW
	EXECUTE FUNCTION players_kept_by_column('follower', 'followed');
