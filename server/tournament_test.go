package server_test

import (
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// opened reports whether every game of the last round has its table: a
// round is stored as paired before its tables open.
func opened(tr tourJSON) bool {
	for _, g := range tr.Rounds[len(tr.Rounds)-1] {
		if g.Pending {
			return false
		}
	}
	return true
}

// TestTournamentsOfBots plays tournaments of bots to their end in each
// format: every round is paired once the last is complete, each entrant
// plays the right number of games (byes included), and the standings'
// wins add up.
func TestTournamentsOfBots(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 3*time.Minute)
	c := host(t, ts)
	for _, tc := range []struct {
		format string
		size   int
		played int // games (and byes) per entrant
	}{{"round-robin", 5, 5}, {"swiss", 3, 2}, {"knockout", 4, 0}} {
		var entrants []map[string]string
		levels := []string{"steady", "cautious", "bold", "reckless", "steady"}
		for i := range tc.size {
			entrants = append(entrants, map[string]string{"type": "bot", "level": levels[i]})
		}
		var tr tourJSON
		body := map[string]any{"name": "Bots " + tc.format, "format": tc.format, "rules": shortRules, "size": tc.size, "entrants": entrants}
		if err := c.Do(ctx, "POST", "/api/tournaments", body, &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Status != "playing" || len(tr.Rounds) != 1 {
			t.Fatalf("%s: a full tournament that starts when full: %+v", tc.format, tr)
		}
		tr = waitTour(t, ctx, c, tr.ID, func(tr tourJSON) bool { return tr.Status == "over" })
		if len(tr.Rounds) != tr.Total || tr.Champion == nil || *tr.Champion == "" {
			t.Fatalf("%s: %d rounds of %d, champion %v", tc.format, len(tr.Rounds), tr.Total, tr.Champion)
		}
		wins := 0
		for _, s := range tr.Standings {
			if tc.played > 0 && s.Played != tc.played {
				t.Fatalf("%s: %s played %d, want %d", tc.format, s.Name, s.Played, tc.played)
			}
			wins += 2*s.Wins + s.Draws
		}
		games := 0
		for _, r := range tr.Rounds {
			for _, g := range r {
				if !g.Done {
					t.Fatalf("%s: a game not done at the end: %+v", tc.format, g)
				}
				games++
			}
		}
		if wins != 2*games {
			t.Fatalf("%s: %d half-wins for %d games", tc.format, wins, games)
		}
		if tc.format == "knockout" && *tr.Champion != tr.Rounds[len(tr.Rounds)-1][0].AName && *tr.Champion != tr.Rounds[len(tr.Rounds)-1][0].BName {
			t.Fatalf("the knockout's champion %s did not play the final %+v", *tr.Champion, tr.Rounds[len(tr.Rounds)-1])
		}
	}
}

// TestTournamentWithAPerson: two people and two bots in a rated knockout;
// a game waits on the person to act, who plays it (the other person never
// does: the turn clock plays for her and resigns her); the tournament goes
// on, and the rating of the person who played moved for each game.
func TestTournamentWithAPerson(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, 3*time.Minute)
	ann := newPlayer(t, ts, "Ann")
	defer ann.Close()
	// A preset, capped at the shortest rated length: house rules with
	// bots are never rated.
	rated := map[string]any{"base": "classic", "game": map[string]any{"max_turns": 10}}
	body := map[string]any{"name": "Cup", "format": "knockout", "rules": rated, "rated": true, "size": 4, "clock": 2,
		"entrants": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}, {"type": "bot", "level": "bold"}}}
	var tr tourJSON
	if err := ann.Do(ctx, "POST", "/api/tournaments", body, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Status != "open" || len(tr.Entrants) != 3 {
		t.Fatalf("a tournament of 4 with 3 entrants: %+v", tr)
	}
	bea := newPlayer(t, ts, "Bea") // the fourth entrant, who joins and then never plays: her clock of 2 s plays for her
	if err := bea.Do(ctx, "POST", "/api/tournaments/"+tr.ID+"/join", map[string]any{}, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Status != "playing" {
		t.Fatalf("full: %+v", tr)
	}
	played, ratedGames := 0, 0
	for tr.Status != "over" {
		mine := ""
		for _, g := range tr.Rounds[len(tr.Rounds)-1] {
			if !g.Done && (g.AName == "Ann" || g.BName == "Ann") {
				mine = g.Table
				if g.WaitingOn == "" {
					t.Fatalf("Ann's game waits on nobody: %+v", g)
				}
			}
		}
		if mine != "" {
			ann.Last = nil
			if err := ann.Connect(ctx, mine); err != nil {
				t.Fatal(err)
			}
			if err := ann.PlayToEnd(ctx); err != nil {
				t.Fatal(err)
			}
			// A game Bea (who never acts) starts ends on her clock before
			// her first turn is finished: aborted, and rated for no one.
			if getInfo(t, ctx, ann.Client, mine).Unrated == "" {
				ratedGames++
			}
			played++
		}
		round := len(tr.Rounds)
		tr = waitTour(t, ctx, ann.Client, tr.ID, func(n tourJSON) bool { return n.Status == "over" || len(n.Rounds) > round && opened(n) })
		if mine == "" && tr.Status != "over" {
			// Ann is out: Bea's games (she never acts) end by her clock.
			break
		}
	}
	if played == 0 {
		t.Fatal("Ann played no game")
	}
	var hist struct{ History []struct{ Table string } }
	if err := ann.Do(ctx, "GET", "/api/players/"+ann.ID+"/ratings?family=farkle", nil, &hist); err != nil || len(hist.History) != ratedGames {
		t.Fatalf("Ann's rated games: %+v %v, want the %d of %d played that were not aborted", hist, err, ratedGames, played)
	}
}
