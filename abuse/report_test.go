package abuse

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestReportFlood: 20 players send 30 reports each, all at once, at a
// server allowing 5 an hour (--reports-per-hour 5; the edge's rates off,
// so that only this bound holds them). Every answer is 200 or 429 with
// Retry-After; exactly 5 of each player's are kept, however they race
// (the count is taken in the store, under the reporter's lock); a reason
// past 300 characters and a body past 16 KiB are 400. The server logs no
// error, stays up, and the database holds exactly 100 reports.
func TestReportFlood(t *testing.T) {
	db := t.TempDir() + "/f.db"
	s := startServer(t, db, "--reports-per-hour", "5", "--rate-address", "0", "--rate-player", "0")
	target := s.client()
	target.player("Target")
	var me struct{ ID string }
	target.do("GET", "/api/me", nil).json(t, &me)

	const players, each, allowed = 20, 30, 5
	type tally struct{ ok, limited, other int }
	counts := make([]tally, players)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range players {
		c := s.client()
		c.player("Reporter")
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body, _ := json.Marshal(map[string]string{"player": me.ID, "reason": "spam in every game"})
				req, _ := http.NewRequest("POST", s.URL+"/api/reports", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+c.token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				defer mu.Unlock()
				switch {
				case resp.StatusCode == http.StatusOK:
					counts[i].ok++
				case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "":
					counts[i].limited++
				default:
					counts[i].other++
				}
			}()
		}
		wg.Wait() // one player's reports race each other; the players follow one another
	}
	for i, c := range counts {
		if c.ok != allowed || c.limited != each-allowed || c.other != 0 {
			t.Errorf("reporter %d: %+v, want %d kept and %d refused with 429", i, c, allowed, each-allowed)
		}
	}
	c := s.client()
	c.player("Late")
	if a := c.do("POST", "/api/reports", map[string]string{"player": me.ID, "reason": strings.Repeat("x", 301)}); a.Status != http.StatusBadRequest || !strings.Contains(string(a.Body), `"field":"reason"`) {
		t.Errorf("a reason of 301 characters: %s", a)
	}
	if a := c.do("POST", "/api/reports", `{"player":"`+me.ID+`","reason":"`+strings.Repeat("x", 20<<10)+`"}`); a.Status != http.StatusBadRequest {
		t.Errorf("a body of 20 KiB: %s", a)
	}
	s.alive()
	if n := s.errorLines(); n != 0 {
		t.Errorf("%d ERROR lines in the log:\n%s", n, s.log.String())
	}
	s.stop()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow(`SELECT count(*) FROM reports`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != players*allowed {
		t.Fatalf("%d reports stored, want %d", n, players*allowed)
	}
}
