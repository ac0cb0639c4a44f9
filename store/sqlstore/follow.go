package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/farkle/farkle/store"
)

// The players each player follows (store/invite.go's Follow), and the
// open games of those players, read from the index of open seats.

// Follow implements store.Store. The follower's follows are counted under
// a lock of the follower, so that two follows at once keep the cap.
func (db *DB) Follow(ctx context.Context, f store.Follow, max int) error {
	f, err := f.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.InTx(ctx, "follow", func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, followLock, f.Follower); err != nil {
			return err
		}
		var players, have, already int
		if err := db.row(ctx, tx, `SELECT (SELECT count(*) FROM players WHERE id IN (?, ?)),
			(SELECT count(*) FROM follows WHERE follower = ?), (SELECT count(*) FROM follows WHERE follower = ? AND followed = ?)`,
			f.Follower, f.Followed, f.Follower, f.Follower, f.Followed).Scan(&players, &have, &already); err != nil {
			return err
		}
		switch {
		case players < 2:
			return store.Errorf(store.ENOTFOUND, "no such player")
		case already > 0:
			return nil
		case max > 0 && have >= max:
			return store.Errorf(store.ECONFLICT, "you follow %d players already, the most one player may", have)
		}
		_, err := db.exec(ctx, tx, `INSERT INTO follows (follower, followed, created) VALUES (?, ?, ?)`, f.Follower, f.Followed, f.Created.UnixNano())
		return err
	})
}

// Unfollow implements store.Store.
func (db *DB) Unfollow(ctx context.Context, follower, followed string) error {
	if _, err := db.exec(ctx, db.W, `DELETE FROM follows WHERE follower = ? AND followed = ?`, follower, followed); err != nil {
		return db.Errorf("unfollow", err)
	}
	return nil
}

// Following implements store.Store.
func (db *DB) Following(ctx context.Context, follower string, limit int) ([]store.Follow, error) {
	if limit <= 0 {
		limit = 100
	}
	return readAll(ctx, db, "follows", func(s Scanner) (store.Follow, error) {
		f := store.Follow{Follower: follower}
		var created int64
		err := s.Scan(&f.Followed, &f.Name, &created)
		f.Created = time.Unix(0, created)
		return f, err
	}, `SELECT f.followed, p.name, f.created FROM follows AS f JOIN players AS p ON p.id = f.followed
		WHERE f.follower = ? ORDER BY f.created DESC, f.followed LIMIT ?`, follower, limit)
}

// FollowedGames implements store.Store: the followed players' rows of
// open_seats (the seats they hold), then each table by its ID.
func (db *DB) FollowedGames(ctx context.Context, follower string, limit int) ([]store.Table, error) {
	if limit <= 0 {
		limit = 100
	}
	return readAll(ctx, db, "followed games", scanTable, `SELECT `+TableCols+` FROM tables WHERE id IN
		(SELECT o.table_id FROM open_seats AS o JOIN follows AS f ON o.player_id = f.followed WHERE f.follower = ? AND o.invited = {false})
		AND {unindexed status} IN ('waiting', 'playing') ORDER BY updated DESC, id LIMIT ?`, follower, limit)
}
