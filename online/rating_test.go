package online_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/tui"
)

// TestRatedGameEndsWithTheRatingChange: a rated game played to its end
// at a real server (the classic rules against a bot) brings the player's
// rating change with its last update, as the web page's end screen has
// it, and the terminal's end screen says it: "rating 1500 → 1532 (+32)",
// in Norwegian too. The numbers are the server's table as its API gives
// it, read apart from the link.
func TestRatedGameEndsWithTheRatingChange(t *testing.T) {
	// A whole game of 10,000 points: its actions as fast as they are
	// answered (no limit on a connection's messages).
	base := servertest.Start(t, server.Options{ActionRate: -1, PlayerMessageRate: -1}).URL
	c := online.New(base)
	c.RecordDir = t.TempDir()
	ctx := context.Background()
	me, err := c.SignIn(ctx, "Ann", "")
	if err != nil {
		t.Fatal(err)
	}
	id, r := openTable(t, c, tui.NewTable{Rules: rules.MustPreset("classic"), Seats: []tui.Seat{{Name: "you"}, {Name: "Steady", Bot: "steady"}}})

	var last tui.RemoteUpdate
	acted := -1
	deadline, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for last.Game == nil || !last.Game.Over() || last.Record == "" {
		u, err := r.Next(deadline)
		if err != nil {
			t.Fatalf("the link ended: %v", err)
		}
		if u.Refused != "" {
			t.Fatalf("the server refused an action: %s", u.Refused)
		}
		if u.Game == nil {
			if last.Game != nil {
				u.Game = last.Game
			}
			last = u
			continue
		}
		last = u
		s := u.Game.(*game.FarkleGame).State()
		if s.Over() || s.Actor() != u.You || s.Version == acted {
			if !s.Over() && len(u.Ratings) > 0 {
				t.Fatalf("ratings before the end: %+v", u.Ratings)
			}
			continue
		}
		acted = s.Version
		if err := r.Act(s.Version, choose(s)); err != nil {
			t.Fatal(err)
		}
	}

	// The server's table, read by its API.
	var tb struct {
		Ratings []struct {
			Player        string
			Before, After float64
			Bot           bool
		}
		Unrated string
	}
	api := wsclient.New(base)
	if err := api.Do(ctx, http.MethodGet, "/api/tables/"+id, nil, &tb); err != nil {
		t.Fatal(err)
	}
	var want *tui.RatingChange
	for _, ch := range tb.Ratings {
		if ch.Player == me.ID && !ch.Bot {
			want = &tui.RatingChange{Before: ch.Before, After: ch.After}
		}
	}
	if want == nil {
		t.Fatalf("the server rated no change of Ann's: %+v (unrated %q)", tb.Ratings, tb.Unrated)
	}
	if len(last.Ratings) != 1 || !last.Ratings[0].You || last.Ratings[0].Before != want.Before || last.Ratings[0].After != want.After {
		t.Fatalf("the link brought the ratings %+v; the server has Ann %v → %v", last.Ratings, want.Before, want.After)
	}
	if want.After == want.Before {
		t.Fatalf("the game moved no rating: %v", want.Before)
	}

	// The end screen says it.
	delta := int(math.Round(want.After)) - int(math.Round(want.Before))
	sign := "+"
	if delta < 0 {
		sign, delta = "−", -delta
	}
	for _, code := range []string{"en", "nb"} {
		m, err := tui.Online(tui.Options{Lang: lang.Get(code)}, r, last)
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		screen := m.View().Content
		line := lang.Get(code).Msg("tui.end.rating", "before", fmt.Sprint(math.Round(want.Before)), "after", fmt.Sprint(math.Round(want.After)), "change", fmt.Sprintf("%s%d", sign, delta))
		if !strings.Contains(screen, line) {
			t.Errorf("%s: the end screen does not say %q:\n%s", code, line, screen)
		}
	}
}
