package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// AddKey implements store.Store.
func (db *DB) AddKey(ctx context.Context, fingerprint, playerID string) error {
	if fingerprint == "" {
		return store.Errorf(store.EINVALID, "an SSH key needs a fingerprint")
	}
	if _, err := db.Player(ctx, playerID); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO ssh_keys (fingerprint, player_id, created) VALUES ($1, $2, $3)`,
		fingerprint, playerID, db.now().UnixNano())
	if isUnique(err) {
		return store.Errorf(store.ECONFLICT, "the SSH key %s is already a player's", fingerprint)
	}
	if err != nil {
		return fmt.Errorf("postgres: add key: %w", err)
	}
	return nil
}

// PlayerByKey implements store.Store.
func (db *DB) PlayerByKey(ctx context.Context, fingerprint string) (store.Player, error) {
	var id string
	err := db.pool.QueryRow(ctx, `SELECT player_id FROM ssh_keys WHERE fingerprint = $1`, fingerprint).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Player{}, store.Errorf(store.ENOTFOUND, "no player has this SSH key")
	}
	if err != nil {
		return store.Player{}, fmt.Errorf("postgres: player by key: %w", err)
	}
	return db.Player(ctx, id)
}
