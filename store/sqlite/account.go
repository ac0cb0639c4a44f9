package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// CreateAccount implements store.Store.
func (db *DB) CreateAccount(ctx context.Context, a store.Account, first store.Passkey) error {
	a, first, err := a.Prepare(first, db.now())
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM players WHERE id = ?`, a.PlayerID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such player")
	}
	var owner string
	err = tx.QueryRowContext(ctx, `SELECT player_id FROM accounts WHERE player_id = ? OR name_key = ?`, a.PlayerID, store.NameKey(a.Name)).Scan(&owner)
	switch {
	case err == nil && owner == a.PlayerID:
		return store.Errorf(store.ECONFLICT, "you already have an account")
	case err == nil:
		return store.Errorf(store.ECONFLICT, "the name %s is taken by another account", a.Name)
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (player_id, name_key, recovery_hash, created) VALUES (?, ?, ?, ?)`,
		a.PlayerID, store.NameKey(a.Name), a.RecoveryHash, a.Created.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE players SET name = ? WHERE id = ?`, a.Name, a.PlayerID); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if err := insertPasskey(ctx, tx, first); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	return nil
}

func insertPasskey(ctx context.Context, tx *sql.Tx, p store.Passkey) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO passkeys (id, player_id, label, credential, created, used) VALUES (?, ?, ?, ?, ?, ?)`,
		p.ID, p.PlayerID, p.Label, string(p.Credential), p.Created.UnixNano(), unixOrZero(p.Used))
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "this passkey is already registered")
	}
	if err != nil {
		return fmt.Errorf("sqlite: passkey: %w", err)
	}
	return nil
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func timeOrZero(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func (db *DB) account(ctx context.Context, where, arg string) (store.Account, error) {
	var a store.Account
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT a.player_id, p.name, a.recovery_hash, a.created FROM accounts a JOIN players p ON p.id = a.player_id WHERE `+where+` = ?`, arg).
		Scan(&a.PlayerID, &a.Name, &a.RecoveryHash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return a, store.Errorf(store.ENOTFOUND, "no such account")
	}
	if err != nil {
		return a, fmt.Errorf("sqlite: account: %w", err)
	}
	a.Created = time.Unix(0, created)
	return a, nil
}

// Account implements store.Store.
func (db *DB) Account(ctx context.Context, playerID string) (store.Account, error) {
	return db.account(ctx, "a.player_id", playerID)
}

// AccountByName implements store.Store.
func (db *DB) AccountByName(ctx context.Context, name string) (store.Account, error) {
	return db.account(ctx, "a.name_key", store.NameKey(name))
}

// AddPasskey implements store.Store.
func (db *DB) AddPasskey(ctx context.Context, p store.Passkey) error {
	p, err := p.Prepare(db.now())
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: add passkey: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player_id = ?`, p.PlayerID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: add passkey: %w", err)
	}
	if n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such account")
	}
	if err := insertPasskey(ctx, tx, p); err != nil {
		return err
	}
	return tx.Commit()
}

const passkeyCols = `id, player_id, label, credential, created, used`

func scanPasskey(s scanner) (store.Passkey, error) {
	var p store.Passkey
	var cred string
	var created, used int64
	err := s.Scan(&p.ID, &p.PlayerID, &p.Label, &cred, &created, &used)
	p.Credential, p.Created, p.Used = json.RawMessage(cred), time.Unix(0, created), timeOrZero(used)
	return p, err
}

// Passkey implements store.Store.
func (db *DB) Passkey(ctx context.Context, id string) (store.Passkey, error) {
	p, err := scanPasskey(db.r.QueryRowContext(ctx, `SELECT `+passkeyCols+` FROM passkeys WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, store.Errorf(store.ENOTFOUND, "no such passkey")
	}
	if err != nil {
		return p, fmt.Errorf("sqlite: passkey: %w", err)
	}
	return p, nil
}

// Passkeys implements store.Store.
func (db *DB) Passkeys(ctx context.Context, playerID string) ([]store.Passkey, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+passkeyCols+` FROM passkeys WHERE player_id = ? ORDER BY created, id`, playerID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: passkeys: %w", err)
	}
	defer rows.Close()
	var out []store.Passkey
	for rows.Next() {
		p, err := scanPasskey(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: passkeys: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// UsePasskey implements store.Store.
func (db *DB) UsePasskey(ctx context.Context, id string, credential json.RawMessage, at time.Time) error {
	if !json.Valid(credential) {
		return store.Errorf(store.EINVALID, "the credential is not JSON")
	}
	res, err := db.w.ExecContext(ctx, `UPDATE passkeys SET credential = ?, used = ? WHERE id = ?`, string(credential), at.UnixNano(), id)
	if err != nil {
		return fmt.Errorf("sqlite: use passkey: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such passkey")
	}
	return nil
}

// RemovePasskey implements store.Store.
func (db *DB) RemovePasskey(ctx context.Context, playerID, id string) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: remove passkey: %w", err)
	}
	defer tx.Rollback()
	var mine, all int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE id = ?), count(*) FROM passkeys WHERE player_id = ?`, id, playerID).Scan(&mine, &all); err != nil {
		return fmt.Errorf("sqlite: remove passkey: %w", err)
	}
	if mine == 0 {
		return store.Errorf(store.ENOTFOUND, "you have no such passkey")
	}
	if all == 1 {
		return store.Errorf(store.ECONFLICT, "this is your only passkey: add another before you remove it")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM passkeys WHERE id = ? AND player_id = ?`, id, playerID); err != nil {
		return fmt.Errorf("sqlite: remove passkey: %w", err)
	}
	return tx.Commit()
}

// ReplaceRecovery implements store.Store.
func (db *DB) ReplaceRecovery(ctx context.Context, playerID, old, next string) error {
	res, err := db.w.ExecContext(ctx, `UPDATE accounts SET recovery_hash = ? WHERE player_id = ? AND recovery_hash = ? AND recovery_hash != ''`, next, playerID, old)
	if err != nil {
		return fmt.Errorf("sqlite: recovery: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	if _, err := db.Account(ctx, playerID); err != nil {
		return err
	}
	return store.Errorf(store.ECONFLICT, "this recovery code was already used")
}

// CreateSession implements store.Store.
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	if s.TokenHash == "" {
		return store.Errorf(store.EINVALID, "a session needs a token hash")
	}
	if s.Created.IsZero() {
		s.Created = db.now()
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, player_id, created) SELECT ?, player_id, ? FROM accounts WHERE player_id = ?`,
		s.TokenHash, s.Created.UnixNano(), s.PlayerID)
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "the session exists")
	}
	if err != nil {
		return fmt.Errorf("sqlite: create session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such account")
	}
	return nil
}

// PlayerBySession implements store.Store.
func (db *DB) PlayerBySession(ctx context.Context, tokenHash string) (store.Player, error) {
	var id string
	err := db.r.QueryRowContext(ctx, `SELECT player_id FROM sessions WHERE token_hash = ?`, tokenHash).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Player{}, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return store.Player{}, fmt.Errorf("sqlite: session: %w", err)
	}
	return db.Player(ctx, id)
}

// DeleteSession implements store.Store.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash); err != nil {
		return fmt.Errorf("sqlite: delete session: %w", err)
	}
	return nil
}
