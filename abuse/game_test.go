package abuse

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// waitStatus polls the table until its status is want, up to d.
func waitStatus(t *testing.T, c *client, id, want string, d time.Duration) map[string]any {
	t.Helper()
	end := time.Now().Add(d)
	var tb map[string]any
	for {
		a := c.do("GET", "/api/tables/"+id, nil)
		if a.Status != http.StatusOK {
			t.Fatalf("table %s: %s", id, a)
		}
		tb = map[string]any{}
		a.json(t, &tb)
		if tb["status"] == want {
			return tb
		}
		if time.Now().After(end) {
			t.Fatalf("table %s is still %v after %v, want %s", id, tb["status"], d, want)
		}
		// The server's own clock and bots move the game: poll gently.
		<-time.After(100 * time.Millisecond)
	}
}

// verifyRecord downloads the table's record and runs `farkle verify` on it.
func verifyRecord(t *testing.T, c *client, id string) {
	t.Helper()
	a := c.do("GET", "/api/tables/"+id+"/record", nil)
	if a.Status != http.StatusOK {
		t.Fatalf("record: %s", a)
	}
	f := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(f, a.Body, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(farkleBin, "verify", f).CombinedOutput(); err != nil {
		t.Fatalf("farkle verify: %v\n%s", err, out)
	}
}

// TestEndlessBotTable: a bots-only table to the largest target the rules
// allow, which would take millions of actions, ends by the server's cap
// on a game's length, by the rules' tie-break on points, with a record
// that verifies.
func TestEndlessBotTable(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--max-turns", "30")
	c := s.client()
	c.player("Mallory")
	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 1000000}}
	id := tableID(t, c.table(rules, bot("reckless"), bot("cautious")))
	tb := waitStatus(t, c, id, "over", 2*time.Minute)
	if r, ok := tb["rules"].(map[string]any); ok {
		g, _ := r["game"].(map[string]any)
		if g["max_turns"] != float64(30) {
			t.Errorf("the stored rules have max_turns %v, want the server's cap 30", g["max_turns"])
		}
	}
	verifyRecord(t, c, id)
	s.alive()
}

// TestStallingPlayer: a losing player who never acts cannot hold a table
// forever: when the clock runs out the server acts for them, after a few
// timeouts in a row their seat resigns, and the game ends with a record
// that verifies.
func TestStallingPlayer(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--turn-clock", "1s", "--clock-forfeits", "2")
	c := s.client()
	c.player("Staller")
	id := tableID(t, c.table("classic", me, bot("steady")))
	ctx := deadline(t, 2*time.Minute)
	conn, _, err := dialWS(ctx, s, c, id) // present, but never acting
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	tb := waitStatus(t, c, id, "over", time.Minute)
	if w, _ := tb["winners"].([]any); len(w) != 1 || w[0] != float64(1) {
		t.Errorf("winners %v, want the bot (seat 1) after the staller resigned", tb["winners"])
	}
	a := c.do("GET", "/api/tables/"+id+"/record", nil)
	var rec struct {
		Actions []struct {
			Type string `json:"type"`
		} `json:"actions"`
	}
	a.json(t, &rec)
	resigned := false
	for _, e := range rec.Actions {
		resigned = resigned || e.Type == "resign"
	}
	if !resigned {
		t.Errorf("the record holds no resignation: %s", fmt.Sprintf("%.300s", a.Body))
	}
	verifyRecord(t, c, id)
}
