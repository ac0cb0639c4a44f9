package abuse

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // to read the tables as stored, and to damage one
)

// tourBody is a tournament request of the format and size, entering bots
// bots of the level.
func tourBody(format string, size, bots int, level string) map[string]any {
	entrants := make([]map[string]string, bots)
	for i := range entrants {
		entrants[i] = bot(level)
	}
	return map[string]any{"name": "Flood", "format": format, "rules": "classic", "size": size, "entrants": entrants}
}

// tourGame is a game of a tournament as the API shows it.
type tourGame struct {
	A, B          int
	AName         string `json:"a_name"`
	BName         string `json:"b_name"`
	Table         string
	Done, Pending bool
	Winner        int
	Forfeit, Why  string
	PA, PB        int
	WaitingOn     string `json:"waiting_on"`
	Void          bool
}

// tour is a tournament as the API shows it.
type tour struct {
	ID, Status string
	Champion   *string
	Entrants   []struct{ Name string }
	Standings  []struct {
		Name                           string
		Played, Wins, Losses, Forfeits int
	}
	Rounds [][]tourGame
}

// getTour reads the tournament.
func (c *client) getTour(id string) tour {
	c.t.Helper()
	var tr tour
	a := c.do("GET", "/api/tournaments/"+id, nil)
	if a.Status != http.StatusOK {
		c.t.Fatalf("tournament %s: %s", id, a)
	}
	a.json(c.t, &tr)
	return tr
}

// waitTour polls the tournament until ok says so, failing at the
// deadline.
func (c *client) waitTour(id string, within time.Duration, ok func(tour) bool) tour {
	c.t.Helper()
	tick := time.NewTicker(100 * time.Millisecond) // polling the API, with a deadline
	defer tick.Stop()
	end := time.After(within)
	for {
		tr := c.getTour(id)
		if ok(tr) {
			return tr
		}
		select {
		case <-end:
			c.t.Fatalf("tournament %s never got there within %s: %+v\n%s", id, within, tr, c.srv.log.String())
		case <-tick.C:
		}
	}
}

// botsOnlyOpen counts the open tables with bots only in the database, by
// creator.
func botsOnlyOpen(t *testing.T, db string) (byCreator map[string]int, all int) {
	t.Helper()
	sqldb, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sqldb.Close()
	rows, err := sqldb.Query(`SELECT creator, seats FROM tables WHERE status IN ('waiting', 'playing')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	byCreator = map[string]int{}
	for rows.Next() {
		var creator, seats string
		if err := rows.Scan(&creator, &seats); err != nil {
			t.Fatal(err)
		}
		var ss []struct{ Bot string }
		if err := json.Unmarshal([]byte(seats), &ss); err != nil {
			t.Fatal(err)
		}
		bots := true
		for _, s := range ss {
			bots = bots && s.Bot != ""
		}
		if bots {
			byCreator[creator]++
			all++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return byCreator, all
}

// TestTournamentFlood: the flood of the finding on a server with the
// default caps and bot pace: 20 guests each ask four times for a
// round-robin of 64 expert bots. Each is refused (400, naming entrants and
// max-tournament-bots); asked again with 16 bots, each guest gets three
// tournaments (then 429 quota) until 50 are under way in all (then 503
// capacity, with Retry-After). Their tables stay within the table caps
// (two bots-only tables a creator, 100 in all), so another player's
// bots-only table still starts; the server's memory stays under 400 MiB,
// and after a restart, with the same caps and with a lower one, the
// tables that play on are still within the caps (those above are voided,
// saying why, and wait again).
func TestTournamentFlood(t *testing.T) {
	db := filepath.Join(t.TempDir(), "farkle.db")
	s := startServer(t, db, "--rate-address", "0", "--rate-player", "0", "--bot-delay", "700ms", "--metrics-addr", "127.0.0.1:0")
	guests := make([]*client, 20)
	for i := range guests {
		guests[i] = s.client()
		guests[i].player(fmt.Sprintf("Flood %d", i))
	}
	for _, c := range guests {
		for range 4 {
			refused(t, "a round-robin of 64 expert bots", c.do("POST", "/api/tournaments", tourBody("round-robin", 64, 64, "expert")), http.StatusBadRequest, "entrants")
		}
	}
	a := guests[0].do("POST", "/api/tournaments", tourBody("round-robin", 64, 64, "expert"))
	if !strings.Contains(string(a.Body), "max-tournament-bots 16") {
		t.Errorf("the refusal of 64 bots does not name the bound: %s", a)
	}
	created, quota, full := 0, 0, 0
	var slowest time.Duration
	for _, c := range guests {
		mine := 0
		for range 4 {
			t0 := time.Now()
			a := c.do("POST", "/api/tournaments", tourBody("round-robin", 16, 16, "expert"))
			slowest = max(slowest, time.Since(t0))
			switch a.Status {
			case http.StatusCreated:
				created++
				mine++
			case http.StatusTooManyRequests:
				quota++
				refused(t, "a fourth tournament of one guest", a, http.StatusTooManyRequests, "")
				if !strings.Contains(string(a.Body), "max-open-tournaments 3") {
					t.Errorf("a refusal of the guest's cap does not name it: %s", a)
				}
			case http.StatusServiceUnavailable:
				full++
				refused(t, "a tournament past the server's cap", a, http.StatusServiceUnavailable, "")
				if !strings.Contains(string(a.Body), "max-tournaments-total 50") || a.Header.Get("Retry-After") == "" {
					t.Errorf("a refusal of the server's cap does not name it or lacks Retry-After: %s %v", a, a.Header)
				}
			default:
				t.Fatalf("a tournament of 16 bots: %s", a)
			}
		}
		if mine > 3 {
			t.Fatalf("a guest got %d tournaments", mine)
		}
	}
	t.Logf("80 requests for tournaments of 16 expert bots: %d created, %d refused 429, %d refused 503; the slowest answered in %s", created, quota, full, slowest)
	if created != 50 || quota == 0 || full == 0 {
		t.Fatalf("%d tournaments created (want the cap of 50), %d refused for the guest's cap, %d for the server's", created, quota, full)
	}
	within := func(when string, maxMine int) {
		t.Helper()
		byCreator, all := botsOnlyOpen(t, db)
		for creator, n := range byCreator {
			if n > maxMine {
				t.Fatalf("%s: creator %s has %d open bots-only tables, more than the cap of %d", when, creator, n, maxMine)
			}
		}
		if all > 100 {
			t.Fatalf("%s: %d open bots-only tables, more than the cap of 100", when, all)
		}
		t.Logf("%s: %d open bots-only tables of %d creators", when, all, len(byCreator))
	}
	within("after the flood", 2)
	// The bots' pace over a window: each open table's bot acts at most once
	// a --bot-delay, so the caps bound it (the finding: ~1,000 a second).
	const botActions = `farkle_actions_total{result="accepted",source="bot"}`
	_, open := botsOnlyOpen(t, db)
	n0, t0 := s.metric(botActions), time.Now()
	<-time.After(5 * time.Second) // a measuring window, not a wait for an event
	n1, window := s.metric(botActions), time.Since(t0)
	t.Logf("bot actions: %.0f in %s (%.0f a second) at %d bots-only tables", n1-n0, window.Round(time.Millisecond), (n1-n0)/window.Seconds(), open)
	if bound := float64(open+2) * (window.Seconds()/0.7 + 2); n1-n0 > bound {
		t.Errorf("%.0f bot actions in %s, more than %d tables at one a 700 ms allow (%.0f)", n1-n0, window, open+2, bound)
	}
	other := s.client()
	other.player("Ann")
	tableID(t, other.table("classic", bot("steady"), bot("bold"))) // another player's bot game starts
	rss, peak := s.memory()
	t.Logf("RSS %d MiB (peak %d MiB)", rss/mib, peak/mib)
	if peak > 400*mib {
		t.Errorf("the server's memory peaked at %d MiB, over 400 MiB", peak/mib)
	}
	s.alive()

	s.restart()
	s.alive()
	within("after a restart", 2)
	s.args = append(s.args, "--max-bot-tables", "1")
	s.restart()
	s.alive()
	within("after a restart with a cap of 1", 1)
	sqldb, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sqldb.Close()
	var voided int
	if err := sqldb.QueryRow(`SELECT count(*) FROM tables WHERE status = 'failed' AND reason LIKE '%voided%'`).Scan(&voided); err != nil {
		t.Fatal(err)
	}
	if voided == 0 {
		t.Fatal("no table voided after a restart with a lower cap")
	}
	t.Logf("%d tables voided (failed, saying why) at the restart with a cap of 1", voided)
	bea := s.client()
	bea.player("Bea")
	tableID(t, bea.table("classic", bot("steady"), bot("bold"))) // still room for another player's bot game
}

// TestTournamentFarStart: a start at 9999-12-31T23:59:59Z is refused (400,
// naming start and the bound) and nothing is listed; a start within the
// bound is accepted.
func TestTournamentFarStart(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	c := s.client()
	c.player("Mallory")
	body := tourBody("swiss", 8, 3, "steady")
	body["start"] = "9999-12-31T23:59:59Z"
	a := c.do("POST", "/api/tournaments", body)
	refused(t, "a start in the year 9999", a, http.StatusBadRequest, "start")
	if !strings.Contains(string(a.Body), "4 weeks") || !strings.Contains(string(a.Body), "max-tournament-ahead") {
		t.Errorf("the refusal does not name the bound: %s", a)
	}
	var list []struct{ ID string }
	c.do("GET", "/api/tournaments", nil).json(t, &list)
	if len(list) != 0 {
		t.Fatalf("a refused tournament is listed: %+v", list)
	}
	body["start"] = time.Now().Add(27 * 24 * time.Hour).UTC().Format(time.RFC3339)
	if a := c.do("POST", "/api/tournaments", body); a.Status != http.StatusCreated {
		t.Fatalf("a start in 27 days: %s", a)
	}
	s.alive()
}

// TestTournamentFailedTable: a knockout of four bots whose first game's
// table the server cannot resume after a restart (its stored rules are now
// refused): the table fails, the game is lost by both, nobody goes on
// from it, and the winner of the other game has a bye in the final and
// wins the tournament.
func TestTournamentFailedTable(t *testing.T) {
	db := filepath.Join(t.TempDir(), "farkle.db")
	s := startServer(t, db, "--bot-delay", "1h")
	c := s.client()
	c.player("Ann")
	a := c.do("POST", "/api/tournaments", tourBody("knockout", 4, 4, "steady"))
	if a.Status != http.StatusCreated {
		t.Fatalf("a knockout of four bots: %s", a)
	}
	var tr tour
	a.json(t, &tr)
	if len(tr.Rounds) != 1 || len(tr.Rounds[0]) != 2 || tr.Rounds[0][0].Table == "" {
		t.Fatalf("the first round: %+v", tr.Rounds)
	}
	broken := tr.Rounds[0][0]
	s.stop()
	sqldb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sqldb.ExecContext(context.Background(), `UPDATE tables SET rules = json_set(rules, '$.game.target', 1000000000000000) WHERE id = ?`, broken.Table)
	sqldb.Close()
	if err != nil {
		t.Fatal(err)
	}
	s.args = nil // bots at full pace
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	tr = c.waitTour(tr.ID, 2*time.Minute, func(tr tour) bool { return tr.Status == "over" })
	g := tr.Rounds[0][0]
	if !g.Done || g.Forfeit != "both" || g.Why != "failed" || g.Winner != -1 {
		t.Fatalf("the game at the failed table: %+v", g)
	}
	other := tr.Rounds[0][1]
	if len(tr.Rounds) != 2 || len(tr.Rounds[1]) != 1 || tr.Rounds[1][0].A != other.Winner || tr.Rounds[1][0].B != -1 {
		t.Fatalf("the final after a double forfeit: %+v (the other game %+v)", tr.Rounds, other)
	}
	if tr.Champion == nil || *tr.Champion != tr.Entrants[other.Winner].Name {
		t.Fatalf("champion %v, want %s", tr.Champion, tr.Entrants[other.Winner].Name)
	}
	var tb struct{ Status, Reason string }
	c.do("GET", "/api/tables/"+broken.Table, nil).json(t, &tb)
	if tb.Status != "failed" || tb.Reason == "" {
		t.Fatalf("the broken table: %+v", tb)
	}
	s.alive()
}

// TestTournamentIdleTable: with no turn clock, a person who never acts at
// her tournament games holds up each round only until the expiry (2 s):
// her table expires, she (the seat to act) forfeits, and the tournament
// goes on to its end.
func TestTournamentIdleTable(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--turn-clock", "0", "--waiting-expiry", "2s")
	c := s.client()
	c.player("Ann")
	body := tourBody("round-robin", 3, 2, "steady")
	body["entrants"] = append([]map[string]string{me}, body["entrants"].([]map[string]string)...)
	a := c.do("POST", "/api/tournaments", body)
	if a.Status != http.StatusCreated {
		t.Fatalf("a round-robin of Ann and two bots: %s", a)
	}
	var tr tour
	a.json(t, &tr)
	tr = c.waitTour(tr.ID, 2*time.Minute, func(tr tour) bool { return tr.Status == "over" })
	games := 0
	for _, r := range tr.Rounds {
		for _, g := range r {
			if g.B < 0 || (g.AName != "Ann" && g.BName != "Ann") {
				continue
			}
			games++
			side := map[bool]string{true: "a", false: "b"}[g.AName == "Ann"]
			if g.Forfeit != side || g.Why != "expired" {
				t.Fatalf("Ann's game: %+v, want her side %q forfeited as expired", g, side)
			}
			var tb struct{ Status, Reason string }
			c.do("GET", "/api/tables/"+g.Table, nil).json(t, &tb)
			if tb.Status != "expired" || !strings.Contains(tb.Reason, "nobody acted") {
				t.Fatalf("her table: %+v", tb)
			}
		}
	}
	if games != 2 {
		t.Fatalf("Ann had %d games, want 2", games)
	}
	s.alive()
}
