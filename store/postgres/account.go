package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/farkle/farkle/store"
)

// CreateAccount implements store.Store. The player's row is locked for the
// transaction, and the unique name key and passkey ID refuse what another
// node wrote first: two accounts of one name, one passkey twice.
func (db *DB) CreateAccount(ctx context.Context, a store.Account, first store.Passkey) error {
	a, first, err := a.Prepare(first, db.now())
	if err != nil {
		return err
	}
	key := store.NameKey(a.Name)
	return db.inTx(ctx, "create account", func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM players WHERE id = $1 FOR UPDATE) p`, a.PlayerID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "no such player")
		}
		var owner string
		err := tx.QueryRow(ctx, `SELECT player_id FROM accounts WHERE player_id = $1 OR name_key = $2 LIMIT 1`, a.PlayerID, key).Scan(&owner)
		switch {
		case err == nil && owner == a.PlayerID:
			return store.Errorf(store.ECONFLICT, "you already have an account")
		case err == nil:
			return store.Errorf(store.ECONFLICT, "the name %s is taken by another account", a.Name)
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO accounts (player_id, name_key, recovery_hash, created) VALUES ($1, $2, $3, $4)`,
			a.PlayerID, key, a.RecoveryHash, a.Created.UnixNano())
		if isUnique(err) { // another node gave the name to another account since
			return store.Errorf(store.ECONFLICT, "the name %s is taken by another account", a.Name)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET name = $1 WHERE id = $2`, a.Name, a.PlayerID); err != nil {
			return err
		}
		return insertPasskey(ctx, tx, first)
	})
}

func insertPasskey(ctx context.Context, tx pgx.Tx, p store.Passkey) error {
	_, err := tx.Exec(ctx, `INSERT INTO passkeys (id, player_id, label, credential, created, used) VALUES ($1, $2, $3, $4, $5, $6)`,
		p.ID, p.PlayerID, p.Label, string(p.Credential), p.Created.UnixNano(), unixOrZero(p.Used))
	if isUnique(err) {
		return store.Errorf(store.ECONFLICT, "this passkey is already registered")
	}
	return err
}

// unixOrZero is t in Unix nanoseconds, 0 for the zero time.
func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// timeOrZero is the inverse of unixOrZero.
func timeOrZero(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func (db *DB) account(ctx context.Context, col, arg string) (store.Account, error) {
	var a store.Account
	var created int64
	err := db.pool.QueryRow(ctx, `SELECT a.player_id, p.name, a.recovery_hash, a.created FROM accounts a JOIN players p ON p.id = a.player_id WHERE `+col+` = $1`, arg).
		Scan(&a.PlayerID, &a.Name, &a.RecoveryHash, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, store.Errorf(store.ENOTFOUND, "no such account")
	}
	if err != nil {
		return a, fmt.Errorf("postgres: account: %w", err)
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

// AddPasskey implements store.Store: one insert that finds the account.
func (db *DB) AddPasskey(ctx context.Context, p store.Passkey) error {
	p, err := p.Prepare(db.now())
	if err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO passkeys (id, player_id, label, credential, created, used)
		SELECT $1, player_id, $3, $4, $5, $6 FROM accounts WHERE player_id = $2`,
		p.ID, p.PlayerID, p.Label, string(p.Credential), p.Created.UnixNano(), unixOrZero(p.Used))
	return affected(tag, err, "add passkey", "this passkey is already registered", "no such account")
}

// affected is the error of a write that finds its row: ECONFLICT (saying
// conflict) on a uniqueness violation, ENOTFOUND (saying notFound) when it
// wrote no row.
func affected(tag pgconn.CommandTag, err error, what, conflict, notFound string) error {
	switch {
	case isUnique(err):
		return store.Errorf(store.ECONFLICT, "%s", conflict)
	case err != nil:
		return fmt.Errorf("postgres: %s: %w", what, err)
	case tag.RowsAffected() == 0:
		return store.Errorf(store.ENOTFOUND, "%s", notFound)
	}
	return nil
}

const passkeyCols = `id, player_id, label, credential, created, used`

func scanPasskey(row pgx.Row) (store.Passkey, error) {
	var p store.Passkey
	var cred string
	var created, used int64
	err := row.Scan(&p.ID, &p.PlayerID, &p.Label, &cred, &created, &used)
	p.Credential, p.Created, p.Used = json.RawMessage(cred), time.Unix(0, created), timeOrZero(used)
	return p, err
}

// Passkey implements store.Store.
func (db *DB) Passkey(ctx context.Context, id string) (store.Passkey, error) {
	p, err := scanPasskey(db.pool.QueryRow(ctx, `SELECT `+passkeyCols+` FROM passkeys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return p, store.Errorf(store.ENOTFOUND, "no such passkey")
	}
	if err != nil {
		return p, fmt.Errorf("postgres: passkey: %w", err)
	}
	return p, nil
}

// Passkeys implements store.Store.
func (db *DB) Passkeys(ctx context.Context, playerID string) ([]store.Passkey, error) {
	return queryAll(ctx, db, "passkeys", scanPasskey, `SELECT `+passkeyCols+` FROM passkeys WHERE player_id = $1 ORDER BY created, id`, playerID)
}

// queryAll runs the query and scans each row with scan.
func queryAll[T any](ctx context.Context, db *DB, what string, scan func(pgx.Row) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", what, err)
	}
	return out, nil
}

// UsePasskey implements store.Store.
func (db *DB) UsePasskey(ctx context.Context, id string, credential json.RawMessage, at time.Time) error {
	if !json.Valid(credential) {
		return store.Errorf(store.EINVALID, "the credential is not JSON")
	}
	tag, err := db.pool.Exec(ctx, `UPDATE passkeys SET credential = $1, used = $2 WHERE id = $3`, string(credential), at.UnixNano(), id)
	return affected(tag, err, "use passkey", "", "no such passkey")
}

// RemovePasskey implements store.Store. The account's row is locked for
// the transaction, so that two nodes removing an account's last two
// passkeys at once cannot leave it none.
func (db *DB) RemovePasskey(ctx context.Context, playerID, id string) error {
	return db.inTx(ctx, "remove passkey", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE player_id = $1 FOR UPDATE`, playerID); err != nil {
			return err
		}
		var mine, all int
		if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE id = $1), count(*) FROM passkeys WHERE player_id = $2`, id, playerID).Scan(&mine, &all); err != nil {
			return err
		}
		if mine == 0 {
			return store.Errorf(store.ENOTFOUND, "you have no such passkey")
		}
		if all == 1 {
			return store.Errorf(store.ECONFLICT, "this is your only passkey: add another before you remove it")
		}
		_, err := tx.Exec(ctx, `DELETE FROM passkeys WHERE id = $1 AND player_id = $2`, id, playerID)
		return err
	})
}

// ReplaceRecovery implements store.Store: one conditional write, so a
// code is used once whatever the nodes.
func (db *DB) ReplaceRecovery(ctx context.Context, playerID, old, next string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE accounts SET recovery_hash = $1 WHERE player_id = $2 AND recovery_hash = $3 AND recovery_hash != ''`, next, playerID, old)
	if err != nil {
		return fmt.Errorf("postgres: recovery: %w", err)
	}
	if tag.RowsAffected() == 1 {
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
	tag, err := db.pool.Exec(ctx, `INSERT INTO sessions (token_hash, player_id, created) SELECT $1, player_id, $2 FROM accounts WHERE player_id = $3`,
		s.TokenHash, s.Created.UnixNano(), s.PlayerID)
	return affected(tag, err, "create session", "the session exists", "no such account")
}

// PlayerBySession implements store.Store.
func (db *DB) PlayerBySession(ctx context.Context, tokenHash string) (store.Player, error) {
	var id string
	err := db.pool.QueryRow(ctx, `SELECT player_id FROM sessions WHERE token_hash = $1`, tokenHash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Player{}, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return store.Player{}, fmt.Errorf("postgres: session: %w", err)
	}
	return db.Player(ctx, id)
}

// DeleteSession implements store.Store.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}
