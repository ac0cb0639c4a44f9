package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/store"
)

// insertSession stores a prepared session.
func insertSession(ctx context.Context, tx pgx.Tx, s store.Session) error {
	_, err := tx.Exec(ctx, `INSERT INTO sessions (token_hash, id, player_id, created, last_seen, device) VALUES ($1, $2, $3, $4, $5, $6)`,
		s.TokenHash, s.ID, s.PlayerID, s.Created.UnixNano(), s.LastSeen.UnixNano(), s.Device)
	if isUnique(err) {
		return store.Errorf(store.ECONFLICT, "the session exists")
	}
	return err
}

// endSessions ends the player's sessions but the one of the token hash
// except, and marks the token the player was made with as ended if it is
// among them.
func endSessions(ctx context.Context, tx pgx.Tx, playerID, except string) (int, error) {
	tag, err := tx.Exec(ctx, `DELETE FROM sessions WHERE player_id = $1 AND token_hash != $2`, playerID, except)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), markEnded(ctx, tx, playerID)
}

// markEnded sets the player's token_hash to store.EndedToken when the
// session of that token is gone, so that no copy of the player brings it
// back.
func markEnded(ctx context.Context, tx pgx.Tx, playerID string) error {
	_, err := tx.Exec(ctx, `UPDATE players SET token_hash = $1 WHERE id = $2 AND token_hash != $1
		AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.token_hash = players.token_hash)`, store.EndedToken(playerID), playerID)
	return err
}

// lockPlayer locks the player's row for the transaction (so that the
// writes of its sessions on several nodes count one after the other);
// ENOTFOUND if none.
func lockPlayer(ctx context.Context, tx pgx.Tx, id string) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM players WHERE id = $1 FOR UPDATE) p`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such player")
	}
	return nil
}

// CreateSession implements store.Store.
func (db *DB) CreateSession(ctx context.Context, s store.Session, max int) error {
	s, err := s.Prepare(db.now())
	if err != nil {
		return err
	}
	return db.inTx(ctx, "create session", func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, s.PlayerID); err != nil {
			return err
		}
		if err := insertSession(ctx, tx, s); err != nil || max <= 0 {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE player_id = $1
			ORDER BY last_seen DESC, created DESC, token_hash OFFSET $2)`, s.PlayerID, max)
		if err != nil {
			return err
		}
		return markEnded(ctx, tx, s.PlayerID)
	})
}

const sessionCols = `s.id, s.token_hash, s.player_id, s.created, s.last_seen, s.device`

func scanSession(row pgx.Row, more ...any) (store.Session, error) {
	var s store.Session
	var created, seen int64
	err := row.Scan(append([]any{&s.ID, &s.TokenHash, &s.PlayerID, &created, &seen, &s.Device}, more...)...)
	s.Created, s.LastSeen = time.Unix(0, created), time.Unix(0, seen)
	return s, err
}

// SessionByToken implements store.Store.
func (db *DB) SessionByToken(ctx context.Context, tokenHash string) (store.Session, store.Player, error) {
	var p store.Player
	var created int64
	s, err := scanSession(db.pool.QueryRow(ctx, `SELECT `+sessionCols+`, p.id, p.name, p.token_hash, p.created
		FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1`, tokenHash), &p.ID, &p.Name, &p.TokenHash, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, p, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return s, p, fmt.Errorf("postgres: session: %w", err)
	}
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return s, p, nil
}

// Sessions implements store.Store.
func (db *DB) Sessions(ctx context.Context, playerID string) ([]store.Session, error) {
	scan := func(row pgx.Row) (store.Session, error) { return scanSession(row) }
	return queryAll(ctx, db, "sessions", scan, `SELECT `+sessionCols+` FROM sessions s WHERE s.player_id = $1 ORDER BY s.last_seen DESC, s.created DESC, s.id`, playerID)
}

// TouchSession implements store.Store.
func (db *DB) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	if _, err := db.pool.Exec(ctx, `UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 AND last_seen < $1`, at.UnixNano(), tokenHash); err != nil {
		return fmt.Errorf("postgres: touch session: %w", err)
	}
	return nil
}

// endWhere ends the sessions selected by where (on the sessions table)
// and marks their player's first token ended if it is among them.
func (db *DB) endWhere(ctx context.Context, where string, args ...any) (int, error) {
	n := 0
	err := db.inTx(ctx, "end session", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM sessions WHERE `+where+` RETURNING player_id`, args...)
		if err != nil {
			return err
		}
		players, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		if n = len(players); n > 0 {
			return markEnded(ctx, tx, players[0])
		}
		return nil
	})
	return n, err
}

// DeleteSession implements store.Store.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := db.endWhere(ctx, `token_hash = $1`, tokenHash)
	return err
}

// EndSession implements store.Store.
func (db *DB) EndSession(ctx context.Context, playerID, id string) error {
	n, err := db.endWhere(ctx, `player_id = $1 AND id = $2`, playerID, id)
	if err == nil && n == 0 {
		return store.Errorf(store.ENOTFOUND, "you have no such session")
	}
	return err
}

// EndSessions implements store.Store.
func (db *DB) EndSessions(ctx context.Context, playerID, except string) (int, error) {
	return db.endWhere(ctx, `player_id = $1 AND token_hash != $2`, playerID, except)
}
