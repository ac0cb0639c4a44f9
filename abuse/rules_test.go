package abuse

import (
	"math"
	"net/http"
	"path/filepath"
	"testing"
)

// TestRuleValuesOutOfBounds replays the requests that used to kill the
// server (a target that wrapped the duel solver's size check, a bank
// minimum that asked the solo solver for 128 GB, meld points that wrapped
// the scoring): each is refused with 400 naming the field, nothing is
// stored, and the server keeps serving and restarts cleanly.
func TestRuleValuesOutOfBounds(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	c := s.client()
	c.player("Mallory")
	attacks := []struct {
		name  string
		rules map[string]any
		seats []map[string]string
		field string
	}{
		{"target 10^15 against the perfect bot", map[string]any{"base": "classic", "game": map[string]any{"target": int64(1e15)}},
			[]map[string]string{bot("perfect"), {"type": "human"}}, "game.target"},
		{"bank minimum 10^11 against the expert bot", map[string]any{"base": "classic", "turn": map[string]any{"bank_minimum": int64(1e11)}, "game": map[string]any{"target": int64(1e12)}},
			[]map[string]string{bot("expert"), me}, ""},
		{"bank minimum above any target", map[string]any{"base": "classic", "turn": map[string]any{"bank_minimum": int64(1e11)}},
			[]map[string]string{bot("expert"), me}, "turn.bank_minimum"},
		{"a single 1 worth 10^14", map[string]any{"base": "classic", "scoring": map[string]any{"single": map[string]any{"1": int64(1e14)}}},
			[]map[string]string{me, bot("steady")}, "scoring.single.1"},
		{"a single 1 worth 2^63-1", map[string]any{"base": "classic", "scoring": map[string]any{"single": map[string]any{"1": int64(math.MaxInt64)}}},
			[]map[string]string{me, bot("steady")}, "scoring.single.1"},
		{"a triple worth 2^40", map[string]any{"base": "classic", "scoring": map[string]any{"triple": []int64{1 << 40, 200, 300, 400, 500, 600}}},
			[]map[string]string{me, bot("steady")}, "scoring.triple[0]"},
		{"a penalty of 2^62 points", map[string]any{"base": "classic", "turn": map[string]any{"farkle_penalty": map[string]any{"count": 3, "points": int64(1) << 62}}},
			[]map[string]string{me, bot("perfect")}, "turn.farkle_penalty.points"},
		{"a game of 10^9 turns", map[string]any{"base": "classic", "game": map[string]any{"max_turns": int64(1e9)}},
			[]map[string]string{bot("steady"), bot("steady")}, "game.max_turns"},
	}
	for _, a := range attacks {
		refused(t, a.name, c.table(a.rules, a.seats...), http.StatusBadRequest, a.field)
	}
	var list []struct{ ID string }
	c.do("GET", "/api/tables", nil).json(t, &list)
	if len(list) != 0 {
		t.Errorf("refused tables were stored: %d tables listed", len(list))
	}
	s.alive()
	s.restart()
	s.alive()
}
