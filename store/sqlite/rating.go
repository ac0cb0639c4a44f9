package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/farkle/farkle/store"
)

// Ratings implements store.Store.
func (db *DB) Ratings(ctx context.Context, family string, keys []string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	if len(keys) == 0 {
		return out, nil
	}
	args := []any{family}
	for _, k := range keys {
		args = append(args, k)
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE family = ? AND player_key IN (?`+strings.Repeat(`, ?`, len(keys)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ratings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: ratings: %w", err)
		}
		out[r.PlayerKey] = r
	}
	return out, rows.Err()
}

const ratingCols = `player_key, family, name, rating, deviation, volatility, games, updated`

func scanRating(s scanner) (store.Rating, error) {
	var r store.Rating
	var updated int64
	err := s.Scan(&r.PlayerKey, &r.Family, &r.Name, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated)
	r.Updated = time.Unix(0, updated)
	return r, err
}

// RateGame implements store.Store.
func (db *DB) RateGame(ctx context.Context, changes []store.RatingChange) error {
	if len(changes) == 0 {
		return store.Errorf(store.EINVALID, "a rated game needs at least one rating change")
	}
	tableID, family := changes[0].TableID, changes[0].Family
	for _, c := range changes {
		if c.TableID != tableID || c.Family != family || c.PlayerKey == "" || c.TableID == "" || c.Family == "" {
			return store.Errorf(store.EINVALID, "the rating changes of a game must name one table, one family and each player")
		}
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: rate game: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM rating_changes WHERE table_id = ?`, tableID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: rate game: %w", err)
	}
	if n > 0 {
		return store.Errorf(store.ECONFLICT, "the game at table %s is already rated", tableID)
	}
	for _, c := range changes {
		at := c.At
		if at.IsZero() {
			at = db.now()
		}
		var games int
		err := tx.QueryRowContext(ctx, `SELECT games FROM ratings WHERE family = ? AND player_key = ?`, family, c.PlayerKey).Scan(&games)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: rate game: %w", err)
		}
		if !c.Fixed && games != c.Games {
			return store.Errorf(store.ECONFLICT, "%s has %d rated games, not %d: another game was rated since", c.Name, games, c.Games)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (family, player_key, name, rating, deviation, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
			ON CONFLICT (family, player_key) DO UPDATE SET name = excluded.name, rating = excluded.rating, deviation = excluded.deviation,
			volatility = excluded.volatility, games = ratings.games + 1, updated = excluded.updated`,
			family, c.PlayerKey, c.Name, c.After.Rating, c.After.Deviation, c.After.Volatility, at.UnixNano()); err != nil {
			return fmt.Errorf("sqlite: rate game: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_changes (table_id, player_key, family, name, before_rating, before_deviation, before_volatility,
			rating, deviation, volatility, games, fixed, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			tableID, c.PlayerKey, family, c.Name, c.Before.Rating, c.Before.Deviation, c.Before.Volatility,
			c.After.Rating, c.After.Deviation, c.After.Volatility, games, c.Fixed, at.UnixNano()); err != nil {
			if isConstraint(err) {
				return store.Errorf(store.EINVALID, "the rating changes of table %s name a player twice or a table that does not exist", tableID)
			}
			return fmt.Errorf("sqlite: rate game: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: rate game: %w", err)
	}
	return nil
}

// RatingLeaderboard implements store.Store.
func (db *DB) RatingLeaderboard(ctx context.Context, family string, minGames, limit int) ([]store.Rating, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE family = ? AND games >= ?
		ORDER BY rating DESC, deviation, player_key LIMIT ?`, family, max(minGames, 1), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: rating leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Rating
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: rating leaderboard: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const changeCols = `table_id, player_key, family, name, before_rating, before_deviation, before_volatility, rating, deviation, volatility, games, fixed, at`

func scanChange(s scanner) (store.RatingChange, error) {
	var c store.RatingChange
	var at int64
	err := s.Scan(&c.TableID, &c.PlayerKey, &c.Family, &c.Name, &c.Before.Rating, &c.Before.Deviation, &c.Before.Volatility,
		&c.After.Rating, &c.After.Deviation, &c.After.Volatility, &c.Games, &c.Fixed, &at)
	c.At = time.Unix(0, at)
	return c, err
}

func (db *DB) changes(ctx context.Context, q string, args ...any) ([]store.RatingChange, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+changeCols+` FROM rating_changes `+q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: rating changes: %w", err)
	}
	defer rows.Close()
	var out []store.RatingChange
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: rating changes: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RatingHistory implements store.Store.
func (db *DB) RatingHistory(ctx context.Context, playerKey, family string, limit int) ([]store.RatingChange, error) {
	if limit <= 0 {
		limit = 100
	}
	out, err := db.changes(ctx, `WHERE player_key = ? AND family = ? ORDER BY games DESC, at DESC LIMIT ?`, playerKey, family, limit)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// TableRatings implements store.Store.
func (db *DB) TableRatings(ctx context.Context, tableID string) ([]store.RatingChange, error) {
	return db.changes(ctx, `WHERE table_id = ? ORDER BY player_key`, tableID)
}
