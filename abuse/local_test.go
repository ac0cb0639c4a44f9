package abuse

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/localplay"
)

// localGame plays a whole local game of a person against the steady bot
// with the browser's engine (package localplay) and returns its record.
func localGame(t *testing.T, seed int) json.RawMessage {
	t.Helper()
	var sd dice.Seed
	sd[0], sd[1], sd[2] = byte(seed), byte(seed>>8), 0xab
	g, err := localplay.New(localplay.Setup{Rules: json.RawMessage(`{"base":"classic","game":{"target":1000}}`),
		Seats: []localplay.Seat{{Name: "Ann"}, {Name: "Steady bot", Bot: "steady"}}, Seed: sd.Hex()}, "en")
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if g.BotToAct() {
			if _, r := g.BotAct(); r != nil {
				t.Fatal(r)
			}
			continue
		}
		w := g.Welcome(0)
		l := w.State.Legal[len(w.State.Legal)-1]
		msg, _ := json.Marshal(map[string]any{"type": "action", "version": w.State.Version, "action": map[string]any{"type": l.Type, "dice": l.Dice}})
		if _, r := g.Act(0, msg); r != nil {
			t.Fatal(r)
		}
	}
	return g.Record()
}

// TestLocalGameUploadBounds: the real server holds the bounds of POST
// /api/local-games: a body over --max-local-game-bytes is refused before
// it is parsed, a player keeps at most --max-local-games, a flood of
// forged records (each verified with the engine and refused) stores
// nothing and is cut by the per-player rate, and the server stays up.
func TestLocalGameUploadBounds(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--rate-address", "0", "--rate-player", "5", "--burst-player", "12",
		"--max-local-games", "3", "--max-local-game-bytes", "16KiB")
	c := s.client()
	c.player("Ann")
	up := func(record any, seat int) answer {
		return c.do("POST", "/api/local-games", map[string]any{"record": record, "seat": seat})
	}
	huge := `{"format":"farkle-record/2","pad":"` + strings.Repeat("x", 20<<10) + `"}`
	refused(t, "a body over 16KiB", up(json.RawMessage(huge), 0), http.StatusBadRequest, "record")

	kept := 0
	for i := 0; kept < 3; i++ {
		a := up(localGame(t, i), 0)
		if a.Status == http.StatusTooManyRequests {
			time.Sleep(100 * time.Millisecond) // the rate: a token comes back every 200 ms
			continue
		}
		if a.Status != http.StatusCreated {
			t.Fatalf("game %d: %s", i, a)
		}
		kept++
	}
	for {
		a := up(localGame(t, 100), 0)
		if a.Status == http.StatusTooManyRequests && strings.Contains(string(a.Body), "rate_limited") {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		refused(t, "a fourth local game", a, http.StatusTooManyRequests, "")
		if !strings.Contains(string(a.Body), "max-local-games 3") {
			t.Fatalf("the refusal does not name the cap: %s", a)
		}
		break
	}

	// A flood of forged games from one player: each refused; past the
	// burst, refused at the edge before any replay.
	forged := localGame(t, 200)
	var m map[string]any
	_ = json.Unmarshal(forged, &m)
	m["seed"] = strings.Repeat("0", 64)
	bad, _ := json.Marshal(m)
	limited := 0
	for i := range 40 {
		a := up(json.RawMessage(bad), 0)
		switch a.Status {
		case http.StatusBadRequest:
		case http.StatusTooManyRequests:
			limited++
		default:
			t.Fatalf("forged game %d: %s", i, a)
		}
	}
	if limited == 0 {
		t.Fatal("40 uploads at once were not rate limited (--rate-player 5, --burst-player 12)")
	}
	s.alive()
	var tables []struct {
		Local bool
	}
	lst := c.do("GET", "/api/tables?status=over&limit=200", nil)
	lst.json(t, &tables)
	if len(tables) != 3 {
		t.Fatalf("%d finished tables stored, want the 3 kept: %s", len(tables), lst)
	}
	for _, tb := range tables {
		if !tb.Local {
			t.Fatalf("a stored table is not local: %s", fmt.Sprint(tables))
		}
	}
}
