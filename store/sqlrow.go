package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// What the SQL stores (store/sqlite, store/postgres) share: a table's row
// as they keep it (JSON as text, times as Unix nanoseconds) and the checks
// of their writes, so that both refuse and answer alike.

// TableRow is a table's row: scan into Fields, read with Table.
type TableRow struct {
	ID, Kind, Rules, Seats, Seed, Status string
	Actions                              int
	Created, Updated                     int64
	// Acted is when the last action that changed neither the status nor
	// the seats was stored (0: none since), kept apart from Updated so that
	// the most common write moves no index entry; the table's Updated is
	// the later of the two.
	Acted           int64
	Winners, Scores string // "" when not over
	Reason, Creator string
	Rated           bool
	Pace            string
	Local           bool
	Tournament      string
}

// Fields returns the row's fields to scan, in the order id, kind, rules,
// seats, seed, status, actions, created, updated, acted, winners, scores,
// reason, creator, rated, pace, local, tournament.
func (r *TableRow) Fields() []any {
	return []any{&r.ID, &r.Kind, &r.Rules, &r.Seats, &r.Seed, &r.Status, &r.Actions, &r.Created, &r.Updated, &r.Acted, &r.Winners, &r.Scores, &r.Reason, &r.Creator, &r.Rated, &r.Pace, &r.Local, &r.Tournament}
}

// Table decodes the row.
func (r *TableRow) Table() (Table, error) {
	t := Table{ID: r.ID, Kind: game.Kind(r.Kind), Rules: json.RawMessage(r.Rules), Seed: dice.SeedFrom(r.Seed), Status: Status(r.Status),
		Actions: r.Actions, Created: time.Unix(0, r.Created), Updated: time.Unix(0, max(r.Updated, r.Acted)), Reason: r.Reason, Creator: r.Creator, Rated: r.Rated, Pace: r.Pace, Local: r.Local, Tournament: r.Tournament}
	if err := json.Unmarshal([]byte(r.Seats), &t.Seats); err != nil {
		return t, fmt.Errorf("table %s seats: %w", t.ID, err)
	}
	if r.Winners != "" {
		_ = json.Unmarshal([]byte(r.Winners), &t.Winners)
	}
	if r.Scores != "" {
		_ = json.Unmarshal([]byte(r.Scores), &t.Scores)
	}
	return t, nil
}

// NewTableRow checks a table to be created (EINVALID without an ID, a
// kind, seats or JSON rules), fills its defaults (waiting, created now)
// and returns its row.
func NewTableRow(t Table, now time.Time) (TableRow, error) {
	if t.ID == "" || len(t.Seats) == 0 || t.Kind == "" {
		return TableRow{}, Errorf(EINVALID, "a table needs an ID, a kind and at least one seat")
	}
	if !json.Valid(t.Rules) {
		return TableRow{}, Errorf(EINVALID, "the rules of table %s are not JSON", t.ID)
	}
	if t.Status == "" {
		t.Status = Waiting
	}
	if t.Created.IsZero() {
		t.Created = now
	}
	sj, _ := json.Marshal(t.Seats)
	return TableRow{ID: t.ID, Kind: string(t.Kind), Rules: string(t.Rules), Seats: string(sj), Seed: t.Seed.Hex(), Status: string(t.Status),
		Created: t.Created.UnixNano(), Updated: t.Created.UnixNano(), Reason: t.Reason, Creator: t.Creator, Rated: t.Rated, Pace: t.Pace, Local: t.Local, Tournament: t.Tournament}, nil
}

// Claim returns the seats of a table in status st (as JSON) with seat
// given to the player under name, or the store's refusal: ECONFLICT if
// the table is not waiting, or the seat does not exist, is a bot's or is
// taken.
func Claim(tableID string, st Status, seatsJSON string, seat int, playerID, name string) (string, error) {
	if st != Waiting {
		return "", Errorf(ECONFLICT, "table %s is %s: seats are taken only while it waits for players", tableID, st.Phrase())
	}
	var seats []Seat
	if err := json.Unmarshal([]byte(seatsJSON), &seats); err != nil {
		return "", fmt.Errorf("table %s seats: %w", tableID, err)
	}
	if seat < 0 || seat >= len(seats) {
		return "", Errorf(ECONFLICT, "seat %d does not exist (seats 0 to %d)", seat, len(seats)-1)
	}
	if seats[seat].Bot != "" || seats[seat].PlayerID != "" {
		return "", Errorf(ECONFLICT, "seat %d is taken", seat)
	}
	seats[seat].PlayerID, seats[seat].Name = playerID, name
	nj, _ := json.Marshal(seats)
	return string(nj), nil
}

// CheckAppend refuses action n of a table in status st with have actions:
// ECONFLICT if the table has ended or n does not follow.
func CheckAppend(tableID string, st Status, have, n int) error {
	if st.Ended() {
		return Errorf(ECONFLICT, "table %s is %s: it takes no more actions", tableID, st.Phrase())
	}
	if st == Adjourned {
		return Errorf(ECONFLICT, "table %s is adjourned: it takes no action until its player resumes it", tableID)
	}
	if have != n-1 {
		return Errorf(ECONFLICT, "table %s has %d actions: action %d cannot follow", tableID, have, n)
	}
	return nil
}

// FinishJSON is what a SQL store writes of a finish: the record, the
// winners and the scores as JSON. EINVALID if the record cannot be written.
type FinishJSON struct{ Record, Winners, Scores []byte }

// JSON returns the finish's JSON.
func (f *Finish) JSON() (FinishJSON, error) {
	rj, err := json.Marshal(f.Record)
	if err != nil {
		return FinishJSON{}, Errorf(EINVALID, "the record cannot be stored: %v", err)
	}
	wj, _ := json.Marshal(f.Winners)
	sj, _ := json.Marshal(f.Scores)
	return FinishJSON{rj, wj, sj}, nil
}
