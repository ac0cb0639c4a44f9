package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// twoNodes opens two nodes (two pools) on one new database.
func twoNodes(t *testing.T) [2]*postgres.DB {
	dsn := pgtest.DSN(t)
	var nodes [2]*postgres.DB
	for i := range nodes {
		db, err := postgres.OpenWith(context.Background(), dsn, postgres.Options{Node: fmt.Sprint("n", i)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		nodes[i] = db
	}
	return nodes
}

// race runs write(i) for i in [0, n) at once, on nodes taken in turn, and
// returns how many succeeded; every failure must be an ECONFLICT.
func race(t *testing.T, nodes [2]*postgres.DB, n int, write func(db *postgres.DB, i int) error) int {
	t.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = write(nodes[i%2], i)
		}()
	}
	close(start)
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case store.Code(err) != store.ECONFLICT:
			t.Fatalf("write %d: %v, want success or ECONFLICT", i, err)
		}
	}
	return ok
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newTableOn(t *testing.T, db *postgres.DB, id string) {
	t.Helper()
	mustDo(t, db.CreateTable(context.Background(), store.Table{ID: id, Kind: game.Farkle, Rules: json.RawMessage(`{}`),
		Seats: []store.Seat{{Name: "Ann", PlayerID: "p1"}, {Name: "Bot", Bot: "steady"}}, Seed: dice.SeedFrom(id)}))
}

// TestNodesChat: lines said at once through two nodes are all kept,
// numbered 1 to n without a gap or a double, and the cap holds.
func TestNodesChat(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	newTableOn(t, nodes[0], "c1")
	const n, max = 40, 30
	ok := race(t, nodes, n, func(db *postgres.DB, i int) error {
		_, err := db.AddChat(ctx, store.ChatLine{TableID: "c1", PlayerID: "p1", Name: "Ann", Text: fmt.Sprint("line ", i)}, max)
		return err
	})
	lines, err := nodes[1].Chat(ctx, "c1", 100)
	mustDo(t, err)
	if ok != max || len(lines) != max {
		t.Fatalf("%d of %d racing lines stored, %d read back; the cap is %d", ok, n, len(lines), max)
	}
	said := map[string]bool{}
	for i, l := range lines {
		if l.N != i+1 || said[l.Text] {
			t.Fatalf("line %d: %+v (numbered %d, or said twice)", i, l, l.N)
		}
		said[l.Text] = true
	}
}

// TestNodesRateGame: games of one player rated at once through two nodes
// from the same rating, whether the player has a rating row yet or not:
// exactly one is stored each time, and the count of games says so.
func TestNodesRateGame(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	const n = 8
	for round := range 3 {
		for i := range n {
			newTableOn(t, nodes[0], fmt.Sprintf("r%d-%d", round, i))
		}
		ok := race(t, nodes, n, func(db *postgres.DB, i int) error {
			return db.RateGame(ctx, []store.RatingChange{{TableID: fmt.Sprintf("r%d-%d", round, i), Family: "farkle", PlayerKey: "p1", Name: "Ann", Games: round,
				Before: store.Glicko{Rating: 1500, Deviation: 350, Volatility: 0.06}, After: store.Glicko{Rating: 1500 + float64(i), Deviation: 300, Volatility: 0.06}}})
		})
		got, err := nodes[1].Ratings(ctx, "farkle", []string{"p1"})
		mustDo(t, err)
		hist, err := nodes[0].RatingHistory(ctx, "p1", "farkle", 100)
		mustDo(t, err)
		if ok != 1 || got["p1"].Games != round+1 || len(hist) != round+1 || hist[round].Games != round {
			t.Fatalf("round %d: %d of %d racing ratings stored; p1 has %d games, %d changes", round, ok, n, got["p1"].Games, len(hist))
		}
	}
	// One table rated at once through both nodes, by players with no
	// rating yet: once.
	newTableOn(t, nodes[0], "same")
	ok := race(t, nodes, 2, func(db *postgres.DB, i int) error {
		return db.RateGame(ctx, []store.RatingChange{{TableID: "same", Family: "farkle", PlayerKey: fmt.Sprint("q", i), Name: "Q",
			After: store.Glicko{Rating: 1500, Deviation: 300, Volatility: 0.06}}})
	})
	if ch, _ := nodes[0].TableRatings(ctx, "same"); ok != 1 || len(ch) != 1 {
		t.Fatalf("a table rated at once by two nodes: %d stored, %d changes", ok, len(ch))
	}
}

// TestNodesAccounts: the writes of accounts that must happen once do so
// when two nodes try them at once: an account's last two passkeys removed
// (one stays), a recovery code used, a name (or names that look alike:
// a Greek Ζ, fullwidth letters) taken by two players.
func TestNodesAccounts(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	cred := json.RawMessage(`{}`)
	for i := range 10 {
		id := fmt.Sprint("p", i)
		mustDo(t, nodes[0].CreatePlayer(ctx, store.Player{ID: id, Name: "Guest", TokenHash: "t" + id}))
		mustDo(t, nodes[0].CreateAccount(ctx, store.Account{PlayerID: id, Name: "Name " + id, RecoveryHash: "r0"}, store.Passkey{ID: id + "-a", Credential: cred}, store.Session{TokenHash: "s" + id}))
		mustDo(t, nodes[1].AddPasskey(ctx, store.Passkey{ID: id + "-b", PlayerID: id, Credential: cred}, 0))
		ok := race(t, nodes, 2, func(db *postgres.DB, j int) error { return db.RemovePasskey(ctx, id, id+"-"+"ab"[j:j+1]) })
		if keys, _ := nodes[1].Passkeys(ctx, id); ok != 1 || len(keys) != 1 {
			t.Fatalf("%s: %d of 2 racing removals done, %d passkeys left", id, ok, len(keys))
		}
		ok = race(t, nodes, 4, func(db *postgres.DB, j int) error {
			return db.ReplaceRecovery(ctx, id, "r0", fmt.Sprint("r", j+1), store.Session{TokenHash: fmt.Sprint("s", id, "-", j)})
		})
		if ok != 1 {
			t.Fatalf("%s: the recovery code used %d times at once", id, ok)
		}
	}
	for i := range 4 {
		mustDo(t, nodes[0].CreatePlayer(ctx, store.Player{ID: fmt.Sprint("g", i), Name: "Guest", TokenHash: fmt.Sprint("tg", i)}))
	}
	ok := race(t, nodes, 4, func(db *postgres.DB, j int) error {
		return db.CreateAccount(ctx, store.Account{PlayerID: fmt.Sprint("g", j), Name: []string{"Zoe", "ZOE", "Ζoe", "Ｚｏｅ"}[j], RecoveryHash: "r"},
			store.Passkey{ID: fmt.Sprint("g", j, "-k"), Credential: cred}, store.Session{TokenHash: fmt.Sprint("sg", j)})
	})
	if a, err := nodes[1].AccountLike(ctx, "zoe"); ok != 1 || err != nil {
		t.Fatalf("%d accounts named Zoe made at once; %+v, %v", ok, a, err)
	}
}

// TestNodesUpdateTournament: updates of one version through two nodes:
// exactly one is written.
func TestNodesUpdateTournament(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	mustDo(t, nodes[0].CreateTournament(ctx, store.Tournament{ID: "t1", Name: "Cup", Format: "swiss", Kind: game.Farkle, Rules: json.RawMessage(`{}`), Size: 4, Creator: "p1", Created: time.Unix(1, 0)}))
	tr, err := nodes[1].Tournament(ctx, "t1")
	mustDo(t, err)
	ok := race(t, nodes, 6, func(db *postgres.DB, i int) error {
		u := tr
		u.State = json.RawMessage(fmt.Sprintf(`{"round":%d}`, i))
		_, err := db.UpdateTournament(ctx, u)
		return err
	})
	if got, _ := nodes[0].Tournament(ctx, "t1"); ok != 1 || got.Version != 2 {
		t.Fatalf("%d of 6 racing updates written; version %d", ok, got.Version)
	}
}

// TestNodesCeremonies: a passkey challenge is spent once however many
// nodes try, one owner's spends through two nodes at once keep to the
// cap, and two nodes asking for the server's secret get one secret.
func TestNodesCeremonies(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	later := time.Now().Add(time.Minute)
	if ok := race(t, nodes, 6, func(db *postgres.DB, i int) error {
		return db.SpendChallenge(ctx, "c1", "p1", later, 0)
	}); ok != 1 {
		t.Fatalf("a challenge spent %d times", ok)
	}
	const max = 5
	errs := make([]error, 12)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = nodes[i%2].SpendChallenge(ctx, fmt.Sprint("k", i), "p2", later, max) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, store.ErrOverLimit):
			t.Fatal(err)
		}
	}
	if ok != max {
		t.Fatalf("%d challenges of one owner spent at once under a cap of %d", ok, max)
	}
	secrets := make([][]byte, 6)
	for i := range secrets {
		wg.Go(func() {
			var err error
			secrets[i], err = nodes[i%2].Secret(ctx, "s")
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, sec := range secrets[1:] {
		if len(sec) != 32 || string(sec) != string(secrets[0]) {
			t.Fatalf("nodes got different secrets: %x and %x", sec, secrets[0])
		}
	}
}

// TestNodesSessions: sessions of one player made at once through two
// nodes keep to the cap.
func TestNodesSessions(t *testing.T) {
	ctx := context.Background()
	nodes := twoNodes(t)
	mustDo(t, nodes[0].CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", TokenHash: "t0"}))
	const max = 3
	race(t, nodes, 10, func(db *postgres.DB, i int) error {
		return db.CreateSession(ctx, store.Session{TokenHash: fmt.Sprint("t", i+1), PlayerID: "p1"}, max)
	})
	got, err := nodes[1].Sessions(ctx, "p1")
	mustDo(t, err)
	if len(got) != max {
		t.Fatalf("%d sessions after 10 made at once under a cap of %d", len(got), max)
	}
}
