package storetest

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/farkle/farkle/store"
)

// testSessions: every token is a session, a guest's first as much as a
// sign-in's; sessions are listed most recently seen first, touched
// forward only, capped per player (least recently seen ended first), and
// ended one by one, by ID or all but one; the token a player was made
// with reads as "" once its session has ended.
func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	t0 := time.Unix(1000, 0)
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "t1", Created: t0}))
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p2", Name: "Bob", TokenHash: "t2", Created: t0}))
	wantCode(t, s.CreatePlayer(ctx, store.Player{ID: "p3", Name: "Cy", TokenHash: "t1"}), store.ECONFLICT, "a player with a token hash taken")
	first, p, err := s.SessionByToken(ctx, "t1")
	must(t, err)
	if p.ID != "p1" || p.TokenHash != "t1" || first.PlayerID != "p1" || first.ID == "" || !first.Created.Equal(t0) || !first.LastSeen.Equal(t0) {
		t.Fatalf("a guest's first session %+v of %+v", first, p)
	}

	wantCode(t, s.CreateSession(ctx, store.Session{TokenHash: "x", PlayerID: "nobody"}, 0), store.ENOTFOUND, "a session of no player")
	wantCode(t, s.CreateSession(ctx, store.Session{TokenHash: "t2", PlayerID: "p1"}, 0), store.ECONFLICT, "a session with another's token hash")
	wantCode(t, s.CreateSession(ctx, store.Session{PlayerID: "p1"}, 0), store.EINVALID, "a session without a token hash")
	long := strings.Repeat("é", store.MaxDevice) + "\x00"
	must(t, s.CreateSession(ctx, store.Session{TokenHash: "t1b", PlayerID: "p1", Created: t0.Add(time.Minute), Device: long}, 0))
	must(t, s.CreateSession(ctx, store.Session{TokenHash: "t1c", PlayerID: "p1", Created: t0.Add(2 * time.Minute), Device: "Firefox on Linux"}, 0))
	b, _, err := s.SessionByToken(ctx, "t1b")
	must(t, err)
	if len(b.Device) > store.MaxDevice || !utf8.ValidString(b.Device) || strings.ContainsRune(b.Device, 0) || !strings.HasPrefix(b.Device, "éé") {
		t.Fatalf("a long device kept as %q (%d bytes), want at most %d bytes of printable UTF-8", b.Device, len(b.Device), store.MaxDevice)
	}

	must(t, s.TouchSession(ctx, "t1", t0.Add(10*time.Minute)))
	must(t, s.TouchSession(ctx, "t1", t0.Add(5*time.Minute))) // backwards: no change
	must(t, s.TouchSession(ctx, "gone", t0))
	list, err := s.Sessions(ctx, "p1")
	must(t, err)
	if len(list) != 3 || list[0].TokenHash != "t1" || !list[0].LastSeen.Equal(t0.Add(10*time.Minute)) || list[1].TokenHash != "t1c" || list[2].TokenHash != "t1b" {
		t.Fatalf("sessions, most recently seen first: %+v", list)
	}

	// A fourth under a cap of 3 ends the least recently seen: t1b.
	must(t, s.CreateSession(ctx, store.Session{TokenHash: "t1d", PlayerID: "p1", Created: t0.Add(3 * time.Minute)}, 3))
	if got := tokensOf(t, s, "p1"); strings.Join(got, " ") != "t1 t1c t1d" {
		t.Fatalf("sessions after a fourth under a cap of 3: %v, want t1 t1c t1d", got)
	}
	if _, err := s.PlayerByToken(ctx, "t1b"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("the session ended by the cap still works: %v", err)
	}

	wantCode(t, s.EndSession(ctx, "p2", list[1].ID), store.ENOTFOUND, "ending another player's session")
	must(t, s.EndSession(ctx, "p1", list[1].ID)) // t1c
	wantCode(t, s.EndSession(ctx, "p1", list[1].ID), store.ENOTFOUND, "ending a session twice")
	if got := tokensOf(t, s, "p1"); strings.Join(got, " ") != "t1 t1d" {
		t.Fatalf("sessions after ending t1c: %v", got)
	}

	// Signing out with the first token ends it for good: the player reads
	// it as "".
	must(t, s.DeleteSession(ctx, "t1"))
	must(t, s.DeleteSession(ctx, "t1"))
	if _, err := s.PlayerByToken(ctx, "t1"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("a deleted session still works: %v", err)
	}
	if p, err := s.Player(ctx, "p1"); err != nil || p.TokenHash != "" {
		t.Fatalf("the player after its first token ended: %+v, %v; want TokenHash \"\"", p, err)
	}
	_, p, err = s.SessionByToken(ctx, "t1d")
	if err != nil || p.ID != "p1" || p.TokenHash != "" {
		t.Fatalf("another session after the first ended: %+v, %v", p, err)
	}

	must(t, s.CreateSession(ctx, store.Session{TokenHash: "t1e", PlayerID: "p1"}, 0))
	n, err := s.EndSessions(ctx, "p1", "t1e")
	must(t, err)
	if got := tokensOf(t, s, "p1"); n != 1 || strings.Join(got, " ") != "t1e" {
		t.Fatalf("EndSessions but t1e ended %d, left %v", n, got)
	}
	n, err = s.EndSessions(ctx, "p1", "")
	must(t, err)
	if got := tokensOf(t, s, "p1"); n != 1 || len(got) != 0 {
		t.Fatalf("EndSessions of all ended %d, left %v", n, got)
	}
	if _, err := s.PlayerByToken(ctx, "t2"); err != nil {
		t.Fatalf("another player's session ended with p1's: %v", err)
	}
}
