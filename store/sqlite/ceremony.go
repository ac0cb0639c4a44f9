package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// PutCeremony implements store.Store.
func (db *DB) PutCeremony(ctx context.Context, key string, data []byte, expires time.Time, max int) error {
	if key == "" {
		return store.Errorf(store.EINVALID, "a ceremony needs a key")
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: ceremony: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM ceremonies WHERE expires <= ?`, db.now().UnixNano()); err != nil {
		return fmt.Errorf("sqlite: ceremony: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ceremonies WHERE key <> ?`, key).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: ceremony: %w", err)
	}
	if max > 0 && n >= max {
		return store.Errorf(store.ECONFLICT, "too many sign-in ceremonies under way (%d)", max)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO ceremonies (key, data, expires) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET data = excluded.data, expires = excluded.expires`, key, data, expires.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: ceremony: %w", err)
	}
	return tx.Commit()
}

// TakeCeremony implements store.Store.
func (db *DB) TakeCeremony(ctx context.Context, key string) ([]byte, error) {
	var data []byte
	var expires int64
	err := db.w.QueryRowContext(ctx, `DELETE FROM ceremonies WHERE key = ? RETURNING data, expires`, key).Scan(&data, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && expires <= db.now().UnixNano()) {
		return nil, store.Errorf(store.ENOTFOUND, "no sign-in ceremony under way for this request (it finished, or took too long)")
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: ceremony: %w", err)
	}
	return data, nil
}
