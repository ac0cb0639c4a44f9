package server_test

import (
	"math"
	"testing"
	"time"

	"github.com/farkle/farkle/rating"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

type changeJSON struct {
	Table, Player, Name              string
	Before, After, Change, Deviation float64
	Bot                              bool
}

type ratedTable struct {
	Status  string
	Rated   string
	Winners []int
	Scores  []int
	Ratings []changeJSON
}

// TestRatedGame plays house rules marked rated against the steady bot: at
// the end the table shows both seats' changes, the person's new rating is
// what package rating computes from the anchor, the bot's does not move,
// and the leaderboard and the player's history have them. The same rules
// unmarked move nothing.
func TestRatedGame(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 2*time.Minute)
	p := newPlayer(t, ts, "Ann")
	defer p.Close()
	var tb wsclient.Table
	body := map[string]any{"rules": shortRules, "rated": true, "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}
	if err := p.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := p.playToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	var final ratedTable
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	if final.Status != "over" || final.Rated != "house" || len(final.Ratings) != 2 {
		t.Fatalf("finished rated table: %+v", final)
	}
	anchor, ok := rating.Anchor(rating.House, "steady")
	if !ok {
		anchor = rating.New()
	}
	annWon := slicesContains(final.Winners, 0)
	want := rating.Game([]rating.Seat{
		{Before: rating.New(), Won: annWon, Score: final.Scores[0]},
		{Before: anchor, Fixed: true, Won: slicesContains(final.Winners, 1), Score: final.Scores[1]},
	})
	byPlayer := map[string]changeJSON{}
	for _, c := range final.Ratings {
		byPlayer[c.Player] = c
	}
	ann, bot := byPlayer[p.ID], byPlayer["bot:steady"]
	if ann.Before != 1500 || math.Abs(ann.After-want[0].R) > 0.05 || math.Abs(ann.Change-(want[0].R-1500)) > 0.1 {
		t.Fatalf("Ann's change %+v, want 1500 → %.1f", ann, want[0].R)
	}
	if (ann.Change > 0) != annWon {
		t.Fatalf("Ann won: %v, her rating changed by %+.1f", annWon, ann.Change)
	}
	if !bot.Bot || bot.Before != bot.After || math.Abs(bot.Before-anchor.R) > 0.05 {
		t.Fatalf("the bot's change %+v, want fixed at %.1f", bot, anchor.R)
	}

	var lb []struct {
		Player    string
		Rating    float64
		Deviation float64
		Games     int
	}
	if err := p.Do(ctx, "GET", "/api/ratings?family=house", nil, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb) != 2 || (lb[0].Rating < lb[1].Rating) {
		t.Fatalf("house leaderboard %+v: want both seats by rating", lb)
	}
	for _, l := range lb {
		if l.Games != 1 || l.Deviation <= 0 {
			t.Fatalf("leaderboard line %+v", l)
		}
	}
	if err := p.Do(ctx, "GET", "/api/ratings?family=farkle", nil, &lb); err != nil || len(lb) != 0 {
		t.Fatalf("the ordinary family's leaderboard after a house game: %+v, %v", lb, err)
	}
	var hist struct {
		Rating  *struct{ Rating float64 }
		History []changeJSON
	}
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/ratings?family=house", nil, &hist); err != nil {
		t.Fatal(err)
	}
	if hist.Rating == nil || hist.Rating.Rating != ann.After || len(hist.History) != 1 || hist.History[0].Table != tb.ID {
		t.Fatalf("Ann's rating page: %+v", hist)
	}
	if err := p.Do(ctx, "GET", "/api/ratings?family=chess", nil, &lb); err == nil {
		t.Fatal("an unknown family was served")
	}

	// The same house rules unmarked: no rating moves.
	p.Close()
	q := newPlayer(t, ts, "Bea")
	defer q.Close()
	tb2 := joinNewTable(t, ctx, q.Client, shortRules, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err := q.playToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	var unrated ratedTable
	if err := q.Do(ctx, "GET", "/api/tables/"+tb2.ID, nil, &unrated); err != nil {
		t.Fatal(err)
	}
	if unrated.Status != "over" || unrated.Rated != "" || len(unrated.Ratings) != 0 {
		t.Fatalf("unrated house table: %+v", unrated)
	}
	if err := q.Do(ctx, "GET", "/api/players/"+q.ID+"/ratings?family=house", nil, &hist); err != nil || hist.Rating != nil || len(hist.History) != 0 {
		t.Fatalf("Bea's rating after an unrated game: %+v, %v", hist, err)
	}
}
