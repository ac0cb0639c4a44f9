package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// TestOnlineEndStats: the end screen of a game watched at a server says
// each player's farkles and best turn as the game's record has them (the
// server's record, counted apart), though the terminal has only the
// server's events; and the ratings as the server sent them: a watcher
// each person's, a game not rated why.
func TestOnlineEndStats(t *testing.T) {
	r := seatOrder("classic")
	r.Game.Target = 3000
	seats := []Seat{{Name: "Steady", Bot: "steady"}, {Name: "Rash", Bot: "reckless"}}
	server, err := NewGame(r, seats, dice.SeedFrom("online-end-stats"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	word := func(evs []engine.Event, reset bool) remoteMsg {
		w := wordOf(server, -1, evs, reset)
		if server.Over() {
			w.u.Ratings = []RatingChange{{Name: "Ann", Before: 1500, After: 1523.4}, {Name: "Bob", Before: 1612.6, After: 1590.2}}
		}
		return w
	}
	m, err := Online(Options{}, &chanRemote{}, word(nil, true).u)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	for !server.Over() {
		_, ev, err := server.Auto()
		if err != nil {
			t.Fatal(err)
		}
		m.Update(word(ev, false))
	}
	want, err := gameStats(server.Record())
	if err != nil {
		t.Fatal(err)
	}
	farkles, best := 0, 0
	for _, s := range want {
		farkles, best = farkles+s.Farkles, max(best, s.BestTurn)
	}
	if farkles == 0 || best == 0 {
		t.Fatalf("a game without a farkle or a turn banked tells nothing: %+v", want)
	}
	screen := drawn(m)
	names := m.game.Names()
	w := max(len(names[0]), len(names[1]))
	for i, s := range want {
		line := lang.Get("en").Msg("tui.end.player", "name", padRight(names[i], w), "farkles", s.Farkles, "best", s.BestTurn)
		if !strings.Contains(screen, line) {
			t.Errorf("the end screen does not say %q:\n%s", line, screen)
		}
	}
	for _, l := range []string{"Ann: rating 1500 → 1523 (+23)", "Bob: rating 1613 → 1590 (−23)"} {
		if !strings.Contains(screen, l) {
			t.Errorf("the end screen does not say %q:\n%s", l, screen)
		}
	}

	// A game of a rated family that moved no rating says why, in the
	// player's language.
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, why := range []string{"bots", "short", "aborted"} {
			o := &online{you: 0, unrated: why}
			got := strings.Join(o.ratingLines(c, 60), "\n")
			if want := c.Msg("tui.end.unrated." + why); !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
				t.Errorf("%s, unrated %s: %q, want %q", code, why, got, want)
			}
		}
		if got := (&online{you: 0, unrated: "nosuch"}).ratingLines(c, 60); len(got) != 0 {
			t.Errorf("%s: an unknown reason is said: %q", code, got)
		}
	}
	// At a seat, the player's own change only.
	o := &online{you: 1, ratings: []RatingChange{{Name: "Ann", Before: 1500, After: 1480}, {Name: "Bob", Before: 1500, After: 1500.2, You: true}}}
	if got, want := fmt.Sprint(o.ratingLines(lang.Get("en"), 80)), "[  rating 1500 → 1500 (±0)]"; got != want {
		t.Errorf("the player's change: %q, want %q", got, want)
	}
}

// TestOnlineEndRecordWhole: the end of a game at a server says where its
// record was saved in full at every width, in both languages, the path
// broken after a slash when it is wider than the screen (at 60 columns
// it was cut: ".../games/farkl…").
func TestOnlineEndRecordWhole(t *testing.T) {
	path := "/home/someone-with-a-long-name/.local/share/farkle/games/farkle--wobwWWA7Bvy.json"
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, width := range []int{60, 80, 120} {
			lines := onlineOverMessage(c, &online{you: 0}, path, width)
			var joined strings.Builder
			for _, l := range lines {
				if n := len([]rune(l)); n > width {
					t.Errorf("%s at %d: a line of %d columns: %q", code, width, n, l)
				}
				joined.WriteString(strings.TrimSpace(l))
			}
			if !strings.Contains(joined.String(), path) {
				t.Errorf("%s at %d: the path is not whole:\n%s", code, width, strings.Join(lines, "\n"))
			}
		}
	}
}

// TestWrapLongWords: wrap loses nothing and keeps every line within its
// width, a word wider than a line (a path, or none with a slash) broken
// across lines; a word that fits a line stays whole.
func TestWrapLongWords(t *testing.T) {
	words := []string{"Saved", "as", "/tmp/a/b/c/farkle-game.json.", "abcdefghijklmnopqrstuvwxyz", "x", "end/"}
	for width := 3; width <= 40; width++ {
		for n := 1; n <= len(words); n++ {
			s := strings.Join(words[:n], " ")
			for _, indent := range []string{"", "  "} {
				lines := wrap(s, width, indent)
				var got strings.Builder
				for i, l := range lines {
					if len([]rune(l)) > width {
						t.Fatalf("wrap(%q, %d, %q): line %q is wider", s, width, indent, l)
					}
					if i > 0 && !strings.HasPrefix(l, indent) {
						t.Fatalf("wrap(%q, %d, %q): line %q lacks the indent", s, width, indent, l)
					}
					got.WriteString(strings.ReplaceAll(l, " ", ""))
				}
				if want := strings.ReplaceAll(s, " ", ""); got.String() != want {
					t.Fatalf("wrap(%q, %d, %q) = %q: lost or changed", s, width, indent, lines)
				}
				for _, w := range words[:n] {
					if len(w) <= width-len(indent) && !strings.Contains(strings.Join(lines, "\n"), w) {
						t.Fatalf("wrap(%q, %d, %q) broke %q, which fits a line: %q", s, width, indent, w, lines)
					}
				}
			}
		}
	}
}
