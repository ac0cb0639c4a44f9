package abuse

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestGuestFloodExpires: a flood of guests that do nothing (one request
// each) does not stay in the database: with --guest-expiry each is
// deleted once it has not been seen that long, its token then signing
// nobody in, while a guest who made a table stays.
func TestGuestFloodExpires(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--rate-address", "0", "--rate-player", "0", "--guest-expiry", "2s", "--bot-delay", "1h")
	ann := s.client()
	ann.player("Ann")
	tableID(t, ann.table("classic", me, bot("steady")))
	flood := make([]*client, 200)
	for i := range flood {
		flood[i] = s.client()
		flood[i].player(fmt.Sprintf("Sybil %d", i))
	}
	// The last guest made goes last (oldest first): wait for it, asking
	// no more than twice a second (asking does not count as being seen
	// within 5 minutes).
	last := flood[len(flood)-1]
	ctx := deadline(t, 60*time.Second)
	for {
		a := last.do("GET", "/api/me", nil)
		if a.Status == http.StatusOK && string(a.Body) == "null\n" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the last guest of the flood after %s: GET /api/me %s", "60s", a)
		case <-time.After(500 * time.Millisecond):
		}
	}
	for i, c := range flood {
		if a := c.do("GET", "/api/me", nil); a.Status != http.StatusOK || string(a.Body) != "null\n" {
			t.Fatalf("guest %d of the flood after the expiry: GET /api/me %s, want null", i, a)
		}
	}
	var me struct{ Name string }
	if ann.do("GET", "/api/me", nil).json(t, &me); me.Name != "Ann" {
		t.Fatalf("Ann, who made a table, after the expiry: %+v", me)
	}
	s.alive()
}
