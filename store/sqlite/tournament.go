package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// CreateTournament implements store.Store.
func (db *DB) CreateTournament(ctx context.Context, t store.Tournament) error {
	t, err := t.Prepare(db.now())
	if err != nil {
		return err
	}
	ej, _ := json.Marshal(t.Entrants)
	_, err = db.w.ExecContext(ctx, `INSERT INTO tournaments (id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		t.ID, t.Name, t.Format, string(t.Kind), string(t.Rules), t.Pace, int64(t.Clock), t.Rated, t.Size, unixOrZero(t.Start), t.Creator,
		string(t.Status), t.Reason, string(ej), string(t.State), t.Created.UnixNano(), t.Created.UnixNano())
	if isConstraint(err) {
		return store.Errorf(store.ECONFLICT, "tournament %s already exists", t.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create tournament: %w", err)
	}
	return nil
}

const tournamentCols = `id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated`

func scanTournament(s scanner) (store.Tournament, error) {
	var t store.Tournament
	var kind, rules, status, entrants, state string
	var clock, start, created, updated int64
	if err := s.Scan(&t.ID, &t.Name, &t.Format, &kind, &rules, &t.Pace, &clock, &t.Rated, &t.Size, &start, &t.Creator,
		&status, &t.Reason, &entrants, &state, &t.Version, &created, &updated); err != nil {
		return t, err
	}
	t.Kind, t.Rules, t.Status, t.State = game.Kind(kind), json.RawMessage(rules), store.TournamentStatus(status), json.RawMessage(state)
	t.Clock, t.Start, t.Created, t.Updated = time.Duration(clock), timeOrZero(start), time.Unix(0, created), time.Unix(0, updated)
	if err := json.Unmarshal([]byte(entrants), &t.Entrants); err != nil {
		return t, fmt.Errorf("sqlite: tournament %s entrants: %w", t.ID, err)
	}
	return t, nil
}

// Tournament implements store.Store.
func (db *DB) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := scanTournament(db.r.QueryRowContext(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, store.Errorf(store.ENOTFOUND, "no tournament %q", id)
	}
	if err != nil {
		return t, fmt.Errorf("sqlite: tournament: %w", err)
	}
	return t, nil
}

// Tournaments implements store.Store.
func (db *DB) Tournaments(ctx context.Context, status []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT ` + tournamentCols + ` FROM tournaments`
	var args []any
	if len(status) > 0 {
		q += ` WHERE status IN (?` + strings.Repeat(`, ?`, len(status)-1) + `)`
		for _, s := range status {
			args = append(args, string(s))
		}
	}
	q += ` ORDER BY updated DESC, id LIMIT ?`
	args = append(args, limit)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: tournaments: %w", err)
	}
	defer rows.Close()
	var out []store.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: tournaments: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// UpdateTournament implements store.Store.
func (db *DB) UpdateTournament(ctx context.Context, t store.Tournament) (int, error) {
	if !json.Valid(t.State) {
		return 0, store.Errorf(store.EINVALID, "the state of tournament %s is not JSON", t.ID)
	}
	ej, _ := json.Marshal(t.Entrants)
	res, err := db.w.ExecContext(ctx, `UPDATE tournaments SET status = ?, reason = ?, entrants = ?, state = ?, version = version + 1, updated = ? WHERE id = ? AND version = ?`,
		string(t.Status), t.Reason, string(ej), string(t.State), db.now().UnixNano(), t.ID, t.Version)
	if err != nil {
		return 0, fmt.Errorf("sqlite: update tournament: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return t.Version + 1, nil
	}
	if _, err := db.Tournament(ctx, t.ID); err != nil {
		return 0, err
	}
	return 0, store.Errorf(store.ECONFLICT, "tournament %s changed since it was read", t.ID)
}

// ExpireIdle implements store.Store.
func (db *DB) ExpireIdle(ctx context.Context, id string, before time.Time, reason string) error {
	res, err := db.w.ExecContext(ctx, `UPDATE tables SET status = ?, reason = ?, updated = ? WHERE id = ? AND status IN (?, ?) AND updated < ?`,
		string(store.Expired), reason, db.now().UnixNano(), id, string(store.Waiting), string(store.Playing), before.UnixNano())
	if err != nil {
		return fmt.Errorf("sqlite: expire table: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	tb, err := db.Table(ctx, id)
	if err != nil {
		return err
	}
	return store.Errorf(store.ECONFLICT, "table %s is %s or changed since %s: it is not idle", id, tb.Status.Phrase(), before.UTC().Format(time.RFC3339))
}

// CountTournaments implements store.Store.
func (db *DB) CountTournaments(ctx context.Context, status []store.TournamentStatus, creator string) (int, error) {
	q := `SELECT count(*) FROM tournaments WHERE (? = '' OR creator = ?)`
	args := []any{creator, creator}
	if len(status) > 0 {
		q += ` AND status IN (?` + strings.Repeat(`, ?`, len(status)-1) + `)`
		for _, s := range status {
			args = append(args, string(s))
		}
	}
	var n int
	if err := db.r.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count tournaments: %w", err)
	}
	return n, nil
}
