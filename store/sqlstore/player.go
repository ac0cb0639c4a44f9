package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/farkle/farkle/store"
)

// CreatePlayer implements store.Store.
func (db *DB) CreatePlayer(ctx context.Context, p store.Player) error {
	if p.ID == "" || p.TokenHash == "" {
		return store.Errorf(store.EINVALID, "a player needs an ID and a token hash")
	}
	return db.insertPlayer(ctx, p)
}

// insertPlayer stores p and, unless its token has ended (""), the
// session of its token, in one transaction.
func (db *DB) insertPlayer(ctx context.Context, p store.Player) error {
	if p.Created.IsZero() {
		p.Created = db.Now()
	}
	th := p.TokenHash
	if th == "" {
		th = store.EndedToken(p.ID)
	}
	return db.InTx(ctx, "create player", func(tx *sql.Tx) error {
		_, err := db.exec(ctx, tx, `INSERT INTO players (id, name, token_hash, created) VALUES (?, ?, ?, ?)`,
			p.ID, p.Name, th, p.Created.UnixNano())
		if db.D.IsUnique(err) {
			return store.Errorf(store.ECONFLICT, "player %s already exists", p.ID)
		}
		if err != nil || p.TokenHash == "" {
			return err
		}
		s, err := store.Session{TokenHash: p.TokenHash, PlayerID: p.ID, Created: p.Created}.Prepare(p.Created)
		if err != nil {
			return err
		}
		return db.insertSession(ctx, tx, s)
	})
}

// PlayerCols are the columns ScanPlayer reads.
const PlayerCols = `id, name, token_hash, created`

// ScanPlayer reads the columns PlayerCols.
func ScanPlayer(s Scanner) (store.Player, error) {
	var p store.Player
	var created int64
	err := s.Scan(&p.ID, &p.Name, &p.TokenHash, &created)
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return p, err
}

// PlayerByToken implements store.Store.
func (db *DB) PlayerByToken(ctx context.Context, tokenHash string) (store.Player, error) {
	_, p, err := db.SessionByToken(ctx, tokenHash)
	return p, err
}

// Player implements store.Store.
func (db *DB) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := ScanPlayer(db.row(ctx, db.R, `SELECT `+PlayerCols+` FROM players WHERE id = ?`, id))
	if err = notFound(err, "no such player"); err != nil {
		return p, db.fail("player", err)
	}
	return p, nil
}

// AddKey implements store.Store.
func (db *DB) AddKey(ctx context.Context, fingerprint, playerID string) error {
	if fingerprint == "" {
		return store.Errorf(store.EINVALID, "an SSH key needs a fingerprint")
	}
	if _, err := db.Player(ctx, playerID); err != nil {
		return err
	}
	_, err := db.exec(ctx, db.W, `INSERT INTO ssh_keys (fingerprint, player_id, created) VALUES (?, ?, ?)`,
		fingerprint, playerID, db.Now().UnixNano())
	if db.D.IsUnique(err) {
		return store.Errorf(store.ECONFLICT, "the SSH key %s is already a player's", fingerprint)
	}
	if err != nil {
		return db.Errorf("add key", err)
	}
	return nil
}

// PlayerByKey implements store.Store.
func (db *DB) PlayerByKey(ctx context.Context, fingerprint string) (store.Player, error) {
	var id string
	err := db.row(ctx, db.R, `SELECT player_id FROM ssh_keys WHERE fingerprint = ?`, fingerprint).Scan(&id)
	if err = notFound(err, "no player has this SSH key"); err != nil {
		return store.Player{}, db.fail("player by key", err)
	}
	return db.Player(ctx, id)
}

// ExpireGuestsQuery selects the guests ExpireGuests deletes: made before
// the time and not kept (players_unkept, oldest first), with no session
// seen since the time, no account and no SSH key (each by its player's
// index); at most a limit. Its arguments: the time twice, the limit.
const ExpireGuestsQuery = `SELECT p.id FROM players AS p {index players_unkept}
	WHERE p.kept = {false} AND p.created < ?
		AND NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.player_id = p.id AND s.last_seen >= ?)
		AND NOT EXISTS (SELECT 1 FROM accounts AS a WHERE a.player_id = p.id)
		AND NOT EXISTS (SELECT 1 FROM ssh_keys AS k WHERE k.player_id = p.id)
	ORDER BY p.created LIMIT ?{skip locked}`

// ExpireGuests implements store.Store, in one transaction. The guests
// chosen are locked where the database locks rows, so that a guest
// another write keeps meanwhile (its trigger waits for the lock) is seen
// kept and stays; guests another node is deleting are skipped.
func (db *DB) ExpireGuests(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	n := 0
	err := db.InTx(ctx, "expire guests", func(tx *sql.Tx) error {
		ids, err := all(ctx, db, tx, scanString, ExpireGuestsQuery, before.UnixNano(), before.UnixNano(), limit)
		if err != nil || len(ids) == 0 {
			return err
		}
		in, args := In(ids)
		if _, err := db.exec(ctx, tx, `DELETE FROM sessions WHERE player_id IN `+in, args...); err != nil {
			return err
		}
		res, err := db.exec(ctx, tx, `DELETE FROM players WHERE id IN `+in+` AND kept = {false}`, args...)
		if err != nil {
			return err
		}
		m, err := res.RowsAffected()
		n = int(m)
		return err
	})
	return n, err
}
