package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/farkle/farkle/store"
)

// insertSession stores a prepared session.
func (db *DB) insertSession(ctx context.Context, tx *sql.Tx, s store.Session) error {
	_, err := db.exec(ctx, tx, `INSERT INTO sessions (token_hash, id, player_id, created, last_seen, device) VALUES (?, ?, ?, ?, ?, ?)`,
		s.TokenHash, s.ID, s.PlayerID, s.Created.UnixNano(), s.LastSeen.UnixNano(), s.Device)
	if db.D.IsUnique(err) {
		return store.Errorf(store.ECONFLICT, "the session exists")
	}
	return err
}

// endSessions ends the player's sessions but the one of the token hash
// except, and marks the token the player was made with as ended if it is
// among them.
func (db *DB) endSessions(ctx context.Context, tx *sql.Tx, playerID, except string) (int, error) {
	res, err := db.exec(ctx, tx, `DELETE FROM sessions WHERE player_id = ? AND token_hash != ?`, playerID, except)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return int(n), db.markEnded(ctx, tx, playerID)
}

// markEnded sets the player's token_hash to store.EndedToken when the
// session of that token is gone, so that no copy of the player brings it
// back.
func (db *DB) markEnded(ctx context.Context, tx *sql.Tx, playerID string) error {
	ended := store.EndedToken(playerID)
	_, err := db.exec(ctx, tx, `UPDATE players SET token_hash = ? WHERE id = ? AND token_hash != ?
		AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.token_hash = players.token_hash)`, ended, playerID, ended)
	return err
}

// lockPlayer locks the player's row for the transaction (so that the
// writes of its sessions on several nodes count one after the other);
// ENOTFOUND if none.
func (db *DB) lockPlayer(ctx context.Context, tx *sql.Tx, id string) error {
	n, err := db.count(ctx, tx, `SELECT count(*) FROM (SELECT 1 FROM players WHERE id = ?{for update}) p`, id)
	if err != nil {
		return err
	}
	if n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such player")
	}
	return nil
}

// CreateSession implements store.Store.
func (db *DB) CreateSession(ctx context.Context, s store.Session, max int) error {
	s, err := s.Prepare(db.Now())
	if err != nil {
		return err
	}
	return db.InTx(ctx, "create session", func(tx *sql.Tx) error {
		if err := db.lockPlayer(ctx, tx, s.PlayerID); err != nil {
			return err
		}
		if err := db.insertSession(ctx, tx, s); err != nil || max <= 0 {
			return err
		}
		_, err := db.exec(ctx, tx, `DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE player_id = ?
			ORDER BY last_seen DESC, created DESC, token_hash {offset})`, s.PlayerID, max)
		if err != nil {
			return err
		}
		return db.markEnded(ctx, tx, s.PlayerID)
	})
}

const sessionCols = `s.id, s.token_hash, s.player_id, s.created, s.last_seen, s.device`

func scanSession(sc Scanner, more ...any) (store.Session, error) {
	var s store.Session
	var created, seen int64
	err := sc.Scan(append([]any{&s.ID, &s.TokenHash, &s.PlayerID, &created, &seen, &s.Device}, more...)...)
	s.Created, s.LastSeen = time.Unix(0, created), time.Unix(0, seen)
	return s, err
}

// SessionByToken implements store.Store.
func (db *DB) SessionByToken(ctx context.Context, tokenHash string) (store.Session, store.Player, error) {
	var p store.Player
	var created int64
	s, err := scanSession(db.row(ctx, db.R, `SELECT `+sessionCols+`, p.id, p.name, p.token_hash, p.created
		FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?`, tokenHash), &p.ID, &p.Name, &p.TokenHash, &created)
	if err = notFound(err, "no such player"); err != nil {
		return s, p, db.fail("session", err)
	}
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return s, p, nil
}

// Sessions implements store.Store.
func (db *DB) Sessions(ctx context.Context, playerID string) ([]store.Session, error) {
	scan := func(s Scanner) (store.Session, error) { return scanSession(s) }
	return readAll(ctx, db, "sessions", scan, `SELECT `+sessionCols+` FROM sessions s WHERE s.player_id = ? ORDER BY s.last_seen DESC, s.created DESC, s.id`, playerID)
}

// TouchSession implements store.Store.
func (db *DB) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	if _, err := db.exec(ctx, db.W, `UPDATE sessions SET last_seen = ? WHERE token_hash = ? AND last_seen < ?`, at.UnixNano(), tokenHash, at.UnixNano()); err != nil {
		return db.Errorf("touch session", err)
	}
	return nil
}

// endWhere ends the sessions selected by where (on the sessions table)
// and marks their player's first token ended if it is among them.
func (db *DB) endWhere(ctx context.Context, where string, args ...any) (int, error) {
	n := 0
	err := db.InTx(ctx, "end session", func(tx *sql.Tx) error {
		players, err := all(ctx, db, tx, scanString, `DELETE FROM sessions WHERE `+where+` RETURNING player_id`, args...)
		if err != nil {
			return err
		}
		if n = len(players); n > 0 {
			return db.markEnded(ctx, tx, players[0])
		}
		return nil
	})
	return n, err
}

// DeleteSession implements store.Store.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := db.endWhere(ctx, `token_hash = ?`, tokenHash)
	return err
}

// EndSession implements store.Store.
func (db *DB) EndSession(ctx context.Context, playerID, id string) error {
	n, err := db.endWhere(ctx, `player_id = ? AND id = ?`, playerID, id)
	if err == nil && n == 0 {
		return store.Errorf(store.ENOTFOUND, "you have no such session")
	}
	return err
}

// EndSessions implements store.Store.
func (db *DB) EndSessions(ctx context.Context, playerID, except string) (int, error) {
	return db.endWhere(ctx, `player_id = ? AND token_hash != ?`, playerID, except)
}
