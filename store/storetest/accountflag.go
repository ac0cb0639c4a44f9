package storetest

import (
	"context"
	"testing"

	"github.com/farkle/farkle/store"
)

// testAccountFlags: the leaderboard's rows, a player's stats and the
// ratings say which players have an account, so that the pages tell a
// guest from an account of the same name; HaveAccounts answers the same
// for a list of players, in one read.
func testAccountFlags(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, p := range []string{"p1", "p2"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: p, Name: "Tessa", TokenHash: "h" + p}))
	}
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "p1", Name: "Tessa", RecoveryHash: "r1"}, passkey("k1", "p1", 0), store.Session{TokenHash: "a1", Device: "test"}))
	keys := map[string][]string{"g1": {"p1", "bot:steady"}, "g2": {"p2", "bot:steady"}}
	for _, id := range []string{"g1", "g2"} {
		g := play(t, id)
		must(t, s.CreateTable(ctx, newTable(t, id, store.Seat{Name: "Tessa", PlayerID: keys[id][0]}, store.Seat{Name: "Bot", Bot: "steady"})))
		acts := g.Record().Actions
		for i, e := range acts[:len(acts)-1] {
			must(t, s.AppendAction(ctx, id, i+1, e, nil))
		}
		must(t, s.AppendAction(ctx, id, len(acts), acts[len(acts)-1], finish(g, keys[id])))
	}
	lb, err := s.Leaderboard(ctx, "", 1, 10)
	must(t, err)
	account := map[string]bool{}
	for _, st := range lb {
		account[st.PlayerKey] = st.Account
	}
	if len(account) != 3 || !account["p1"] || account["p2"] || account["bot:steady"] {
		t.Fatalf("the leaderboard's account flags %v: want p1 only", account)
	}
	for key, want := range map[string]bool{"p1": true, "p2": false, "bot:steady": false} {
		st, err := s.Stats(ctx, key)
		must(t, err)
		if st.Account != want {
			t.Errorf("Stats(%s).Account = %v, want %v", key, st.Account, want)
		}
	}
	must(t, s.RateGame(ctx, []store.RatingChange{change("g1", "farkle", "p1", 0, 1500, 1510), change("g1", "farkle", "bot:steady", 0, 1500, 1490)}))
	must(t, s.RateGame(ctx, []store.RatingChange{change("g2", "farkle", "p2", 0, 1500, 1480), change("g2", "farkle", "bot:steady", 1, 1490, 1520)}))
	rs, err := s.RatingLeaderboard(ctx, "farkle", 1, 10)
	must(t, err)
	account = map[string]bool{}
	for _, r := range rs {
		account[r.PlayerKey] = r.Account
	}
	if len(account) < 2 || !account["p1"] || account["p2"] {
		t.Fatalf("the rating leaderboard's account flags %v: want p1 only", account)
	}
	got, err := s.Ratings(ctx, "farkle", []string{"p1", "p2"})
	must(t, err)
	if !got["p1"].Account || got["p2"].Account {
		t.Fatalf("Ratings' account flags: %+v", got)
	}
	have, err := s.HaveAccounts(ctx, []string{"p1", "p2", "bot:steady", "nobody"})
	must(t, err)
	if len(have) != 1 || !have["p1"] {
		t.Fatalf("HaveAccounts = %v, want p1 only", have)
	}
	if have, err := s.HaveAccounts(ctx, nil); err != nil || len(have) != 0 {
		t.Fatalf("HaveAccounts(none) = %v, %v", have, err)
	}
}
