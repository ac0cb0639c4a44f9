package abuse

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestFollowCap: following is bounded against the binary: at most
// --max-follows players a player (429 quota naming the cap), only
// existing players (404), not oneself, not an ID longer than 64
// characters (400); unfollowing frees a place. A challenge from a
// player's page (an invitation by player ID) is an invitation like
// another, under --max-invites-received, and refused for no player or
// oneself. The server lives on.
func TestFollowCap(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--max-follows", "2", "--max-invites-received", "1")
	ann := s.client()
	ann.player("Ann")
	id := func(c *client) string {
		var me struct{ ID string }
		c.do("GET", "/api/me", nil).json(t, &me)
		return me.ID
	}
	others := make([]string, 3)
	for i := range others {
		c := s.client()
		c.player("Friend")
		others[i] = id(c)
	}
	follow := func(player string) answer {
		return ann.do("POST", "/api/me/follows", map[string]string{"player": player})
	}
	for _, p := range others[:2] {
		if a := follow(p); a.Status != http.StatusOK {
			t.Fatalf("follow %s: %s", p, a)
		}
	}
	if a := follow(others[0]); a.Status != http.StatusOK {
		t.Fatalf("following again: %s, want 200 (nothing changes)", a)
	}
	if a := follow(others[2]); a.Status != http.StatusTooManyRequests || !strings.Contains(string(a.Body), "max-follows 2") {
		t.Fatalf("a third follow over --max-follows 2: %s, want 429 naming the cap", a)
	}
	for what, c := range map[string]struct {
		player string
		status int
	}{
		"oneself":       {id(ann), http.StatusBadRequest},
		"nobody":        {"nobody-at-all", http.StatusNotFound},
		"a long ID":     {strings.Repeat("x", 65), http.StatusBadRequest},
		"an empty ID":   {"", http.StatusBadRequest},
		"an ID of <b>s": {"<b>", http.StatusNotFound},
	} {
		if a := follow(c.player); a.Status != c.status {
			t.Errorf("following %s: %s, want %d", what, a, c.status)
		}
	}
	var list struct {
		Following []struct{ Player string } `json:"following"`
	}
	ann.do("GET", "/api/me/follows", nil).json(t, &list)
	if len(list.Following) != 2 {
		t.Fatalf("Ann follows %+v, want the 2 the cap let in", list.Following)
	}
	if a := ann.do("DELETE", "/api/me/follows/"+others[1], nil); a.Status != http.StatusOK {
		t.Fatalf("unfollow: %s", a)
	}
	if a := follow(others[2]); a.Status != http.StatusOK {
		t.Fatalf("a follow once one was undone: %s", a)
	}
	if a := s.client().do("POST", "/api/me/follows", map[string]string{"player": others[0]}); a.Status == http.StatusOK {
		t.Fatalf("a follow without a player: %s", a)
	}

	challenge := func(player string) answer {
		return ann.do("POST", "/api/tables", map[string]any{"rules": "classic", "seats": []map[string]string{{"type": "me"}, {"type": "invite", "player": player}}})
	}
	if a := challenge(others[0]); a.Status != http.StatusCreated {
		t.Fatalf("a challenge: %s", a)
	}
	if a := challenge(others[0]); a.Status != http.StatusTooManyRequests || !strings.Contains(string(a.Body), "max-invites-received 1") {
		t.Fatalf("a second challenge over --max-invites-received 1: %s, want 429 naming the cap", a)
	}
	for what, p := range map[string]string{"no player": "nobody-at-all", "oneself": id(ann), "a long ID": strings.Repeat("y", 65)} {
		if a := challenge(p); a.Status != http.StatusBadRequest {
			t.Errorf("a challenge of %s: %s, want 400", what, a)
		}
	}
	s.alive()
}
