package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// SpendChallenge implements store.Store.
func (db *DB) SpendChallenge(ctx context.Context, key, owner string, expires time.Time, max int) error {
	if key == "" || owner == "" {
		return store.Errorf(store.EINVALID, "a spent challenge needs a key and an owner")
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: challenge: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM spent_challenges WHERE expires <= ?`, db.now().UnixNano()); err != nil {
		return fmt.Errorf("sqlite: challenge: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM spent_challenges WHERE key = ?`, key).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: challenge: %w", err)
	}
	if n > 0 {
		return store.Errorf(store.ECONFLICT, "this passkey answer was already used")
	}
	if max > 0 {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM spent_challenges WHERE owner = ?`, owner).Scan(&n); err != nil {
			return fmt.Errorf("sqlite: challenge: %w", err)
		}
		if n >= max {
			return fmt.Errorf("%w: %d passkey answers of %s are under way", store.ErrOverLimit, n, owner)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO spent_challenges (key, owner, expires) VALUES (?, ?, ?)`, key, owner, expires.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: challenge: %w", err)
	}
	return tx.Commit()
}

// Secret implements store.Store.
func (db *DB) Secret(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := db.r.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: secret: %w", err)
	}
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	if err := db.w.QueryRowContext(ctx, `INSERT INTO secrets (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET value = value RETURNING value`, name, fresh).Scan(&v); err != nil {
		return nil, fmt.Errorf("sqlite: secret: %w", err)
	}
	return v, nil
}

// fillSkeletons computes the name skeletons (store.NameLooks) of the
// accounts made before they were kept.
func (db *DB) fillSkeletons(ctx context.Context) error {
	rows, err := db.w.QueryContext(ctx, `SELECT a.player_id, p.name FROM accounts a JOIN players p ON p.id = a.player_id WHERE a.skeleton IS NULL`)
	if err != nil {
		return fmt.Errorf("sqlite: name skeletons: %w", err)
	}
	var ids, names []string
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: name skeletons: %w", err)
		}
		ids, names = append(ids, id), append(names, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: name skeletons: %w", err)
	}
	for i, id := range ids {
		look, upper := store.NameLooks(names[i])
		if _, err := db.w.ExecContext(ctx, `UPDATE accounts SET skeleton = ?, skeleton_upper = ? WHERE player_id = ?`, look, upper, id); err != nil {
			return fmt.Errorf("sqlite: name skeletons: %w", err)
		}
	}
	return nil
}
