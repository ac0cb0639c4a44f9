package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// TestOnlineOwnTurnIsYours: at a server the player's own turn reads "Your
// turn", as a local game's does, not "Kari's turn: press r" (issue 27);
// a watcher reads who is playing.
func TestOnlineOwnTurnIsYours(t *testing.T) {
	seats := []Seat{{Name: "Kari"}, {Name: "Bo"}}
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, you := range []int{0, -1} {
			server, err := NewGame(seatOrder("classic"), seats, dice.SeedFrom("own-turn"), "", fixedNow, nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Online(Options{Lang: c}, &chanRemote{}, wordOf(server, you, nil, true).u)
			if err != nil {
				t.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			screen := drawn(m)
			mine, theirs := c.Msg("status.mine"), c.Msg("tui.turnOf", "name", "Kari")
			if you == 0 && (!strings.Contains(screen, mine) || strings.Contains(screen, theirs)) {
				t.Errorf("%s: Kari's own turn does not read %q:\n%s", code, mine, screen)
			}
			if playing := c.Msg("tui.playing", "name", "Kari"); you < 0 && !strings.Contains(screen, playing) {
				t.Errorf("%s: a watcher does not read %q:\n%s", code, playing, screen)
			}
		}
	}
}

// TestDragonOnlineOwnTurnIsYours: the same at a Dragon Farkle table, and
// the cards are "Your cards".
func TestDragonOnlineOwnTurnIsYours(t *testing.T) {
	seed := dragonSeed(t, "own-turn", "Kari,Bo", youStart)
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		server := newDragonGame(t, "Kari,Bo", seed, "")
		m, err := DragonOnline(Options{Lang: c}, &chanRemote{}, RemoteUpdate{Game: server.play.Game(), Reset: true, Seats: server.Seats(), You: 0, Table: "t1"})
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		screen := drawn(m)
		if mine := c.Msg("dragon.tui.turnOf.you"); !strings.Contains(screen, mine) || strings.Contains(screen, c.Msg("dragon.tui.turnOf", "p", "Kari")) {
			t.Errorf("%s: Kari's own Dragon turn does not read %q:\n%s", code, mine, screen)
		}
		if mine := c.Msg("dragon.tui.cardsOf.you"); !strings.Contains(screen, mine) || strings.Contains(screen, c.Msg("dragon.tui.cardsOf", "p", "Kari")) {
			t.Errorf("%s: Kari's own cards do not read %q:\n%s", code, mine, screen)
		}
	}
}
