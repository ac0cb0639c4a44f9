package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/farkle/farkle/store"
)

const ratingCols = `player_key, family, name, rating, deviation, volatility, games, updated,
	EXISTS (SELECT 1 FROM accounts AS a WHERE a.player_id = ratings.player_key)`

func scanRating(s Scanner) (store.Rating, error) {
	var r store.Rating
	var updated int64
	err := s.Scan(&r.PlayerKey, &r.Family, &r.Name, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated, &r.Account)
	r.Updated = time.Unix(0, updated)
	return r, err
}

// Ratings implements store.Store.
func (db *DB) Ratings(ctx context.Context, family string, keys []string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	if len(keys) == 0 {
		return out, nil
	}
	in, args := In(keys)
	rs, err := readAll(ctx, db, "ratings", scanRating, `SELECT `+ratingCols+` FROM ratings WHERE family = ? AND player_key IN `+in, append([]any{family}, args...)...)
	for _, r := range rs {
		out[r.PlayerKey] = r
	}
	return out, err
}

// RateGame implements store.Store. Each player's rating is written by one
// upsert conditional on the number of games the change was computed from,
// checked against the latest committed row: of two nodes rating games of
// the same player from the same rating, one gets ECONFLICT. A table is
// rated under a lock of its own, so that it is rated once however close
// together two nodes rate it.
func (db *DB) RateGame(ctx context.Context, changes []store.RatingChange) error {
	if len(changes) == 0 {
		return store.Errorf(store.EINVALID, "no rating changes")
	}
	tableID, family := changes[0].TableID, changes[0].Family
	seen := map[string]bool{}
	for _, c := range changes {
		if c.TableID != tableID || c.Family != family || c.PlayerKey == "" || c.TableID == "" || c.Family == "" || seen[c.PlayerKey] {
			return store.Errorf(store.EINVALID, "the rating changes of a game must name one table, one family and each player once")
		}
		seen[c.PlayerKey] = true
	}
	return db.InTx(ctx, "rate game", func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, rateLock, tableID); err != nil {
			return err
		}
		rated, err := db.count(ctx, tx, `SELECT count(*) FROM rating_changes WHERE table_id = ?`, tableID)
		if err != nil {
			return err
		}
		if rated > 0 {
			return store.Errorf(store.ECONFLICT, "the game at table %s is already rated", tableID)
		}
		for _, c := range changes {
			at := c.At
			if at.IsZero() {
				at = db.Now()
			}
			var games int // the player's rated games before this one
			err := db.row(ctx, tx, `INSERT INTO ratings (family, player_key, name, rating, deviation, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
				ON CONFLICT (family, player_key) DO UPDATE SET name = excluded.name, rating = excluded.rating, deviation = excluded.deviation,
				volatility = excluded.volatility, games = ratings.games + 1, updated = excluded.updated
				WHERE ? OR ratings.games = ?
				RETURNING games - 1`,
				family, c.PlayerKey, c.Name, c.After.Rating, c.After.Deviation, c.After.Volatility, at.UnixNano(), c.Fixed, c.Games).Scan(&games)
			if err == sql.ErrNoRows || (err == nil && !c.Fixed && games != c.Games) {
				return store.Errorf(store.ECONFLICT, "%s no longer has %d rated games: another game was rated since", c.Name, c.Games)
			}
			if err != nil {
				return err
			}
			_, err = db.exec(ctx, tx, `INSERT INTO rating_changes (table_id, player_key, family, name, before_rating, before_deviation, before_volatility,
				rating, deviation, volatility, games, fixed, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				tableID, c.PlayerKey, family, c.Name, c.Before.Rating, c.Before.Deviation, c.Before.Volatility,
				c.After.Rating, c.After.Deviation, c.After.Volatility, games, c.Fixed, at.UnixNano())
			switch {
			case db.D.IsForeignKey(err):
				return store.Errorf(store.EINVALID, "the rating changes name table %s, which does not exist", tableID)
			case db.D.IsUnique(err):
				return store.Errorf(store.ECONFLICT, "the game at table %s is already rated", tableID)
			case err != nil:
				return err
			}
		}
		return nil
	})
}

// RatingLeaderboard implements store.Store.
func (db *DB) RatingLeaderboard(ctx context.Context, family string, minGames, limit int) ([]store.Rating, error) {
	if limit <= 0 {
		limit = 20
	}
	return readAll(ctx, db, "rating leaderboard", scanRating, `SELECT `+ratingCols+` FROM ratings WHERE family = ? AND games >= ?
		ORDER BY rating DESC, deviation, player_key LIMIT ?`, family, max(minGames, 1), limit)
}

const changeCols = `table_id, player_key, family, name, before_rating, before_deviation, before_volatility, rating, deviation, volatility, games, fixed, at`

func scanChange(s Scanner) (store.RatingChange, error) {
	var c store.RatingChange
	var at int64
	err := s.Scan(&c.TableID, &c.PlayerKey, &c.Family, &c.Name, &c.Before.Rating, &c.Before.Deviation, &c.Before.Volatility,
		&c.After.Rating, &c.After.Deviation, &c.After.Volatility, &c.Games, &c.Fixed, &at)
	c.At = time.Unix(0, at)
	return c, err
}

// RatingHistory implements store.Store.
func (db *DB) RatingHistory(ctx context.Context, playerKey, family string, limit int) ([]store.RatingChange, error) {
	if limit <= 0 {
		limit = 100
	}
	out, err := readAll(ctx, db, "rating history", scanChange, `SELECT `+changeCols+` FROM rating_changes
		WHERE player_key = ? AND family = ? ORDER BY games DESC, at DESC LIMIT ?`, playerKey, family, limit)
	slices.Reverse(out)
	return out, err
}

// TableRatings implements store.Store.
func (db *DB) TableRatings(ctx context.Context, tableID string) ([]store.RatingChange, error) {
	return readAll(ctx, db, "table ratings", scanChange, `SELECT `+changeCols+` FROM rating_changes WHERE table_id = ? ORDER BY player_key`, tableID)
}
