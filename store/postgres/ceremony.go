package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// ceremonyLock is the first key of the advisory lock under which
// ceremonies are put, so that nodes putting them at once count them one
// after the other and the cap holds.
const ceremonyLock = 0x63657265 // "cere"

// PutCeremony implements store.Store.
func (db *DB) PutCeremony(ctx context.Context, key string, data []byte, expires time.Time, max int) error {
	if key == "" {
		return store.Errorf(store.EINVALID, "a ceremony needs a key")
	}
	return db.inTx(ctx, "ceremony", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, int32(ceremonyLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM ceremonies WHERE expires <= $1`, db.now().UnixNano()); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM ceremonies WHERE key <> $1`, key).Scan(&n); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return store.Errorf(store.ECONFLICT, "too many sign-in ceremonies under way (%d)", max)
		}
		_, err := tx.Exec(ctx, `INSERT INTO ceremonies (key, data, expires) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, expires = excluded.expires`, key, data, expires.UnixNano())
		return err
	})
}

// TakeCeremony implements store.Store: one delete, so that of two nodes
// taking a ceremony one gets it.
func (db *DB) TakeCeremony(ctx context.Context, key string) ([]byte, error) {
	var data []byte
	var expires int64
	err := db.pool.QueryRow(ctx, `DELETE FROM ceremonies WHERE key = $1 RETURNING data, expires`, key).Scan(&data, &expires)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && expires <= db.now().UnixNano()) {
		return nil, store.Errorf(store.ENOTFOUND, "no sign-in ceremony under way for this request (it finished, or took too long)")
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: ceremony: %w", err)
	}
	return data, nil
}
