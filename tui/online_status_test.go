package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// TestTableEndAndRefusalInLanguage: how a table ended and why an action
// was refused come from the server as codes; a Norwegian terminal says
// them in Norwegian (none of the server's English words), an English one
// with the server's own words; a control character from the network
// never reaches the terminal.
func TestTableEndAndRefusalInLanguage(t *testing.T) {
	seed := dragonSeed(t, "dragon-hold", "you,bot:smart", youStart)
	server := newDragonGame(t, "you,bot:smart", seed, "")
	first := RemoteUpdate{Game: server.play.Game(), Reset: true, Seats: server.Seats(), You: 0, Table: "t1"}
	for _, tc := range []struct {
		lang      string
		want      []string
		forbidden []string
	}{
		{"en", []string{"the table expired: nobody joined", "version 3 is not the current one"}, []string{"\x1b"}},
		{"nb", []string{"bordet gikk ut: ingen satte seg", "spillet gikk videre først"}, []string{"expired", "nobody", "version", "current"}},
	} {
		m, err := DragonOnline(Options{Lang: lang.Get(tc.lang)}, &chanRemote{}, first)
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		end := first
		end.Game, end.Reset, end.Ended, end.EndReason = nil, false, "expired", "nobody joined within 10m0s\x1b[2J"
		m.Update(remoteMsg{u: end})
		ref := end
		ref.Refused, ref.RefusedCode = "version 3 is not the current one", "stale"
		m.Update(remoteMsg{u: ref})
		screen := drawn(m)
		for _, w := range tc.want {
			if !strings.Contains(screen, w) {
				t.Errorf("%s: the screen does not say %q:\n%s", tc.lang, w, screen)
			}
		}
		for _, w := range tc.forbidden {
			if strings.Contains(screen, w) {
				t.Errorf("%s: the screen says %q:\n%s", tc.lang, w, screen)
			}
		}
	}
}

// TestDragonJoinedLogShown: a Dragon Farkle game joined mid-way shows the
// log so far the server wrote (its control characters made harmless),
// before the lines of what happens next; a reconnect's welcome, to a
// game whose log is here already, adds nothing.
func TestDragonJoinedLogShown(t *testing.T) {
	seed := dragonSeed(t, "dragon-hold", "you,bot:smart", youStart)
	server := newDragonGame(t, "you,bot:smart", seed, "")
	first := RemoteUpdate{Game: server.play.Game(), Reset: true, Seats: server.Seats(), You: 0, Table: "t1",
		Earlier: []string{"round 1: Ann's turn", "Ann kastet 1 2 3 4 5 6 og en Blank\x1b[31m", "Ann stopper"}}
	m, err := DragonOnline(Options{Lang: lang.Get("nb")}, &chanRemote{}, first)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	_, log, _ := strings.Cut(drawn(m), "─ log") // "─ logg" in Norwegian
	at := -1
	for _, w := range []string{"round 1: Ann's turn", "Ann kastet 1 2 3 4 5 6 og en Blank [31m", "Ann stopper"} {
		i := strings.Index(log, w)
		if i < 0 || i < at {
			t.Fatalf("the log does not show %q after the line before:\n%s", w, drawn(m))
		}
		at = i
	}
	if strings.Contains(drawn(m), "\x1b") {
		t.Fatal("an escape from the server reached the screen")
	}
	again := first
	again.Earlier = []string{"a line a reconnect brings"}
	ev, err := server.Do(dragon.Recruit())
	if err != nil {
		t.Fatal(err)
	}
	next := RemoteUpdate{Game: server.play.Game(), Seats: server.Seats(), You: 0, Table: "t1"}
	for _, e := range ev {
		next.Events = append(next.Events, e)
	}
	m.Update(remoteMsg{u: next})
	again.Game = server.play.Game()
	m.Update(remoteMsg{u: again})
	if s := drawn(m); strings.Contains(s, "a line a reconnect brings") || !strings.Contains(s, "Ann stopper") {
		t.Fatalf("after a reconnect:\n%s", s)
	}
}
