package server_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/rating"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// TestRatedGame plays the classic preset against the steady bot: at the
// end the table shows both seats' changes, the person's new rating is what
// package rating computes from the anchor, the bot's does not move, and
// the leaderboard (listing from one rated game here) and the player's
// history have them. Started again with the default threshold of the
// leaderboard on the same database, the board lists nobody after one game.
func TestRatedGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	ts := startAt(t, "127.0.0.1:0", path, server.Options{RatingBoardGames: 1})
	ctx := ctxT(t, 2*time.Minute)
	p := newPlayer(t, ts, "Ann")
	defer p.Close()
	var tb wsclient.Table
	body := map[string]any{"rules": "classic", "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}
	if err := p.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	var final ratedTable
	if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	if final.Status != "over" || final.Rated != "farkle" || final.Unrated != "" || len(final.Ratings) != 2 {
		t.Fatalf("finished rated table: %+v", final)
	}
	anchor, ok := rating.Anchor(rating.Ordinary, "steady")
	if !ok {
		t.Fatal("no anchor for steady")
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
	if err := p.Do(ctx, "GET", "/api/ratings?family=farkle", nil, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb) != 2 || (lb[0].Rating < lb[1].Rating) {
		t.Fatalf("leaderboard %+v: want both seats by rating", lb)
	}
	for _, l := range lb {
		if l.Games != 1 || l.Deviation <= 0 {
			t.Fatalf("leaderboard line %+v", l)
		}
	}
	if err := p.Do(ctx, "GET", "/api/ratings?family=house", nil, &lb); err != nil || len(lb) != 0 {
		t.Fatalf("the house family's leaderboard after an ordinary game: %+v, %v", lb, err)
	}
	var hist struct {
		Rating  *struct{ Rating float64 }
		History []changeJSON
	}
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/ratings?family=farkle", nil, &hist); err != nil {
		t.Fatal(err)
	}
	if hist.Rating == nil || hist.Rating.Rating != ann.After || len(hist.History) != 1 || hist.History[0].Table != tb.ID {
		t.Fatalf("Ann's rating page: %+v", hist)
	}
	if err := p.Do(ctx, "GET", "/api/ratings?family=chess", nil, &lb); err == nil || !strings.Contains(err.Error(), `family \"chess\" (families: farkle, dragon, house)`) {
		t.Fatalf("an unknown family: %v, want an error naming the families", err)
	}

	// The default threshold: one rated game is not enough to be listed.
	p.Close()
	ts.Stop()
	ts = startAt(t, "127.0.0.1:0", path, server.Options{})
	q := newPlayer(t, ts, "Bea")
	defer q.Close()
	if err := q.Do(ctx, "GET", "/api/ratings?family=farkle", nil, &lb); err != nil || len(lb) != 0 {
		t.Fatalf("the leaderboard lists players of one rated game: %+v, %v", lb, err)
	}
	if err := q.Do(ctx, "GET", "/api/players/"+p.ID+"/ratings?family=farkle", nil, &hist); err != nil || hist.Rating == nil || hist.Rating.Rating != ann.After {
		t.Fatalf("Ann's rating after the restart: %+v, %v", hist, err)
	}
}

// TestRatingVerdicts: a table says from its creation whether its game
// will be rated, and why not: house rules with a bot ("bots"), a turn cap
// under 10 or a target far under a real game's ("short"); house rules
// between people are rated; unmarked house rules are simply unrated. The
// one-turn game of the issue, played out, moves no rating.
func TestRatingVerdicts(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 2*time.Minute)
	p := newPlayer(t, ts, "Ann")
	defer p.Close()
	me, bot, friend := map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "human"}
	house := func(target int) map[string]any {
		return map[string]any{"base": "classic", "game": map[string]any{"target": target}}
	}
	oneTurn := map[string]any{"base": "classic", "game": map[string]any{"max_turns": 1}}
	var oneTurnID string
	for _, c := range []struct {
		name           string
		rules          any
		rated          bool
		seats          []map[string]string
		family, reason string
		play           bool
	}{
		{"a preset against a bot", "classic", false, []map[string]string{me, bot}, "farkle", "", false},
		{"a preset capped at one turn", oneTurn, false, []map[string]string{me, bot}, "", "short", true},
		{"rated house rules against a bot", house(10050), true, []map[string]string{me, bot}, "", "bots", false},
		{"rated house rules to 50 against a bot", house(50), true, []map[string]string{me, bot}, "", "short", false},
		{"rated house rules to 50 between people", house(50), true, []map[string]string{me, friend}, "", "short", false},
		{"rated house rules between people", house(4000), true, []map[string]string{me, friend}, "house", "", false},
		{"unmarked house rules", house(4000), false, []map[string]string{me, friend}, "", "", false},
	} {
		var tb ratedTable
		body := map[string]any{"rules": c.rules, "rated": c.rated, "seats": c.seats}
		if err := p.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if tb.Rated != c.family || tb.Unrated != c.reason {
			t.Errorf("%s: rated %q, unrated %q; want %q, %q", c.name, tb.Rated, tb.Unrated, c.family, c.reason)
		}
		if c.play {
			oneTurnID = tb.ID
		}
	}
	if err := p.Connect(ctx, oneTurnID); err != nil {
		t.Fatal(err)
	}
	if err := p.PlayToEnd(ctx); err != nil {
		t.Fatal(err)
	}
	var final ratedTable
	if err := p.Do(ctx, "GET", "/api/tables/"+oneTurnID, nil, &final); err != nil {
		t.Fatal(err)
	}
	if final.Status != "over" || final.Unrated != "short" || len(final.Ratings) != 0 {
		t.Fatalf("the one-turn game at its end: %+v", final)
	}
	var hist struct{ Rating *struct{ Rating float64 } }
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/ratings?family=farkle", nil, &hist); err != nil || hist.Rating != nil {
		t.Fatalf("Ann's rating after a one-turn game: %+v, %v", hist, err)
	}
}

// TestAbortedGame: a player who resigns at the first decision, before
// finishing a turn, aborts the game: it is over, shown as "aborted", moves
// no rating and counts in nobody's stats, as no loss either, also after a
// restart. A player who resigns after a whole turn loses a rated game.
func TestAbortedGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "farkle.db")
	ts := startAt(t, "127.0.0.1:0", path, server.Options{})
	ctx := ctxT(t, 2*time.Minute)
	p := newPlayer(t, ts, "Ann")
	defer p.Close()
	seats := []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}
	tb := joinNewTable(t, ctx, p.Client, "classic", seats...)
	if err := p.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	type stats struct {
		Games, Wins int
	}
	check := func(ts *testServer, what string) {
		t.Helper()
		var final ratedTable
		if err := p.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
			t.Fatal(err)
		}
		if final.Status != "over" || final.Unrated != "aborted" || final.Rated != "" || len(final.Ratings) != 0 {
			t.Fatalf("%s: the aborted table %+v", what, final)
		}
		for _, who := range []string{p.ID, "bot:steady"} {
			var st stats
			if err := p.Do(ctx, "GET", "/api/players/"+who+"/stats", nil, &st); err != nil || st.Games != 0 {
				t.Fatalf("%s: %s's stats after an aborted game: %+v, %v", what, who, st, err)
			}
			var hist struct {
				Rating  *struct{ Rating float64 }
				History []changeJSON
			}
			if err := p.Do(ctx, "GET", "/api/players/"+who+"/ratings?family=farkle", nil, &hist); err != nil || hist.Rating != nil && !strings.HasPrefix(who, "bot:") || len(hist.History) != 0 {
				t.Fatalf("%s: %s's ratings after an aborted game: %+v, %v", what, who, hist, err)
			}
		}
	}
	check(ts, "at the end")
	p.Close()
	ts.Stop()
	ts = startAt(t, "127.0.0.1:0", path, server.Options{})
	p.Client = wsclient.New(ts.URL)
	p.Client.Token = p.Token
	check(ts, "after a restart")

	// A whole turn, then a resignation: a rated loss.
	p.Last, p.Seat = nil, -1
	joinNewTable(t, ctx, p.Client, "classic", seats...)
	if err := playUntilMyTurn(p, ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := p.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	var st stats
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/stats", nil, &st); err != nil || st.Games != 1 || st.Wins != 0 {
		t.Fatalf("Ann's stats after resigning a game she played: %+v, %v", st, err)
	}
	var hist struct{ Rating *struct{ Rating float64 } }
	if err := p.Do(ctx, "GET", "/api/players/"+p.ID+"/ratings?family=farkle", nil, &hist); err != nil || hist.Rating == nil || hist.Rating.Rating >= 1500 {
		t.Fatalf("Ann's rating after resigning a game she played: %+v, %v", hist, err)
	}
}

// TestHouseRatedBetweenPeople: two new players at rated house rules play
// to the end; the game is rated in the house family, each change being
// package rating's with the other counting for a new player's weight.
func TestHouseRatedBetweenPeople(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 2*time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	defer ann.Close()
	defer bea.Close()
	var tb wsclient.Table
	house := map[string]any{"base": "classic", "game": map[string]any{"target": 4000}}
	body := map[string]any{"rules": house, "rated": true, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}
	if err := ann.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if _, err := bea.Join(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for _, p := range []*player{ann, bea} {
		if err := p.Connect(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		go func() { done <- p.PlayToEnd(ctx) }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	var final ratedTable
	if err := ann.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &final); err != nil {
		t.Fatal(err)
	}
	if final.Rated != "house" || final.Unrated != "" || len(final.Ratings) != 2 {
		t.Fatalf("the rated house table between people: %+v", final)
	}
	want := rating.Game([]rating.Seat{
		{Before: rating.New(), Won: slicesContains(final.Winners, 0), Score: final.Scores[0]},
		{Before: rating.New(), Won: slicesContains(final.Winners, 1), Score: final.Scores[1]},
	})
	for i, c := range final.Ratings {
		seat := 0
		if c.Player == bea.ID {
			seat = 1
		}
		if math.Abs(c.After-want[seat].R) > 0.05 || c.Bot {
			t.Fatalf("change %d: %+v, want %.1f", i, c, want[seat].R)
		}
		// Each was new: the other's result counted a hundredth of a game.
		if math.Abs(c.Change) > 5 || c.Change == 0 {
			t.Fatalf("change %d of two new players: %+.1f", i, c.Change)
		}
	}
}
