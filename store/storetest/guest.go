package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// testExpireGuests: ExpireGuests deletes the guests made and last seen
// before its time that nothing keeps, oldest first and at most its limit,
// with their sessions; a guest that anything names (a seat, an invitation,
// a table it made, a result, a rating, a chat line, a tournament it made
// or entered, a block by or of it, an account, an SSH key) stays, as do
// one seen since and one made since.
func testExpireGuests(t *testing.T, s store.Store) {
	ctx := context.Background()
	t0 := time.Now().Add(-time.Hour)
	before := time.Now().Add(time.Hour) // every write below is before it, but what is said to be later
	guest := func(id string, created time.Time) {
		t.Helper()
		must(t, s.CreatePlayer(ctx, store.Player{ID: id, Name: "N" + id, TokenHash: "tok-" + id, Created: created}))
	}
	// Guests nothing keeps, the oldest first; one of them signed out.
	gone := []string{"gone1", "gone2", "gone3", "signedout"}
	for i, id := range gone {
		guest(id, t0.Add(time.Duration(i)*time.Second))
	}
	must(t, s.DeleteSession(ctx, "tok-signedout"))
	kept := []string{"seen", "host", "seated", "invited", "result", "rated", "chat", "tourcreator", "entrant", "blocker", "blocked", "account", "keyed"}
	for _, id := range kept {
		guest(id, t0.Add(time.Minute)) // after those nothing keeps: what the limit takes first is theirs
	}
	guest("fresh", before.Add(time.Minute))
	kept = append(kept, "fresh")
	must(t, s.TouchSession(ctx, "tok-seen", before.Add(time.Minute)))

	// A table host made, with a seat seated claims and one kept for invited.
	must(t, s.CreateTable(ctx, newTable(t, "gw", store.Seat{Name: "Nhost", PlayerID: "host"}, store.Seat{}, store.Seat{Invited: "invited"})))
	must(t, s.ClaimSeat(ctx, "gw", 1, "seated", "Nseated", ""))
	// A finished game of host's whose result and rating name others (the
	// store keeps what it is given).
	g := play(t, "gf")
	must(t, s.CreateTable(ctx, newTable(t, "gf", store.Seat{Name: "Nhost", PlayerID: "host"}, store.Seat{Name: "Bot", Bot: "steady"})))
	acts := g.Record().Actions
	for i, e := range acts[:len(acts)-1] {
		must(t, s.AppendAction(ctx, "gf", i+1, e, nil))
	}
	must(t, s.AppendAction(ctx, "gf", len(acts), acts[len(acts)-1], finish(g, []string{"result", "bot:steady"})))
	must(t, s.RateGame(ctx, []store.RatingChange{change("gf", "farkle", "rated", 0, 1500, 1600)}))
	_, err := s.AddChat(ctx, store.ChatLine{TableID: "gf", PlayerID: "chat", Name: "Nchat", Text: "gg"}, 0)
	must(t, err)
	// A tournament tourcreator made, which entrant entered later.
	v := farkle(t)
	must(t, s.CreateTournament(ctx, store.Tournament{ID: "gt", Name: "Cup", Format: "swiss", Kind: v.Kind(), Rules: v.Rules(), Size: 4, Creator: "tourcreator",
		Entrants: []store.Entrant{{Bot: "steady", Name: "Steady bot"}}}))
	tr, err := s.Tournament(ctx, "gt")
	must(t, err)
	tr.Entrants = append(tr.Entrants, store.Entrant{PlayerID: "entrant", Name: "Nentrant"})
	tr.State = json.RawMessage(`{}`)
	_, err = s.UpdateTournament(ctx, tr)
	must(t, err)
	must(t, s.Block(ctx, store.Block{Blocker: "blocker", Blocked: "host"}, 0))
	must(t, s.Block(ctx, store.Block{Blocker: "host", Blocked: "blocked"}, 0))
	// An account, none of whose sessions is left, and a guest of an SSH key.
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "account", Name: "Account Holder", RecoveryHash: "r"}, passkey("gk", "account", 0), store.Session{TokenHash: "tok-account2"}))
	_, err = s.EndSessions(ctx, "account", "")
	must(t, err)
	must(t, s.AddKey(ctx, "SHA256:guest-key", "keyed"))

	n, err := s.ExpireGuests(ctx, before, 2)
	must(t, err)
	if n != 2 {
		t.Fatalf("ExpireGuests with a limit of 2 deleted %d", n)
	}
	exists := func(id string) bool {
		t.Helper()
		_, err := s.Player(ctx, id)
		if err != nil && store.Code(err) != store.ENOTFOUND {
			t.Fatal(err)
		}
		return err == nil
	}
	if exists("gone1") || exists("gone2") || !exists("gone3") || !exists("signedout") {
		t.Fatal("the first two guests deleted are not the oldest two")
	}
	more, err := s.ExpireGuests(ctx, before, 100)
	must(t, err)
	for _, id := range gone {
		if exists(id) {
			t.Errorf("guest %s, whom nothing keeps, is still there", id)
		}
		if _, err := s.PlayerByToken(ctx, "tok-"+id); store.Code(err) != store.ENOTFOUND {
			t.Errorf("the token of deleted guest %s: %v, want ENOTFOUND", id, err)
		}
		if ss, err := s.Sessions(ctx, id); err != nil || len(ss) != 0 {
			t.Errorf("the sessions of deleted guest %s: %v %v", id, ss, err)
		}
	}
	for _, id := range kept {
		if !exists(id) {
			t.Errorf("guest %s was deleted", id)
		}
	}
	if more != 2 {
		t.Fatalf("ExpireGuests deleted %d more, want the other 2 nothing keeps", more)
	}
	if n, err := s.ExpireGuests(ctx, before, 100); err != nil || n != 0 {
		t.Fatalf("ExpireGuests once more deleted %d (%v), want none", n, err)
	}
	// What was stored of the kept ones is whole.
	if tb, err := s.Table(ctx, "gw"); err != nil || tb.Seats[1].PlayerID != "seated" || tb.Seats[2].Invited != "invited" {
		t.Fatalf("table gw after the expiry: %+v, %v", tb, err)
	}
	if p, err := s.PlayerByToken(ctx, "tok-seen"); err != nil || p.ID != "seen" {
		t.Fatalf("the token of the guest seen since: %+v, %v", p, err)
	}
	// A guest kept is kept for good, though what kept it has ended.
	must(t, s.DeleteSession(ctx, "tok-seated"))
	if n, err := s.ExpireGuests(ctx, before, 100); err != nil || n != 0 || !exists("seated") {
		t.Fatalf("ExpireGuests after the seated guest signed out: %d, %v", n, err)
	}
	if n, err := s.ExpireGuests(ctx, before, 0); err != nil || n != 0 {
		t.Fatalf("ExpireGuests with no limit: %d, %v", n, err)
	}
}

// OnlyUnnamedExpire checks a store just upgraded to guests that expire
// (migration 0017) from a database where each of guests but "nothing" was
// named by one thing, every session seen long ago: ExpireGuests deletes
// "nothing" and keeps every other.
func OnlyUnnamedExpire(t *testing.T, s store.Store, guests []string) {
	t.Helper()
	ctx := context.Background()
	n, err := s.ExpireGuests(ctx, time.Now(), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range guests {
		_, err := s.Player(ctx, id)
		if gone := store.Code(err) == store.ENOTFOUND; gone != (id == "nothing") {
			t.Errorf("guest %s after the expiry: %v", id, err)
		}
	}
	if n != 1 {
		t.Errorf("ExpireGuests after the upgrade deleted %d, want the one guest nothing names", n)
	}
}
