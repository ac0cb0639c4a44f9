package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/store"
)

// insertSession stores a prepared session.
func insertSession(ctx context.Context, tx *sql.Tx, s store.Session) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, id, player_id, created, last_seen, device) VALUES (?, ?, ?, ?, ?, ?)`,
		s.TokenHash, s.ID, s.PlayerID, s.Created.UnixNano(), s.LastSeen.UnixNano(), s.Device)
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "the session exists")
	}
	if err != nil {
		return fmt.Errorf("sqlite: session: %w", err)
	}
	return nil
}

// endSessions ends the player's sessions but the one of the token hash
// except, and marks the token the player was made with as ended if it is
// among them.
func endSessions(ctx context.Context, tx *sql.Tx, playerID, except string) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE player_id = ? AND token_hash != ?`, playerID, except)
	if err != nil {
		return 0, fmt.Errorf("sqlite: end sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	if err := markEnded(ctx, tx, playerID); err != nil {
		return 0, err
	}
	return int(n), nil
}

// markEnded sets the player's token_hash to store.EndedToken when the
// session of that token is gone, so that no copy of the player brings it
// back.
func markEnded(ctx context.Context, tx *sql.Tx, playerID string) error {
	_, err := tx.ExecContext(ctx, `UPDATE players SET token_hash = ? WHERE id = ? AND token_hash != ?
		AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.token_hash = players.token_hash)`, store.EndedToken(playerID), playerID, store.EndedToken(playerID))
	if err != nil {
		return fmt.Errorf("sqlite: end session: %w", err)
	}
	return nil
}

// CreateSession implements store.Store.
func (db *DB) CreateSession(ctx context.Context, s store.Session, max int) error {
	s, err := s.Prepare(db.now())
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create session: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM players WHERE id = ?`, s.PlayerID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: create session: %w", err)
	}
	if n == 0 {
		return store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err := insertSession(ctx, tx, s); err != nil {
		return err
	}
	if max > 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE player_id = ?
			ORDER BY last_seen DESC, created DESC, token_hash LIMIT -1 OFFSET ?)`, s.PlayerID, max)
		if err != nil {
			return fmt.Errorf("sqlite: create session: %w", err)
		}
		if err := markEnded(ctx, tx, s.PlayerID); err != nil {
			return err
		}
	}
	return tx.Commit()
}

const sessionCols = `s.id, s.token_hash, s.player_id, s.created, s.last_seen, s.device`

func scanSession(sc scanner, more ...any) (store.Session, error) {
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
	s, err := scanSession(db.r.QueryRowContext(ctx, `SELECT `+sessionCols+`, p.id, p.name, p.token_hash, p.created
		FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?`, tokenHash), &p.ID, &p.Name, &p.TokenHash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return s, p, store.Errorf(store.ENOTFOUND, "no such player")
	}
	if err != nil {
		return s, p, fmt.Errorf("sqlite: session: %w", err)
	}
	p.Created = time.Unix(0, created)
	if p.TokenHash == store.EndedToken(p.ID) {
		p.TokenHash = ""
	}
	return s, p, nil
}

// Sessions implements store.Store.
func (db *DB) Sessions(ctx context.Context, playerID string) ([]store.Session, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.player_id = ? ORDER BY s.last_seen DESC, s.created DESC, s.id`, playerID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: sessions: %w", err)
	}
	defer rows.Close()
	var out []store.Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// TouchSession implements store.Store.
func (db *DB) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	if _, err := db.w.ExecContext(ctx, `UPDATE sessions SET last_seen = ? WHERE token_hash = ? AND last_seen < ?`, at.UnixNano(), tokenHash, at.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: touch session: %w", err)
	}
	return nil
}

// endWhere ends the sessions selected by where (on the sessions table)
// and marks their player's first token ended if it is among them.
func (db *DB) endWhere(ctx context.Context, where string, args ...any) (int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: end session: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `DELETE FROM sessions WHERE `+where+` RETURNING player_id`, args...)
	if err != nil {
		return 0, fmt.Errorf("sqlite: end session: %w", err)
	}
	var players []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sqlite: end session: %w", err)
		}
		players = append(players, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sqlite: end session: %w", err)
	}
	if len(players) > 0 {
		if err := markEnded(ctx, tx, players[0]); err != nil {
			return 0, err
		}
	}
	return len(players), tx.Commit()
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
