package sqlstore

import (
	"context"
	"time"

	"github.com/farkle/farkle/store"
)

// The players each player follows (store/invite.go's Follow), and the
// open games of those players, read from the index of open seats.

// Follow implements store.Store.
func (db *DB) Follow(ctx context.Context, f store.Follow, max int) error {
	f, err := f.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.relate(ctx, pair{op: "follow", lock: followLock, table: "follows", from: "follower", to: "followed"}, f.Follower, f.Followed, f.Created, max)
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
