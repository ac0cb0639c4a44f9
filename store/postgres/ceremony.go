package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// challengeLock is the first key of the advisory lock under which one
// owner's challenges are spent, so that nodes spending them at once count
// them one after the other and the cap holds.
const challengeLock = 0x63657265 // "cere"

// SpendChallenge implements store.Store.
func (db *DB) SpendChallenge(ctx context.Context, key, owner string, expires time.Time, max int) error {
	if key == "" || owner == "" {
		return store.Errorf(store.EINVALID, "a spent challenge needs a key and an owner")
	}
	return db.inTx(ctx, "challenge", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(challengeLock), owner); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM spent_challenges WHERE expires <= $1`, db.now().UnixNano()); err != nil {
			return err
		}
		var n int
		if max > 0 {
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM spent_challenges WHERE owner = $1`, owner).Scan(&n); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `INSERT INTO spent_challenges (key, owner, expires) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, key, owner, expires.UnixNano())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.Errorf(store.ECONFLICT, "this passkey answer was already used")
		}
		if max > 0 && n >= max {
			return fmt.Errorf("%w: %d passkey answers of %s are under way", store.ErrOverLimit, n, owner) // rolls the insert back
		}
		return nil
	})
}

// Secret implements store.Store: of nodes making it at once, the first
// to write wins and every one reads its value.
func (db *DB) Secret(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := db.pool.QueryRow(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: secret: %w", err)
	}
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	if err := db.pool.QueryRow(ctx, `INSERT INTO secrets (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = secrets.value RETURNING value`, name, fresh).Scan(&v); err != nil {
		return nil, fmt.Errorf("postgres: secret: %w", err)
	}
	return v, nil
}

// fillSkeletons computes the name skeletons (store.NameLooks) of the
// accounts made before they were kept.
func (db *DB) fillSkeletons(ctx context.Context) error {
	rows, err := db.pool.Query(ctx, `SELECT a.player_id, p.name FROM accounts a JOIN players p ON p.id = a.player_id WHERE a.skeleton IS NULL`)
	if err != nil {
		return fmt.Errorf("postgres: name skeletons: %w", err)
	}
	type named struct{ id, name string }
	todo, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (named, error) {
		var n named
		return n, r.Scan(&n.id, &n.name)
	})
	if err != nil {
		return fmt.Errorf("postgres: name skeletons: %w", err)
	}
	for _, n := range todo {
		look, upper := store.NameLooks(n.name)
		if _, err := db.pool.Exec(ctx, `UPDATE accounts SET skeleton = $1, skeleton_upper = $2 WHERE player_id = $3`, look, upper, n.id); err != nil {
			return fmt.Errorf("postgres: name skeletons: %w", err)
		}
	}
	return nil
}
