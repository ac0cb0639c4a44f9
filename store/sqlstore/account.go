package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// CreateAccount implements store.Store. The player's row is locked for the
// transaction, accounts are made one at a time (nameLock: the skeletons
// are not unique in the schema, as accounts made before they were kept may
// share one), and the unique name key and passkey ID refuse what another
// node wrote first.
func (db *DB) CreateAccount(ctx context.Context, a store.Account, first store.Passkey, ses store.Session) error {
	a, first, err := a.Prepare(first, db.Now())
	if err != nil {
		return err
	}
	ses.PlayerID = a.PlayerID
	if ses, err = ses.Prepare(db.Now()); err != nil {
		return err
	}
	key := store.NameKey(a.Name)
	look, upper := store.NameLooks(a.Name)
	taken := store.Errorf(store.ECONFLICT, "the name %s is taken by another account, or looks like one", a.Name)
	return db.InTx(ctx, "create account", func(tx *sql.Tx) error {
		if err := db.lockPlayer(ctx, tx, a.PlayerID); err != nil {
			return err
		}
		if err := db.lock(ctx, tx, nameLock, ""); err != nil {
			return err
		}
		n, err := db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE player_id = ?`, a.PlayerID)
		if err != nil {
			return err
		}
		if n > 0 {
			return store.Errorf(store.ECONFLICT, "you already have an account")
		}
		if n, err = db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE name_key = ? OR skeleton = ? OR skeleton_upper = ?`, key, look, upper); err != nil {
			return err
		}
		if n > 0 {
			return taken
		}
		_, err = db.exec(ctx, tx, `INSERT INTO accounts (player_id, name_key, recovery_hash, created, skeleton, skeleton_upper) VALUES (?, ?, ?, ?, ?, ?)`,
			a.PlayerID, key, a.RecoveryHash, a.Created.UnixNano(), look, upper)
		if db.D.IsUnique(err) {
			return taken
		}
		if err != nil {
			return err
		}
		if _, err := db.exec(ctx, tx, `UPDATE players SET name = ? WHERE id = ?`, a.Name, a.PlayerID); err != nil {
			return err
		}
		if err := db.insertPasskey(ctx, tx, first); err != nil {
			return err
		}
		if _, err := db.endSessions(ctx, tx, a.PlayerID, ""); err != nil {
			return err
		}
		return db.insertSession(ctx, tx, ses)
	})
}

func (db *DB) insertPasskey(ctx context.Context, tx *sql.Tx, p store.Passkey) error {
	_, err := db.exec(ctx, tx, `INSERT INTO passkeys (id, player_id, label, credential, created, used) VALUES (?, ?, ?, ?, ?, ?)`,
		p.ID, p.PlayerID, p.Label, string(p.Credential), p.Created.UnixNano(), unixOrZero(p.Used))
	if db.D.IsUnique(err) {
		return store.Errorf(store.ECONFLICT, "this passkey is already registered")
	}
	return err
}

func (db *DB) account(ctx context.Context, where string, args ...any) (store.Account, error) {
	var a store.Account
	var created int64
	err := db.row(ctx, db.R, `SELECT a.player_id, p.name, a.recovery_hash, a.created FROM accounts a JOIN players p ON p.id = a.player_id WHERE `+where+` ORDER BY a.created LIMIT 1`, args...).
		Scan(&a.PlayerID, &a.Name, &a.RecoveryHash, &created)
	if err = notFound(err, "no such account"); err != nil {
		return a, db.fail("account", err)
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

// AddPasskey implements store.Store. The account's row is locked for the
// transaction, so that nodes adding passkeys at once count them one after
// the other.
func (db *DB) AddPasskey(ctx context.Context, p store.Passkey, max int) error {
	p, err := p.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.InTx(ctx, "add passkey", func(tx *sql.Tx) error {
		n, err := db.count(ctx, tx, `SELECT count(*) FROM (SELECT 1 FROM accounts WHERE player_id = ?{for update}) a`, p.PlayerID)
		if err != nil {
			return err
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "no such account")
		}
		if n, err = db.count(ctx, tx, `SELECT count(*) FROM passkeys WHERE player_id = ?`, p.PlayerID); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return store.Errorf(store.ECONFLICT, "you have %d passkeys, the most an account may have: remove one first", n)
		}
		return db.insertPasskey(ctx, tx, p)
	})
}

const passkeyCols = `id, player_id, label, credential, created, used`

func scanPasskey(s Scanner) (store.Passkey, error) {
	var p store.Passkey
	var cred string
	var created, used int64
	err := s.Scan(&p.ID, &p.PlayerID, &p.Label, &cred, &created, &used)
	p.Credential, p.Created, p.Used = json.RawMessage(cred), time.Unix(0, created), timeOrZero(used)
	return p, err
}

// Passkey implements store.Store.
func (db *DB) Passkey(ctx context.Context, id string) (store.Passkey, error) {
	p, err := scanPasskey(db.row(ctx, db.R, `SELECT `+passkeyCols+` FROM passkeys WHERE id = ?`, id))
	if err = notFound(err, "no such passkey"); err != nil {
		return p, db.fail("passkey", err)
	}
	return p, nil
}

// Passkeys implements store.Store.
func (db *DB) Passkeys(ctx context.Context, playerID string) ([]store.Passkey, error) {
	return readAll(ctx, db, "passkeys", scanPasskey, `SELECT `+passkeyCols+` FROM passkeys WHERE player_id = ? ORDER BY created, id`, playerID)
}

// UsePasskey implements store.Store.
func (db *DB) UsePasskey(ctx context.Context, id string, credential json.RawMessage, at time.Time) error {
	if !json.Valid(credential) {
		return store.Errorf(store.EINVALID, "the credential is not JSON")
	}
	res, err := db.exec(ctx, db.W, `UPDATE passkeys SET credential = ?, used = ? WHERE id = ?`, string(credential), at.UnixNano(), id)
	if err != nil {
		return db.Errorf("use passkey", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such passkey")
	}
	return nil
}

// RemovePasskey implements store.Store. The account's row is locked for
// the transaction, so that two nodes removing an account's last two
// passkeys at once cannot leave it none.
func (db *DB) RemovePasskey(ctx context.Context, playerID, id string) error {
	return db.InTx(ctx, "remove passkey", func(tx *sql.Tx) error {
		if _, err := db.count(ctx, tx, `SELECT count(*) FROM (SELECT 1 FROM accounts WHERE player_id = ?{for update}) a`, playerID); err != nil {
			return err
		}
		var mine, all int
		if err := db.row(ctx, tx, `SELECT count(*) FILTER (WHERE id = ?), count(*) FROM passkeys WHERE player_id = ?`, id, playerID).Scan(&mine, &all); err != nil {
			return err
		}
		if mine == 0 {
			return store.Errorf(store.ENOTFOUND, "you have no such passkey")
		}
		if all == 1 {
			return store.Errorf(store.ECONFLICT, "this is your only passkey: add another before you remove it")
		}
		_, err := db.exec(ctx, tx, `DELETE FROM passkeys WHERE id = ? AND player_id = ?`, id, playerID)
		return err
	})
}

// ReplaceRecovery implements store.Store: one conditional write, so a
// code is used once whatever the nodes, with the sessions it ends and the
// one it starts.
func (db *DB) ReplaceRecovery(ctx context.Context, playerID, old, next string, ses store.Session) error {
	ses.PlayerID = playerID
	ses, err := ses.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.InTx(ctx, "recovery", func(tx *sql.Tx) error {
		res, err := db.exec(ctx, tx, `UPDATE accounts SET recovery_hash = ? WHERE player_id = ? AND recovery_hash = ? AND recovery_hash != ''`, next, playerID, old)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			have, err := db.count(ctx, tx, `SELECT count(*) FROM accounts WHERE player_id = ?`, playerID)
			if err != nil {
				return err
			}
			if have == 0 {
				return store.Errorf(store.ENOTFOUND, "no such account")
			}
			return store.Errorf(store.ECONFLICT, "this recovery code was already used")
		}
		if _, err := db.endSessions(ctx, tx, playerID, ""); err != nil {
			return err
		}
		return db.insertSession(ctx, tx, ses)
	})
}

// SpendChallenge implements store.Store. One owner's challenges are spent
// under a lock of the owner, so that nodes spending them at once count
// them one after the other and the cap holds.
func (db *DB) SpendChallenge(ctx context.Context, key, owner string, expires time.Time, max int) error {
	if key == "" || owner == "" {
		return store.Errorf(store.EINVALID, "a spent challenge needs a key and an owner")
	}
	return db.InTx(ctx, "challenge", func(tx *sql.Tx) error {
		if err := db.lock(ctx, tx, challengeLock, owner); err != nil {
			return err
		}
		if _, err := db.exec(ctx, tx, `DELETE FROM spent_challenges WHERE expires <= ?`, db.Now().UnixNano()); err != nil {
			return err
		}
		var n int
		if max > 0 {
			var err error
			if n, err = db.count(ctx, tx, `SELECT count(*) FROM spent_challenges WHERE owner = ?`, owner); err != nil {
				return err
			}
		}
		res, err := db.exec(ctx, tx, `INSERT INTO spent_challenges (key, owner, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`, key, owner, expires.UnixNano())
		if err != nil {
			return err
		}
		if added, err := res.RowsAffected(); err != nil || added == 0 {
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
	err := db.row(ctx, db.R, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, db.Errorf("secret", err)
	}
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	if err := db.row(ctx, db.W, `INSERT INTO secrets (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET value = secrets.value RETURNING value`, name, fresh).Scan(&v); err != nil {
		return nil, db.Errorf("secret", err)
	}
	return v, nil
}

// FillSkeletons computes the name skeletons (store.NameLooks) of the
// accounts made before they were kept; the backends run it when they
// open.
func (db *DB) FillSkeletons(ctx context.Context) error {
	type named struct{ id, name string }
	todo, err := all(ctx, db, db.W, func(s Scanner) (named, error) {
		var n named
		return n, s.Scan(&n.id, &n.name)
	}, `SELECT a.player_id, p.name FROM accounts a JOIN players p ON p.id = a.player_id WHERE a.skeleton IS NULL`)
	if err != nil {
		return db.Errorf("name skeletons", err)
	}
	for _, n := range todo {
		look, upper := store.NameLooks(n.name)
		if _, err := db.exec(ctx, db.W, `UPDATE accounts SET skeleton = ?, skeleton_upper = ? WHERE player_id = ?`, look, upper, n.id); err != nil {
			return db.Errorf("name skeletons", err)
		}
	}
	return nil
}

// HaveAccounts implements store.Store.
func (db *DB) HaveAccounts(ctx context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	in, args := In(ids)
	got, err := readAll(ctx, db, "accounts of players", func(s Scanner) (string, error) {
		var id string
		return id, s.Scan(&id)
	}, `SELECT player_id FROM accounts WHERE player_id IN `+in, args...)
	for _, id := range got {
		out[id] = true
	}
	return out, err
}
