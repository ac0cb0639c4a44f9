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
func (db *DB) CreateAccount(ctx context.Context, a store.Account, first store.Passkey, ses store.Session) error {
	a, first, err := a.Prepare(first, db.now())
	if err != nil {
		return err
	}
	ses.PlayerID = a.PlayerID
	if ses, err = ses.Prepare(db.now()); err != nil {
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
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player_id = ?`, a.PlayerID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if n > 0 {
		return store.Errorf(store.ECONFLICT, "you already have an account")
	}
	look, upper := store.NameLooks(a.Name)
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE name_key = ? OR skeleton = ? OR skeleton_upper = ?`,
		store.NameKey(a.Name), look, upper).Scan(&n)
	if err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if n > 0 {
		return store.Errorf(store.ECONFLICT, "the name %s is taken by another account, or looks like one", a.Name)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (player_id, name_key, recovery_hash, created, skeleton, skeleton_upper) VALUES (?, ?, ?, ?, ?, ?)`,
		a.PlayerID, store.NameKey(a.Name), a.RecoveryHash, a.Created.UnixNano(), look, upper); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE players SET name = ? WHERE id = ?`, a.Name, a.PlayerID); err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	if err := insertPasskey(ctx, tx, first); err != nil {
		return err
	}
	if _, err := endSessions(ctx, tx, a.PlayerID, ""); err != nil {
		return err
	}
	if err := insertSession(ctx, tx, ses); err != nil {
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

func (db *DB) account(ctx context.Context, where string, args ...any) (store.Account, error) {
	var a store.Account
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT a.player_id, p.name, a.recovery_hash, a.created FROM accounts a JOIN players p ON p.id = a.player_id WHERE `+where+` ORDER BY a.created LIMIT 1`, args...).
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
	return db.account(ctx, "a.player_id = ?", playerID)
}

// AccountByName implements store.Store.
func (db *DB) AccountByName(ctx context.Context, name string) (store.Account, error) {
	return db.account(ctx, "a.name_key = ?", store.NameKey(name))
}

// AccountLike implements store.Store.
func (db *DB) AccountLike(ctx context.Context, name string) (store.Account, error) {
	look, upper := store.NameLooks(name)
	return db.account(ctx, "a.name_key = ? OR a.skeleton = ? OR a.skeleton_upper = ?", store.NameKey(name), look, upper)
}

// AddPasskey implements store.Store.
func (db *DB) AddPasskey(ctx context.Context, p store.Passkey, max int) error {
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
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM passkeys WHERE player_id = ?`, p.PlayerID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: add passkey: %w", err)
	}
	if max > 0 && n >= max {
		return store.Errorf(store.ECONFLICT, "you have %d passkeys, the most an account may have: remove one first", n)
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
func (db *DB) ReplaceRecovery(ctx context.Context, playerID, old, next string, ses store.Session) error {
	ses.PlayerID = playerID
	ses, err := ses.Prepare(db.now())
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: recovery: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET recovery_hash = ? WHERE player_id = ? AND recovery_hash = ? AND recovery_hash != ''`, next, playerID, old)
	if err != nil {
		return fmt.Errorf("sqlite: recovery: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		var have int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player_id = ?`, playerID).Scan(&have); err != nil {
			return fmt.Errorf("sqlite: recovery: %w", err)
		}
		if have == 0 {
			return store.Errorf(store.ENOTFOUND, "no such account")
		}
		return store.Errorf(store.ECONFLICT, "this recovery code was already used")
	}
	if _, err := endSessions(ctx, tx, playerID, ""); err != nil {
		return err
	}
	if err := insertSession(ctx, tx, ses); err != nil {
		return err
	}
	return tx.Commit()
}
