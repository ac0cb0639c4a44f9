package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

// apiErr is an error of the API.
type apiErr struct{ Error, Code, Field string }

// refusal returns the status and the JSON error of a refused request.
func refusal(t *testing.T, err error) (int, apiErr) {
	t.Helper()
	var se *wsclient.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("want a refusal, got %v", err)
	}
	var e apiErr
	if jerr := json.Unmarshal([]byte(se.Body), &e); jerr != nil || e.Error == "" {
		t.Fatalf("the refusal is not a JSON error: %d %s", se.Status, se.Body)
	}
	return se.Status, e
}

// rawPost posts body as c and returns the whole answer.
func rawPost(t *testing.T, ctx context.Context, c *wsclient.Client, path string, body any) (*http.Response, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", c.Base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

// maxOverlap returns the most of the intervals [from[i], to[i]] open at
// one time (one ending when another starts counts as not overlapping).
func maxOverlap(from, to []time.Time) int {
	type ev struct {
		at time.Time
		d  int
	}
	var evs []ev
	for i := range from {
		evs = append(evs, ev{from[i], +1}, ev{to[i], -1})
	}
	sort.Slice(evs, func(i, j int) bool {
		if !evs[i].at.Equal(evs[j].at) {
			return evs[i].at.Before(evs[j].at)
		}
		return evs[i].d < evs[j].d
	})
	n, most := 0, 0
	for _, e := range evs {
		n += e.d
		most = max(most, n)
	}
	return most
}

// TestTournamentTablesWithinCaps: a round-robin of six bots (three games
// a round) whose creator may have two bots-only tables opens two at
// creation, the third waiting for a table; played to its end, no more
// than two of its tables were ever open at once (from the times the store
// holds), every game was played, and meanwhile another player still gets
// the one bots-only table left under the server's cap of three.
func TestTournamentTablesWithinCaps(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{MaxBotTables: 2, MaxBotTablesTotal: 3, TournamentEvery: 20 * time.Millisecond})
	ctx := ctxT(t, 3*time.Minute)
	c := host(t, ts)
	tr := newTour(t, ctx, c, "round-robin", 6, botEntrants(6, "steady"))
	if tr.Status != "playing" || len(tr.Rounds) != 1 || len(tr.Rounds[0]) != 3 {
		t.Fatalf("a full round-robin of six: %+v", tr)
	}
	open, pending := 0, 0
	for _, g := range tr.Rounds[0] {
		switch {
		case g.Pending && g.Table == "" && !g.Done:
			pending++
		case !g.Pending && g.Table != "":
			open++
		default:
			t.Fatalf("a game of the first round: %+v", g)
		}
	}
	if open != 2 || pending != 1 {
		t.Fatalf("at creation: %d games at a table, %d waiting, want 2 and 1", open, pending)
	}
	other := host(t, ts)
	if _, err := other.CreateTable(ctx, shortRules, bots2...); err != nil {
		t.Fatalf("another player's bots-only table, with one left under the server's cap: %v", err)
	}
	tr = waitTour(t, ctx, c, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	var from, to []time.Time
	games := 0
	for _, r := range tr.Rounds {
		for _, g := range r {
			if !g.Done || g.Forfeit != "" || g.Pending || g.Table == "" {
				t.Fatalf("a game at the end: %+v", g)
			}
			tb, err := ts.Store.Table(ctx, g.Table)
			if err != nil || tb.Status != store.Over || tb.Creator == "" {
				t.Fatalf("table %s: %+v, %v", g.Table, tb, err)
			}
			from, to = append(from, tb.Created), append(to, tb.Updated)
			games++
		}
	}
	if games != 15 {
		t.Fatalf("%d games played, want 15 (5 rounds of 3)", games)
	}
	if n := maxOverlap(from, to); n != 2 {
		t.Fatalf("at most %d of the tournament's tables were open at once, want 2 (the creator's cap)", n)
	}
}

// TestTournamentLimits: each bound of a tournament's creation refused
// with its JSON error naming the field or the cap: too many bots (400
// entrants), a start too far ahead (400 start, with the bound), too many
// tournaments of one player (429 quota) and in all (503 capacity with
// Retry-After); within them it is created.
func TestTournamentLimits(t *testing.T) {
	ts := start(t, "", server.Options{MaxTournamentBots: 4, MaxOpenTournaments: 2, MaxTournamentsTotal: 3, MaxTournamentAhead: 7 * 24 * time.Hour})
	ctx := ctxT(t, time.Minute)
	ann := host(t, ts)
	later := func(d time.Duration) string { return time.Now().Add(d).UTC().Format(time.RFC3339) }
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"name": "Cup", "format": "swiss", "rules": shortRules, "size": 8, "start": later(time.Hour)}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	post := func(c *wsclient.Client, extra map[string]any) error {
		return c.Do(ctx, "POST", "/api/tournaments", body(extra), nil)
	}
	for _, c := range []struct {
		body   map[string]any
		status int
		field  string
		says   string
	}{
		{map[string]any{"entrants": botEntrants(5, "steady")}, 400, "entrants", "at most 4 (max-tournament-bots 4)"},
		{map[string]any{"start": "9999-12-31T23:59:59Z"}, 400, "start", "within 1 week of now (max-tournament-ahead 168h0m0s)"},
		{map[string]any{"start": later(8 * 24 * time.Hour)}, 400, "start", "max-tournament-ahead"},
		{map[string]any{"start": "2000-01-01T00:00:00Z"}, 400, "start", "has passed"},
		{map[string]any{"format": "league"}, 400, "format", "league"},
		{map[string]any{"size": 65}, 400, "size", "3 to 64"},
	} {
		status, e := refusal(t, post(ann, c.body))
		if status != c.status || e.Field != c.field || !strings.Contains(e.Error, c.says) {
			t.Errorf("%v: %d %+v, want %d naming %q and saying %q", c.body, status, e, c.status, c.field, c.says)
		}
	}
	if err := post(ann, map[string]any{"entrants": botEntrants(4, "steady"), "start": later(6 * 24 * time.Hour)}); err != nil {
		t.Fatalf("within the bounds: %v", err)
	}
	if err := post(ann, nil); err != nil {
		t.Fatal(err)
	}
	status, e := refusal(t, post(ann, nil))
	if status != http.StatusTooManyRequests || e.Code != "quota" || !strings.Contains(e.Error, "max-open-tournaments 2") {
		t.Fatalf("a third tournament of one player: %d %+v", status, e)
	}
	bea := host(t, ts)
	if err := post(bea, nil); err != nil {
		t.Fatal(err)
	}
	resp, data := rawPost(t, ctx, host(t, ts), "/api/tournaments", body(nil))
	var e2 apiErr
	if resp.StatusCode != http.StatusServiceUnavailable || json.Unmarshal(data, &e2) != nil || e2.Code != "capacity" ||
		!strings.Contains(e2.Error, "max-tournaments-total 3") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a fourth tournament in all: %d %s (Retry-After %q)", resp.StatusCode, data, resp.Header.Get("Retry-After"))
	}
}

// TestTournamentFailedTableIsForfeit: in a knockout of four whose first
// game is between two bots that break (their table fails), that game is
// lost by both, nobody goes on from it, the winner of the other game has a
// bye in the final and is the champion; the standings count the forfeits.
func TestTournamentFailedTableIsForfeit(t *testing.T) {
	ts := start(t, "", server.Options{Cast: botsCast(breaking), TournamentEvery: 20 * time.Millisecond})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	// Seeds 0 and 3 meet in the first round, 1 and 2 in the other game.
	tr := newTour(t, ctx, c, "knockout", 4, []map[string]string{{"type": "bot", "level": "expert"}, {"type": "bot", "level": "steady"},
		{"type": "bot", "level": "bold"}, {"type": "bot", "level": "expert"}})
	tr = waitTour(t, ctx, c, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds: %+v", len(tr.Rounds), tr.Rounds)
	}
	var failed, played tourGameJSON
	for _, g := range tr.Rounds[0] {
		if g.A == 0 || g.B == 0 {
			failed = g
		} else {
			played = g
		}
	}
	if !failed.Done || failed.Forfeit != "both" || failed.Why != "failed" || failed.Winner != -1 || failed.PA != 0 || failed.PB != 0 {
		t.Fatalf("the game at the failed table: %+v", failed)
	}
	if tb, err := ts.Store.Table(ctx, failed.Table); err != nil || tb.Status != store.Failed {
		t.Fatalf("its table: %+v, %v", tb, err)
	}
	if !played.Done || played.Forfeit != "" || played.Winner < 0 {
		t.Fatalf("the other game: %+v", played)
	}
	final := tr.Rounds[1]
	if len(final) != 1 || final[0].A != played.Winner || final[0].B != -1 || !final[0].Done {
		t.Fatalf("the final: %+v, want a bye for %d", final, played.Winner)
	}
	if tr.Champion == nil || *tr.Champion != tr.Entrants[played.Winner].Name {
		t.Fatalf("champion %v, want %s", tr.Champion, tr.Entrants[played.Winner].Name)
	}
	for _, s := range tr.Standings {
		want := 0
		if s.Entrant == 0 || s.Entrant == 3 {
			want = 1
		}
		if s.Forfeits != want || (want == 1 && (s.Losses != 1 || s.Wins != 0)) {
			t.Fatalf("standing of %s: %+v", s.Name, s)
		}
	}
}

// TestTournamentIdleTableExpires: with no turn clock, a person who never
// acts at her tournament game stalls it only until the expiry: the table
// expires, she (the seat to act) forfeits it, and the tournament goes on to
// its end; the standings count her forfeits.
func TestTournamentIdleTableExpires(t *testing.T) {
	ts := start(t, "", server.Options{TurnClock: -1, WaitingExpiry: 300 * time.Millisecond, TournamentEvery: 20 * time.Millisecond})
	ctx := ctxT(t, time.Minute)
	ann := newPlayer(t, ts, "Ann")
	tr := newTour(t, ctx, ann.Client, "round-robin", 3, []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}, {"type": "bot", "level": "bold"}})
	tr = waitTour(t, ctx, ann.Client, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	mine := 0
	for _, r := range tr.Rounds {
		for _, g := range r {
			if g.B == -1 || (g.AName != "Ann" && g.BName != "Ann") {
				continue
			}
			mine++
			side := "a"
			if g.BName == "Ann" {
				side = "b"
			}
			if g.Forfeit != side || g.Why != "expired" || g.Winner == 0 || g.Winner < 0 {
				t.Fatalf("Ann's game, where she never acted: %+v (want her side %q forfeited)", g, side)
			}
			tb, err := ts.Store.Table(ctx, g.Table)
			if err != nil || tb.Status != store.Expired || !strings.Contains(tb.Reason, "nobody acted") {
				t.Fatalf("its table: %+v, %v", tb, err)
			}
		}
	}
	if mine != 2 {
		t.Fatalf("Ann had %d games, want 2", mine)
	}
	for _, s := range tr.Standings {
		if s.Name == "Ann" && (s.Forfeits != 2 || s.Losses != 2 || s.Wins != 1) {
			t.Fatalf("Ann's standing: %+v (a bye and two forfeits)", s)
		}
	}
}

// TestTournamentResumesWithinCaps: a round-robin of four bots opened both
// tables of its round under no caps; the server restarts with a cap of one
// bots-only table a player: one game is voided (its table fails, saying
// why, its record kept) and waits for a table again, the other plays on;
// restarted once more with bots that play, the tournament ends with every
// game played.
func TestTournamentResumesWithinCaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	ctx := ctxT(t, 3*time.Minute)
	ts := start(t, path, server.Options{MaxBotTables: -1, BotDelay: time.Hour})
	c := host(t, ts)
	tr := newTour(t, ctx, c, "round-robin", 4, botEntrants(4, "steady"))
	for _, g := range tr.Rounds[0] {
		if g.Pending || g.Table == "" {
			t.Fatalf("no caps: every game at a table: %+v", g)
		}
	}
	ts.Stop()

	ts = start(t, path, server.Options{MaxBotTables: 1, BotDelay: time.Hour})
	c.Base = ts.URL
	tr = getTour(t, ctx, c, tr.ID)
	voided, open := 0, 0
	for _, g := range tr.Rounds[0] {
		switch {
		case g.Pending && !g.Done && g.Table == "":
			voided++
		case !g.Pending && g.Table != "":
			open++
		}
	}
	if voided != 1 || open != 1 {
		t.Fatalf("after a restart with a cap of 1: %d voided, %d open: %+v", voided, open, tr.Rounds[0])
	}
	failed, err := ts.Store.Tables(ctx, store.TableFilter{Status: []store.Status{store.Failed}})
	if err != nil || len(failed) != 1 {
		t.Fatalf("voided tables: %d, %v", len(failed), err)
	}
	for _, tb := range failed {
		if !strings.Contains(tb.Reason, "voided") {
			t.Fatalf("a voided table's reason: %q", tb.Reason)
		}
	}
	if n, err := ts.Store.CountTables(ctx, store.TableFilter{Status: []store.Status{store.Playing}}); err != nil || n != 1 {
		t.Fatalf("%d tables in play after the restart, want 1: %v", n, err)
	}
	ts.Stop()

	ts = start(t, path, server.Options{MaxBotTables: 1, TournamentEvery: 20 * time.Millisecond})
	c.Base = ts.URL
	tr = waitTour(t, ctx, c, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	games := 0
	for _, r := range tr.Rounds {
		for _, g := range r {
			if !g.Done || g.Forfeit != "" {
				t.Fatalf("a game at the end: %+v", g)
			}
			games++
		}
	}
	if games != 6 {
		t.Fatalf("%d games, want 6 (3 rounds of 2)", games)
	}
}

// TestOpenTournamentExpires: a tournament that starts when full, which
// nobody fills, is cancelled the waiting expiry after its last entrant
// joined, saying why, and no longer counts toward its creator's cap.
func TestOpenTournamentExpires(t *testing.T) {
	ts := start(t, "", server.Options{WaitingExpiry: 300 * time.Millisecond, TournamentEvery: 20 * time.Millisecond, MaxOpenTournaments: 1})
	ctx := ctxT(t, time.Minute)
	c := host(t, ts)
	tr := newTour(t, ctx, c, "swiss", 8, botEntrants(2, "steady"))
	if tr.Status != "open" {
		t.Fatalf("a tournament of 8 with 2 entrants: %+v", tr)
	}
	tr = waitTour(t, ctx, c, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
	if !strings.Contains(tr.Reason, "not full within") || len(tr.Rounds) != 0 || tr.Champion != nil {
		t.Fatalf("the tournament nobody filled: %+v", tr)
	}
	newTour(t, ctx, c, "swiss", 8, botEntrants(2, "steady")) // the cap of one is free again
}
