package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	_ "github.com/farkle/farkle/internal/testflags" // FARKLE_UPDATE_GOLDEN=1 sets teatest's -update
	"github.com/farkle/farkle/rules"
)

// Golden screens: run with -update (or FARKLE_UPDATE_GOLDEN=1, see
// internal/testflags) to rewrite testdata/*.golden after a
// deliberate change of the screen, and read the diff before committing.
// Every screen is drawn at a fixed size, without colours, from a fixed
// seed.

// screenStep is one step of a golden test: a key to send, and the text the
// screen must show before the next step.
type screenStep struct {
	key, waitFor string
}

// goldenScreen runs m (a *Model or a *DragonModel) in a teatest program
// of w×h, plays the steps, and compares the final screen with the golden
// file testdata/NAME.golden (-update rewrites).
func goldenScreen[M tea.Model](t *testing.T, m M, w, h int, steps ...screenStep) {
	t.Helper()
	tm := teatest.NewTestModel(t, probed{m}, teatest.WithInitialTermSize(w, h))
	for _, st := range steps {
		if st.key != "" {
			for _, msg := range keyMsgs(st.key) {
				tm.Send(msg)
			}
		}
		if st.waitFor != "" {
			waitScreen(t, tm, st.waitFor)
		}
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(probed).Model.(M)
	teatest.RequireEqualOutput(t, []byte(drawn(final)+"\n"))
}

// probed is a model under test in a teatest program: a probeMsg gets the
// screen it draws at that moment, read in the program's own loop. (The
// program's output holds only what changed on the screen, so the text
// awaited need not appear in it whole.)
type probed struct{ tea.Model }

// probeMsg asks a probed model for its screen.
type probeMsg chan string

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ch, ok := msg.(probeMsg); ok {
		ch <- drawn(p.Model)
		return p, nil
	}
	if f, ok := msg.(lookMsg); ok {
		f()
		return p, nil
	}
	_, cmd := p.Model.Update(msg) // the models update in place
	return p, cmd
}

// waitScreen waits, up to five seconds, until the screen of the program
// of tm shows want.
func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		ch := make(probeMsg, 1)
		tm.Send(ch)
		select {
		case last = <-ch:
			if strings.Contains(last, want) {
				return
			}
		case <-deadline:
			t.Fatalf("the screen does not show %q; it shows:\n%s", want, last)
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("the screen does not show %q; it shows:\n%s", want, last)
		}
	}
}

// plainModel is a model without a window size yet (teatest sends it).
func plainModel(t *testing.T, o Options) *Model {
	t.Helper()
	o.Now, o.Advisor = fixedNow, PointsAdvisor{}
	m := New(o)
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	return m
}

func TestGoldenSetup(t *testing.T) {
	m := plainModel(t, Options{Rules: rules.MustPreset("classic")})
	goldenScreen(t, m, 80, 24,
		screenStep{"down", ""}, screenStep{"right", "Players   ◀ 3 ▶"},
		screenStep{"down", ""}, screenStep{"down", ""}, screenStep{"backspace", ""}, screenStep{"backspace", ""},
		screenStep{"backspace", ""}, screenStep{"backspace", ""}, screenStep{"backspace", ""}, screenStep{"backspace", ""},
		screenStep{"ana", "Seat 2    ana_"}, screenStep{"up", ""}, screenStep{"up", "▶ Players"})
}

func TestGoldenTable(t *testing.T) {
	seed := seedWhere(t, "golden-table", loneTwo)
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "you"}, {Name: "steady", Bot: "steady"}}, Seed: seed})
	faces := dice.Throw(dice.NewSource(seed), 6).Faces()
	one := faceKeys(t, faces, dice.Of(1))[0]
	two := faceKeys(t, faces, dice.Of(2))[0]
	goldenScreen(t, m, 100, 35,
		screenStep{"", "press r to throw"},
		screenStep{"r", "choose scoring dice"},
		screenStep{one, "+100"},
		screenStep{two, "scores only as part of"})
}

func TestGoldenIllegalKeep(t *testing.T) {
	seed := seedWhere(t, "golden-table", loneTwo)
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "ana"}, {Name: "bob"}}, Seed: seed})
	faces := dice.Throw(dice.NewSource(seed), 6).Faces()
	two := faceKeys(t, faces, dice.Of(2))[0]
	goldenScreen(t, m, 80, 30,
		screenStep{"", "press r to throw"},
		screenStep{"r", "choose scoring dice"},
		screenStep{two, "scores only as part of"},
		screenStep{"b", "keep 2: 2 scores only"})
}

func TestGoldenHint(t *testing.T) {
	seed := seedWhere(t, "golden-table", loneTwo)
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "you"}, {Name: "steady", Bot: "steady"}}, Seed: seed})
	goldenScreen(t, m, 100, 35,
		screenStep{"", "press r to throw"},
		screenStep{"r", "choose scoring dice"},
		screenStep{"h", "hint: points now (h hides)"})
}

func TestGoldenHelp(t *testing.T) {
	m := plainModel(t, Options{Rules: rules.MustPreset("farkle-dice"), Seats: []Seat{{Name: "you"}, {Name: "steady", Bot: "steady"}}, Seed: dice.SeedFrom("help")})
	goldenScreen(t, m, 80, 50, screenStep{"?", "Scoring"})
}

func TestGoldenNarrow(t *testing.T) {
	seed := seedWhere(t, "golden-table", loneTwo)
	m := plainModel(t, Options{Rules: seatOrder("farkle-dice"), Seats: []Seat{{Name: "you"}, {Name: "ana"}, {Name: "steady", Bot: "steady"}}, Seed: seed})
	goldenScreen(t, m, 60, 24,
		screenStep{"", "press r to throw"},
		screenStep{"r", "choose scoring dice"})
}

func TestGoldenTooNarrow(t *testing.T) {
	m := plainModel(t, Options{Rules: seatOrder("classic"), Seats: []Seat{{Name: "you"}}, Seed: dice.SeedFrom("narrow")})
	goldenScreen(t, m, 40, 10, screenStep{"", "at least 60"})
}

func TestGoldenGameOver(t *testing.T) {
	r := seatOrder("classic")
	g, err := NewGame(r, []Seat{{Name: "ana"}, {Name: "steady", Bot: "steady"}}, dice.SeedFrom("over"), "", fixedNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Both seats play a fixed simple strategy (not the bot package's, so
	// that the screen does not change when the bots do): keep the keep
	// scoring most, bank at 300 or more.
	for !g.Over() {
		if _, err := g.Do(simpleAction(g.State())); err != nil {
			t.Fatal(err)
		}
	}
	m := plainModel(t, Options{Game: g})
	goldenScreen(t, m, 80, 30, screenStep{"", "Game over"})
}

var _ tea.Model = (*Model)(nil)

// TestGoldenFarkle: the dead dice of a farkle on the table, under FARKLE!,
// while the next player has yet to throw.
func TestGoldenFarkle(t *testing.T) {
	r := seatOrder("classic")
	tab := dice.NewTable(r)
	seed := seedWhere(t, "golden-farkle", tab.Farkle)
	m := plainModel(t, Options{Rules: r, Seats: []Seat{{Name: "ana"}, {Name: "bob"}}, Seed: seed})
	goldenScreen(t, m, 80, 24,
		screenStep{"", "press r to throw"},
		screenStep{"r", "FARKLE! ana threw"})
}

// mostPoints returns the keep of a throw that scores most (the first of
// them).
func mostPoints(s engine.State) dice.Keep {
	best := dice.Keep{}
	for _, k := range s.Table().Keeps(s.Throw) {
		if k.Points > best.Points {
			best = k
		}
	}
	return best
}

// simpleAction is a fixed simple strategy for tests whose screens must not
// change when the bots do: keep the keep scoring most, bank at 300 or more
// (or when no throw is left).
func simpleAction(s engine.State) engine.Action {
	switch s.Step {
	case engine.StepKeep:
		return engine.KeepBy(s.Current, mostPoints(s).Hand)
	case engine.StepChoose:
		if ok, _ := s.CanBank(); ok && (s.Total >= 300 || !s.CanThrow()) {
			return engine.BankBy(s.Current)
		}
	}
	return s.Legal()[0]
}
