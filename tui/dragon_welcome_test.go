package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// TestDragonWelcomeEventsAreTheLog: a welcome's events (the game from its
// start) are the whole log, in the terminal's words for its player; the
// welcome again after a reconnect replaces the log instead of adding the
// game's events a second time.
func TestDragonWelcomeEventsAreTheLog(t *testing.T) {
	server := newDragonGame(t, "Ann,bot:smart", dice.SeedFrom("dragon-welcome"), "")
	var all []game.Event
	for len(all) < 12 && !server.Over() {
		var evs []dragon.Event
		var err error
		if server.BotToAct() {
			_, evs, err = server.Auto()
		} else {
			evs, err = server.Do(server.play.Game().Legal(server.ToAct())[0].(dragon.Action))
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range dragon.ViewEvents(evs, 0) {
			all = append(all, e)
		}
	}
	welcome := RemoteUpdate{Game: server.play.Game(), Events: all, Reset: true, Seats: server.Seats(), You: 0, Table: "t1"}
	m, err := DragonOnline(Options{}, &chanRemote{}, welcome)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	first := m.g.events
	if len(first) != len(all) {
		t.Fatalf("the log holds %d events of the welcome's %d", len(first), len(all))
	}
	m.Update(remoteMsg{u: welcome}) // the link came back: the welcome again
	if len(m.g.events) != len(all) {
		t.Fatalf("after the welcome again the log holds %d events, want the game's %d", len(m.g.events), len(all))
	}
	// Ann is spoken to in her log, never named.
	log := strings.Join(m.g.DescribeIn(nil, m.g.events, 0), "\n")
	if strings.Contains(log, "Ann") || !strings.Contains(log, "you") {
		t.Fatalf("the log does not speak to the player:\n%s", log)
	}
}
