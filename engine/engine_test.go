package engine_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// play is a test helper that applies actions with scripted dice and fails
// the test on the first refusal.
type play struct {
	t   *testing.T
	s   engine.State
	src *dice.Scripted
	ev  []engine.Event
}

func newPlay(t *testing.T, r rules.Rules, names []string, faces ...int) *play {
	t.Helper()
	s, err := engine.New(r, names)
	if err != nil {
		t.Fatal(err)
	}
	return &play{t: t, s: s, src: dice.Faces(faces...)}
}

func (p *play) do(a engine.Action) []engine.Event {
	p.t.Helper()
	n, ev, err := engine.Apply(p.s, a, p.src)
	if err != nil {
		p.t.Fatalf("%v by %d: %v", a, a.Player, err)
	}
	p.s, p.ev = n, ev
	return ev
}

// refuse checks that a is refused with an error matching target and that
// the state is unchanged.
func (p *play) refuse(a engine.Action, target error, msg string) {
	p.t.Helper()
	before := p.s
	n, ev, err := engine.Apply(p.s, a, p.src)
	if err == nil {
		p.t.Fatalf("%v by %d was accepted (events %v)", a, a.Player, ev)
	}
	if !errors.Is(err, target) {
		p.t.Fatalf("%v: error %q does not match %v", a, err, target)
	}
	if msg != "" && !strings.Contains(err.Error(), msg) {
		p.t.Fatalf("%v: error %q does not say %q", a, err, msg)
	}
	if !reflect.DeepEqual(n, before) || !reflect.DeepEqual(p.s, before) {
		p.t.Fatalf("%v: a refused action changed the state", a)
	}
}

func (p *play) throw(faces ...int) {
	p.t.Helper()
	p.src = dice.Faces(faces...)
	p.do(engine.ThrowBy(p.s.Current))
	if got, want := p.hasEvent(engine.EvThrow).Dice, dice.Of(faces...); got != want {
		p.t.Fatalf("threw %v, want %v", got, want)
	}
}

func (p *play) keep(faces ...int) {
	p.t.Helper()
	p.do(engine.KeepBy(p.s.Current, dice.Of(faces...)))
}

func (p *play) bank() {
	p.t.Helper()
	p.do(engine.BankBy(p.s.Current))
}

func (p *play) hasEvent(k engine.EventKind) engine.Event {
	p.t.Helper()
	for _, e := range p.ev {
		if e.Kind == k {
			return e
		}
	}
	p.t.Fatalf("no %v event in %v", k, p.ev)
	return engine.Event{}
}

func seatOrder(name string) rules.Rules {
	r := rules.MustPreset(name)
	r.Game.FirstPlayer = rules.SeatOrder
	return r
}

// randomGame plays random legal actions until the game ends, checking the
// invariants after every action, and returns the final state and the
// number of actions.
func randomGame(t testing.TB, r rules.Rules, names []string, rng *rand.Rand, src dice.Source) (engine.State, int) {
	s, err := engine.New(r, names)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; ; n++ {
		legal := s.Legal()
		if len(legal) == 0 {
			if !s.Over() {
				t.Fatalf("no legal action but the game is not over: %+v", s)
			}
			return s, n - 1
		}
		a := legal[rng.IntN(len(legal))]
		// Lean towards banking so that games end.
		for _, l := range legal {
			if l.Kind == engine.Bank && rng.IntN(3) > 0 {
				a = l
			}
		}
		s, _, err = engine.Apply(s, a, src)
		if err != nil {
			t.Fatalf("legal action %v refused: %v", a, err)
		}
		if n > 200000 {
			t.Fatal("game did not end")
		}
	}
}

func TestRandomGamesEnd(t *testing.T) {
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			r := rules.MustPreset(name)
			rng := rand.New(rand.NewPCG(1, 2))
			for g := range 30 {
				names := []string{"a", "b", "c"}[:max(r.Game.MinPlayers, 1+g%3)]
				if len(names) > r.Game.MaxPlayers {
					names = names[:r.Game.MaxPlayers]
				}
				s, _ := randomGame(t, r, names, rng, dice.NewSource(dice.SeedFrom(name+string(rune(g)))))
				if len(s.Winners) == 0 {
					t.Fatal("game over without a winner")
				}
				for _, p := range s.Players {
					if p.Score != p.Banked-p.Penalty {
						t.Fatalf("%s: score %d != banked %d - penalty %d", p.Name, p.Score, p.Banked, p.Penalty)
					}
				}
			}
		})
	}
}

func TestStateJSONNamesPhaseAndStep(t *testing.T) {
	p := newPlay(t, seatOrder("classic"), []string{"ana"})
	b, err := json.Marshal(p.s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"phase":"play"`) || !strings.Contains(string(b), `"step":"throw"`) {
		t.Fatalf("state JSON: %s", b)
	}
	over := p.s
	over.Step = 0 // as between turns and after the game
	b, _ = json.Marshal(over)
	if !strings.Contains(string(b), `"step":""`) {
		t.Fatalf("the zero step must be written as an empty name: %s", b)
	}
}
