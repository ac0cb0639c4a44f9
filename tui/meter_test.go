package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// TestSolveMeterEstimates: the part done counts the sweeps expected (six
// with a farkle penalty, one without) and the time left is the time so
// far scaled by the part left, both worked out here by hand.
func TestSolveMeterEstimates(t *testing.T) {
	at := time.Unix(0, 0)
	clock := func() time.Time { return at }
	m := NewSolveMeter(clock)
	if _, ok := m.Status(); ok {
		t.Fatal("a status before any report")
	}
	m.Expect(rules.MustPreset("classic")) // penalty: about 6 sweeps
	m.Progress(1, 0, 100)
	at = at.Add(10 * time.Second)
	m.Progress(1, 50, 100)
	st, ok := m.Status()
	// Half of the first of six sweeps: 1/12 done in 10 s, 11/12 left: 110 s.
	if !ok || st.sweep != 1 || st.sweeps != 6 || st.part < 1.0/12-1e-9 || st.part > 1.0/12+1e-9 || st.left != 110*time.Second {
		t.Fatalf("status %+v", st)
	}
	if s := st.String(); s != "8% · sweep 1 of about 6 · about 1 min 50 s left" {
		t.Fatalf("%q", s)
	}
	if s := st.short(); s != "8%, about 1 min 50 s left" {
		t.Fatalf("%q", s)
	}
	at = at.Add(50 * time.Second)
	m.Progress(6, 100, 100) // six sweeps done and not settled: one more at least
	if st, _ := m.Status(); st.sweeps != 7 || st.part != 6.0/7 {
		t.Fatalf("after six sweeps: %+v", st)
	}

	m.Expect(rules.MustPreset("pocket-farkel")) // no penalty: one sweep
	m.Progress(1, 0, 100)
	at = at.Add(30 * time.Second)
	m.Progress(1, 75, 100)
	if st, _ := m.Status(); st.sweeps != 1 || st.part != 0.75 || st.left != 10*time.Second || st.String() != "75% · sweep 1 · about 10 s left" {
		t.Fatalf("one sweep: %+v %q", st, st.String())
	}
}

// TestQuitWhilePreparingFinishesFirst: quitting while a bot is being
// prepared saves the game and waits for the preparation (so that its work
// is cached), showing its progress; then the program ends. A second
// ctrl+c abandons it at once.
func TestQuitWhilePreparingFinishesFirst(t *testing.T) {
	for _, abandon := range []bool{false, true} {
		meter := NewSolveMeter(nil)
		m := New(Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, Seed: dice.SeedFrom("prep"), GamesDir: t.TempDir(), Now: fixedNow, Meter: meter})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.preparing = []string{"steady"} // as a perfect bot's solve would
		meter.Expect(m.game.Rules())
		meter.Progress(2, 40, 100)
		// (1 + 40/100) of 6 sweeps: 23%
		if !strings.Contains(drawn(m), "steady gets ready") || !strings.Contains(drawn(m), "23%") {
			t.Fatalf("no progress on the table:\n%s", drawn(m))
		}
		press(m, "q")
		if !strings.Contains(drawn(m), "the solve under way finishes first") {
			t.Fatalf("the quit question does not say the preparation finishes:\n%s", drawn(m))
		}
		_, cmd := m.Update(keyMsg("y"))
		if m.quitting || !m.finishing || isQuit(cmd) {
			t.Fatalf("y quit at once (quitting %v, finishing %v)", m.quitting, m.finishing)
		}
		if !strings.Contains(drawn(m), "Finishing the preparation of steady") || !strings.Contains(drawn(m), "sweep 2 of about 6") {
			t.Fatalf("no finishing screen:\n%s", drawn(m))
		}
		if _, err := ResumeGame(m.game.Path(), fixedNow, nil); err != nil {
			t.Fatalf("the game was not saved before the wait: %v", err)
		}
		if abandon {
			_, cmd = m.Update(keyMsg("ctrl+c"))
		} else {
			_, cmd = m.Update(preparedMsg{})
		}
		if !m.quitting || !isQuit(cmd) {
			t.Fatalf("abandon %v: the program did not end", abandon)
		}
	}
}

// isQuit reports whether cmd is tea.Quit.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}
