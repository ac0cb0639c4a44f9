package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
)

// CreateTournament implements store.Store.
func (db *DB) CreateTournament(ctx context.Context, t store.Tournament) error {
	t, err := t.Prepare(db.Now())
	if err != nil {
		return err
	}
	ej, _ := json.Marshal(t.Entrants)
	_, err = db.exec(ctx, db.W, `INSERT INTO tournaments (id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		t.ID, t.Name, t.Format, string(t.Kind), string(t.Rules), t.Pace, int64(t.Clock), t.Rated, t.Size, unixOrZero(t.Start), t.Creator,
		string(t.Status), t.Reason, string(ej), string(t.State), t.Created.UnixNano(), t.Created.UnixNano())
	if db.D.IsUnique(err) {
		return store.Errorf(store.ECONFLICT, "tournament %s already exists", t.ID)
	}
	if err != nil {
		return db.Errorf("create tournament", err)
	}
	return nil
}

const tournamentCols = `id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated`

func scanTournament(s Scanner) (store.Tournament, error) {
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
		return t, fmt.Errorf("tournament %s entrants: %w", t.ID, err)
	}
	return t, nil
}

// Tournament implements store.Store.
func (db *DB) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := scanTournament(db.row(ctx, db.R, `SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, id))
	if err = notFound(err, "no tournament %q", id); err != nil {
		return t, db.fail("tournament", err)
	}
	return t, nil
}

// statusIn is the condition that the status is among those given (any
// if none) and its arguments.
func statusIn(status []store.TournamentStatus) (string, []any) {
	if len(status) == 0 {
		return `1=1`, nil
	}
	st := make([]string, len(status))
	for i, s := range status {
		st[i] = string(s)
	}
	in, args := In(st)
	return `status IN ` + in, args
}

// Tournaments implements store.Store.
func (db *DB) Tournaments(ctx context.Context, status []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	if limit <= 0 {
		limit = 100
	}
	cond, args := statusIn(status)
	return readAll(ctx, db, "tournaments", scanTournament, `SELECT `+tournamentCols+` FROM tournaments
		WHERE `+cond+` ORDER BY updated DESC, id LIMIT ?`, append(args, limit)...)
}

// CountTournaments implements store.Store.
func (db *DB) CountTournaments(ctx context.Context, status []store.TournamentStatus, creator string) (int, error) {
	cond, args := statusIn(status)
	n, err := db.count(ctx, db.R, `SELECT count(*) FROM tournaments WHERE `+cond+` AND (? = '' OR creator = ?)`, append(args, creator, creator)...)
	if err != nil {
		return 0, db.Errorf("count tournaments", err)
	}
	return n, nil
}

// UpdateTournament implements store.Store: one write conditional on the
// version, so that of two nodes updating from the same version one wins.
func (db *DB) UpdateTournament(ctx context.Context, t store.Tournament) (int, error) {
	if !json.Valid(t.State) {
		return 0, store.Errorf(store.EINVALID, "the state of tournament %s is not JSON", t.ID)
	}
	ej, _ := json.Marshal(t.Entrants)
	res, err := db.exec(ctx, db.W, `UPDATE tournaments SET status = ?, reason = ?, entrants = ?, state = ?, version = version + 1, updated = ? WHERE id = ? AND version = ?`,
		string(t.Status), t.Reason, string(ej), string(t.State), db.Now().UnixNano(), t.ID, t.Version)
	if err != nil {
		return 0, db.Errorf("update tournament", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return t.Version + 1, nil
	}
	if _, err := db.Tournament(ctx, t.ID); err != nil {
		return 0, err
	}
	return 0, store.Errorf(store.ECONFLICT, "tournament %s changed since it was read", t.ID)
}
