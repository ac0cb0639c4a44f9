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

// accountNameLock is the first key of the advisory lock under which
// accounts are made, so that two nodes cannot give two accounts names
// that look alike (the skeletons are not unique in the schema: accounts
// made before they were kept may share one).
const accountNameLock = 0x6e616d65 // "name"

// CreateAccount implements store.Store. The player's row is locked for the
// transaction, accounts are made one at a time (accountNameLock), and the
// unique name key and passkey ID refuse what another node wrote first.
func (db *DB) CreateAccount(ctx context.Context, a store.Account, first store.Passkey, ses store.Session) error {
	a, first, err := a.Prepare(first, db.now())
	if err != nil {
		return err
	}
	ses.PlayerID = a.PlayerID
	if ses, err = ses.Prepare(db.now()); err != nil {
		return err
	}
	key := store.NameKey(a.Name)
	look, upper := store.NameLooks(a.Name)
	taken := store.Errorf(store.ECONFLICT, "the name %s is taken by another account, or looks like one", a.Name)
	return db.inTx(ctx, "create account", func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM players WHERE id = $1 FOR UPDATE) p`, a.PlayerID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "no such player")
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, int32(accountNameLock)); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM accounts WHERE player_id = $1`, a.PlayerID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return store.Errorf(store.ECONFLICT, "you already have an account")
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM accounts WHERE name_key = $1 OR skeleton = $2 OR skeleton_upper = $3`, key, look, upper).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return taken
		}
		_, err = tx.Exec(ctx, `INSERT INTO accounts (player_id, name_key, recovery_hash, created, skeleton, skeleton_upper) VALUES ($1, $2, $3, $4, $5, $6)`,
			a.PlayerID, key, a.RecoveryHash, a.Created.UnixNano(), look, upper)
		if isUnique(err) {
			return taken
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET name = $1 WHERE id = $2`, a.Name, a.PlayerID); err != nil {
			return err
		}
		if err := insertPasskey(ctx, tx, first); err != nil {
			return err
		}
		if _, err := endSessions(ctx, tx, a.PlayerID, ""); err != nil {
			return err
		}
		return insertSession(ctx, tx, ses)
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

func (db *DB) account(ctx context.Context, where string, args ...any) (store.Account, error) {
	var a store.Account
	var created int64
	err := db.pool.QueryRow(ctx, `SELECT a.player_id, p.name, a.recovery_hash, a.created FROM accounts a JOIN players p ON p.id = a.player_id WHERE `+where+` ORDER BY a.created LIMIT 1`, args...).
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
	return db.account(ctx, "a.player_id = $1", playerID)
}

// AccountByName implements store.Store.
func (db *DB) AccountByName(ctx context.Context, name string) (store.Account, error) {
	return db.account(ctx, "a.name_key = $1", store.NameKey(name))
}

// AccountLike implements store.Store.
func (db *DB) AccountLike(ctx context.Context, name string) (store.Account, error) {
	look, upper := store.NameLooks(name)
	return db.account(ctx, "a.name_key = $1 OR a.skeleton = $2 OR a.skeleton_upper = $3", store.NameKey(name), look, upper)
}

// AddPasskey implements store.Store. The account's row is locked for the
// transaction, so that nodes adding passkeys at once count them one after
// the other.
func (db *DB) AddPasskey(ctx context.Context, p store.Passkey, max int) error {
	p, err := p.Prepare(db.now())
	if err != nil {
		return err
	}
	return db.inTx(ctx, "add passkey", func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM accounts WHERE player_id = $1 FOR UPDATE) a`, p.PlayerID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "no such account")
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM passkeys WHERE player_id = $1`, p.PlayerID).Scan(&n); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return store.Errorf(store.ECONFLICT, "you have %d passkeys, the most an account may have: remove one first", n)
		}
		return insertPasskey(ctx, tx, p)
	})
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
// code is used once whatever the nodes, with the sessions it ends and the
// one it starts.
func (db *DB) ReplaceRecovery(ctx context.Context, playerID, old, next string, ses store.Session) error {
	ses.PlayerID = playerID
	ses, err := ses.Prepare(db.now())
	if err != nil {
		return err
	}
	return db.inTx(ctx, "recovery", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET recovery_hash = $1 WHERE player_id = $2 AND recovery_hash = $3 AND recovery_hash != ''`, next, playerID, old)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM accounts WHERE player_id = $1`, playerID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return store.Errorf(store.ENOTFOUND, "no such account")
			}
			return store.Errorf(store.ECONFLICT, "this recovery code was already used")
		}
		if _, err := endSessions(ctx, tx, playerID, ""); err != nil {
			return err
		}
		return insertSession(ctx, tx, ses)
	})
}
