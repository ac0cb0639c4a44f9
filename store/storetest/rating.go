package storetest

import (
	"context"

	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// change is a rating change of player key at table id in the family.
func change(id, family, key string, games int, before, after float64) store.RatingChange {
	return store.RatingChange{TableID: id, Family: family, PlayerKey: key, Name: "N" + key, Games: games,
		Before: store.Glicko{Rating: before, Deviation: 350, Volatility: 0.06},
		After:  store.Glicko{Rating: after, Deviation: 300, Volatility: 0.06}, At: time.Unix(int64(1000+games), 0)}
}

func testRatings(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, id := range []string{"r1", "r2", "r3", "r4", "r5"} {
		tb := newTable(t, id, store.Seat{Name: "Ann", PlayerID: "p1"}, store.Seat{Name: "Bot", Bot: "steady"})
		tb.Rated = id == "r1"
		if id == "r2" {
			tb.Pace = "3d"
		}
		must(t, s.CreateTable(ctx, tb))
	}
	if got, err := s.Table(ctx, "r1"); err != nil || !got.Rated {
		t.Fatalf("Table(r1).Rated = %v, %v; it was stored rated", got.Rated, err)
	}
	if got, err := s.Table(ctx, "r2"); err != nil || got.Rated || got.Pace != "3d" {
		t.Fatalf("Table(r2) rated %v, pace %q, %v; it was stored unrated at a pace of 3d", got.Rated, got.Pace, err)
	}
	if got, _ := s.Table(ctx, "r1"); got.Pace != "" {
		t.Fatalf("Table(r1).Pace = %q; it was stored live", got.Pace)
	}
	got, err := s.Ratings(ctx, "farkle", []string{"p1", "bot:steady"})
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("ratings before any game: %v", got)
	}
	wantCode(t, s.RateGame(ctx, nil), store.EINVALID, "no changes")
	wantCode(t, s.RateGame(ctx, []store.RatingChange{change("r1", "farkle", "p1", 0, 1500, 1600), change("r2", "farkle", "p2", 0, 1500, 1400)}),
		store.EINVALID, "changes of two tables")

	bot := change("r1", "farkle", "bot:steady", 7, 1500, 1500) // fixed: its Games is not checked
	bot.Fixed = true
	must(t, s.RateGame(ctx, []store.RatingChange{change("r1", "farkle", "p1", 0, 1500, 1600), bot}))
	wantCode(t, s.RateGame(ctx, []store.RatingChange{change("r1", "farkle", "p1", 1, 1600, 1700)}), store.ECONFLICT, "the same table rated twice")
	got, err = s.Ratings(ctx, "farkle", []string{"p1", "bot:steady", "nobody"})
	must(t, err)
	if len(got) != 2 || got["p1"].Rating != 1600 || got["p1"].Games != 1 || got["p1"].Deviation != 300 || got["p1"].Name != "Np1" ||
		got["bot:steady"].Games != 1 || got["bot:steady"].Rating != 1500 {
		t.Fatalf("ratings after one game: %+v", got)
	}

	// A stale read is refused, and nothing of the game is written.
	wantCode(t, s.RateGame(ctx, []store.RatingChange{change("r2", "farkle", "p2", 0, 1500, 1450), change("r2", "farkle", "p1", 0, 1500, 1550)}),
		store.ECONFLICT, "a change read before another game was rated")
	if got, _ := s.Ratings(ctx, "farkle", []string{"p2"}); len(got) != 0 {
		t.Fatalf("a refused game wrote %+v", got)
	}
	if cs, _ := s.TableRatings(ctx, "r2"); len(cs) != 0 {
		t.Fatalf("a refused game kept changes %+v", cs)
	}
	must(t, s.RateGame(ctx, []store.RatingChange{change("r2", "farkle", "p2", 0, 1500, 1450), change("r2", "farkle", "p1", 1, 1600, 1640)}))
	must(t, s.RateGame(ctx, []store.RatingChange{change("r3", "dragon", "p1", 0, 1500, 1300)}))

	hist, err := s.RatingHistory(ctx, "p1", "farkle", 10)
	must(t, err)
	if len(hist) != 2 || hist[0].TableID != "r1" || hist[1].TableID != "r2" || hist[1].Before.Rating != 1600 || hist[1].After.Rating != 1640 {
		t.Fatalf("history of p1: %+v", hist)
	}
	if hist, _ := s.RatingHistory(ctx, "p1", "farkle", 1); len(hist) != 1 || hist[0].TableID != "r2" {
		t.Fatalf("the last change of p1: %+v", hist)
	}
	tr, err := s.TableRatings(ctx, "r1")
	must(t, err)
	if len(tr) != 2 || tr[0].PlayerKey != "bot:steady" || !tr[0].Fixed || tr[1].PlayerKey != "p1" || tr[1].After.Rating != 1600 {
		t.Fatalf("the changes of r1: %+v", tr)
	}

	lb, err := s.RatingLeaderboard(ctx, "farkle", 1, 10)
	must(t, err)
	if keys(lb) != "p1 bot:steady p2" {
		t.Fatalf("leaderboard %s, want p1 bot:steady p2 (by rating)", keys(lb))
	}
	if lb, _ := s.RatingLeaderboard(ctx, "farkle", 2, 10); keys(lb) != "p1" {
		t.Fatalf("leaderboard of 2 games or more: %s", keys(lb))
	}
	if lb, _ := s.RatingLeaderboard(ctx, "dragon", 1, 10); keys(lb) != "p1" || lb[0].Rating != 1300 {
		t.Fatalf("the dragon family's leaderboard: %+v", lb)
	}

	// Two games read at once for the same player: exactly one is stored.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, id := range []string{"r4", "r5"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.RateGame(ctx, []store.RatingChange{change(id, "farkle", "p2", 1, 1450, 1500+float64(i))})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if store.Code(err) != store.ECONFLICT {
			t.Fatalf("a racing rating failed with %v", err)
		}
	}
	if got, _ := s.Ratings(ctx, "farkle", []string{"p2"}); ok != 1 || got["p2"].Games != 2 {
		t.Fatalf("%d of 2 racing ratings stored; p2 has %d games", ok, got["p2"].Games)
	}
}

func keys(rs []store.Rating) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += " "
		}
		out += r.PlayerKey
	}
	return out
}
