package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
	_, err = db.pool.Exec(ctx, `INSERT INTO tournaments (id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 1, $16, $16)`,
		t.ID, t.Name, t.Format, string(t.Kind), string(t.Rules), t.Pace, int64(t.Clock), t.Rated, t.Size, unixOrZero(t.Start), t.Creator,
		string(t.Status), t.Reason, string(ej), string(t.State), t.Created.UnixNano())
	if isUnique(err) {
		return store.Errorf(store.ECONFLICT, "tournament %s already exists", t.ID)
	}
	if err != nil {
		return fmt.Errorf("postgres: create tournament: %w", err)
	}
	return nil
}

const tournamentCols = `id, name, format, kind, rules, pace, clock, rated, size, start, creator, status, reason, entrants, state, version, created, updated`

func scanTournament(row pgx.Row) (store.Tournament, error) {
	var t store.Tournament
	var kind, rules, status, entrants, state string
	var clock, start, created, updated int64
	if err := row.Scan(&t.ID, &t.Name, &t.Format, &kind, &rules, &t.Pace, &clock, &t.Rated, &t.Size, &start, &t.Creator,
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
	t, err := scanTournament(db.pool.QueryRow(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return t, store.Errorf(store.ENOTFOUND, "no tournament %q", id)
	}
	if err != nil {
		return t, fmt.Errorf("postgres: tournament: %w", err)
	}
	return t, nil
}

// Tournaments implements store.Store.
func (db *DB) Tournaments(ctx context.Context, status []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	if limit <= 0 {
		limit = 100
	}
	st := make([]string, len(status))
	for i, s := range status {
		st[i] = string(s)
	}
	return queryAll(ctx, db, "tournaments", scanTournament, `SELECT `+tournamentCols+` FROM tournaments
		WHERE cardinality($1::text[]) = 0 OR status = ANY($1) ORDER BY updated DESC, id LIMIT $2`, st, limit)
}

// UpdateTournament implements store.Store: one write conditional on the
// version, so that of two nodes updating from the same version one wins.
func (db *DB) UpdateTournament(ctx context.Context, t store.Tournament) (int, error) {
	if !json.Valid(t.State) {
		return 0, store.Errorf(store.EINVALID, "the state of tournament %s is not JSON", t.ID)
	}
	ej, _ := json.Marshal(t.Entrants)
	tag, err := db.pool.Exec(ctx, `UPDATE tournaments SET status = $1, reason = $2, entrants = $3, state = $4, version = version + 1, updated = $5 WHERE id = $6 AND version = $7`,
		string(t.Status), t.Reason, string(ej), string(t.State), db.now().UnixNano(), t.ID, t.Version)
	if err != nil {
		return 0, fmt.Errorf("postgres: update tournament: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return t.Version + 1, nil
	}
	if _, err := db.Tournament(ctx, t.ID); err != nil {
		return 0, err
	}
	return 0, store.Errorf(store.ECONFLICT, "tournament %s changed since it was read", t.ID)
}

// ExpireIdle implements store.Store. It is one conditional write; the
// nodes hear of it through the change hints.
func (db *DB) ExpireIdle(ctx context.Context, id string, before time.Time, reason string) error {
	return db.inTx(ctx, "expire table", func(tx pgx.Tx) error {
		var n int
		err := tx.QueryRow(ctx, `UPDATE tables SET status = $1, reason = $2, updated = $3 WHERE id = $4 AND status IN ($5, $6) AND updated < $7 RETURNING actions`,
			string(store.Expired), reason, db.now().UnixNano(), id, string(store.Waiting), string(store.Playing), before.UnixNano()).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			st, _, _, err := lockTable(ctx, tx, id)
			if err != nil {
				return err
			}
			return store.Errorf(store.ECONFLICT, "table %s is %s or changed since %s: it is not idle", id, st.Phrase(), before.UTC().Format(time.RFC3339))
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM leases WHERE table_id = $1`, id); err != nil {
			return err
		}
		return db.notify(ctx, tx, id, n, store.Expired)
	})
}

// CountTournaments implements store.Store.
func (db *DB) CountTournaments(ctx context.Context, status []store.TournamentStatus, creator string) (int, error) {
	st := make([]string, len(status))
	for i, s := range status {
		st[i] = string(s)
	}
	var n int
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM tournaments WHERE (cardinality($1::text[]) = 0 OR status = ANY($1)) AND ($2 = '' OR creator = $2)`, st, creator).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: count tournaments: %w", err)
	}
	return n, nil
}
