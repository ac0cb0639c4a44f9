package abuse

import (
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

// TestStallingPlayer: a player who never acts cannot hold a table with
// people forever: when the clock runs out the server acts for them, after
// a few timeouts in a row their seat resigns, and the game ends with a
// record that verifies. Against bots only the clock never resigns a
// player (a player is never made to lose by stepping away from a bot),
// yet a staller who stays connected still cannot hold the table: the
// server acts for them until the game ends.
func TestStallingPlayer(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--turn-clock", "1s", "--clock-forfeits", "2")
	ctx := deadline(t, 3*time.Minute)
	c := s.client()
	c.player("Staller")
	other := s.client()
	other.player("Sitter")
	id := tableID(t, c.table("classic", me, map[string]string{"type": "human"}))
	if a := other.do("POST", "/api/tables/"+id+"/join", nil); a.Status != http.StatusOK {
		t.Fatalf("join: %s", a)
	}
	for _, cl := range []*client{c, other} {
		conn, _, err := dialWS(ctx, s, cl, id) // present, but never acting
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
	}
	tb := waitStatus(t, c, id, "over", 2*time.Minute)
	if w, _ := tb["winners"].([]any); len(w) != 1 {
		t.Errorf("winners %v, want the one seat left after the other resigned", tb["winners"])
	}
	if !resignedIn(t, c, id) {
		t.Error("the record of the people's table holds no resignation")
	}
	verifyRecord(t, c, id)

	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 2000}}
	id = tableID(t, c.table(rules, me, bot("steady")))
	conn, _, err := dialWS(ctx, s, c, id)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	waitStatus(t, c, id, "over", 2*time.Minute)
	if resignedIn(t, c, id) {
		t.Error("against a bot the clock resigned the player")
	}
	verifyRecord(t, c, id)
}

// resignedIn reports whether the record of table id holds a resignation.
func resignedIn(t *testing.T, c *client, id string) bool {
	t.Helper()
	a := c.do("GET", "/api/tables/"+id+"/record", nil)
	var rec struct {
		Actions []struct {
			Type string `json:"type"`
		} `json:"actions"`
	}
	a.json(t, &rec)
	for _, e := range rec.Actions {
		if e.Type == "resign" {
			return true
		}
	}
	return false
}
