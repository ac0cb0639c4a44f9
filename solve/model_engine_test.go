package solve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/rules/rulestest"
)

// TestModelAgreesWithTheEngine checks the solvers' model of a rule set
// (newModel: the scoring unit, P(farkle), the six-dice bonus, and for every
// number of dice thrown the distinct option sets of keeps with their
// probabilities) against what engine.Apply does on random valid rule sets
// (package rulestest), throw by throw: every throw of n dice is thrown by
// the engine from a scripted source and every keep it allows is applied.
// The turn rules the model holds in units (hot dice, the bank and entry
// minimums, the farkle penalty, the target) are checked against the
// engine's CanBank, CanThrow and Apply at the totals around them.
func TestModelAgreesWithTheEngine(t *testing.T) {
	sets := 200
	if testing.Short() {
		sets = 40
	}
	rng := rand.New(rand.NewPCG(3, 14))
	for i := range sets {
		r := rulestest.Random(rng, 2000)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("rules: %+v", r)
				}
			}()
			checkModel(t, r)
		})
	}
}

// playPosition returns a new game under r at seat 0's turn, with score
// points banked and streak farkles in a row. The tests then set the turn's
// fields (step, total, dice left) to the position the model values: the
// engine takes any State value, and these are the positions a solver
// covers, reachable or not.
func playPosition(t *testing.T, r rules.Rules, score, streak int) engine.State {
	t.Helper()
	r.Game.FirstPlayer = rules.SeatOrder // no roll-off: seat 0 is to throw
	names := make([]string, r.Game.MinPlayers)
	for i := range names {
		names[i] = fmt.Sprint("p", i)
	}
	s, err := engine.New(r, names)
	if err != nil {
		t.Fatal(err)
	}
	s.Players[0].Score, s.Players[0].Streak = score, streak
	return s
}

// throwHand has the engine throw h (n dice) from the position s.
func throwHand(t *testing.T, s engine.State, h dice.Hand) (engine.State, []engine.Event) {
	t.Helper()
	s.Step, s.Left = engine.StepThrow, h.N()
	next, ev, err := engine.Apply(s, engine.ThrowBy(0), dice.Faces(h.Faces()...))
	if err != nil {
		t.Fatalf("throw %s: %v", h, err)
	}
	return next, ev
}

func hasEvent(ev []engine.Event, k engine.EventKind) (engine.Event, bool) {
	for _, e := range ev {
		if e.Kind == k {
			return e, true
		}
	}
	return engine.Event{}, false
}

func checkModel(t *testing.T, r rules.Rules) {
	m := newModel(r)
	u := m.unit
	start := playPosition(t, r, 0, 0)
	const tol = 1e-12
	for n := 1; n <= r.Dice; n++ {
		var pFarkle, pNothing float64
		groups := map[string]float64{} // option set -> probability, from the engine
		for _, h := range dice.Throws(n) {
			s, ev := throwHand(t, start, h)
			if _, ok := hasEvent(ev, engine.EvFarkle); ok {
				pFarkle += h.Prob()
				continue
			}
			if e, ok := hasEvent(ev, engine.EvSixDiceNothing); ok {
				pNothing += h.Prob()
				if e.Points != int(m.sdn)*u || s.Step != engine.StepThrow || s.ToThrow() != 6 {
					t.Fatalf("six dice nothing: %d points, then %s with %d dice; the model has %d units of %d, then six dice", e.Points, s.Step, s.ToThrow(), m.sdn, u)
				}
				continue
			}
			var opts []option
			for _, a := range s.Legal() {
				after, ev, err := engine.Apply(s, a, nil)
				if err != nil {
					t.Fatalf("%s of %s: %v", a, h, err)
				}
				keep, _ := hasEvent(ev, engine.EvKeep)
				if keep.Points%u != 0 {
					t.Fatalf("keep %s of %s scores %d, not a multiple of the unit %d", a.Dice, h, keep.Points, u)
				}
				left := n - a.Dice.N()
				if _, lost := hasEvent(ev, engine.EvTurnLost); !lost && after.Left != left {
					t.Fatalf("keep %s of %s leaves %d dice, want %d", a.Dice, h, after.Left, left)
				}
				if o := (option{pts: int32(keep.Points / u), left: int32(left)}); !slices.Contains(opts, o) {
					opts = append(opts, o)
				}
			}
			sortOptions(opts)
			groups[optKey(opts)] += h.Prob()
		}
		if math.Abs(pFarkle-m.farkle[n]) > tol {
			t.Errorf("%d dice: the engine farkles with P %v, the model %v", n, pFarkle, m.farkle[n])
		}
		if n == 6 && math.Abs(pNothing-m.nothing) > tol {
			t.Errorf("six dice: the engine pays the six-dice bonus with P %v, the model %v", pNothing, m.nothing)
		}
		model := map[string]float64{}
		for _, g := range m.groups[n] {
			model[optKey(g.opts)] += g.prob
		}
		if len(model) != len(groups) {
			t.Errorf("%d dice: %d distinct option sets in the engine, %d in the model", n, len(groups), len(model))
		}
		for k, p := range groups {
			if math.Abs(model[k]-p) > tol {
				t.Errorf("%d dice: option set %v: P %v in the engine, %v in the model", n, []byte(k), p, model[k])
			}
		}
	}
	checkTurnRules(t, r, m)
}

// checkTurnRules checks the model's turn and game rules in units against
// the engine at the totals and scores around them.
func checkTurnRules(t *testing.T, r rules.Rules, m *model) {
	u := m.unit
	limit := int(max(m.bankMin, m.entryMin, m.penPts)) + 3
	for _, score := range []int{0, u} {
		for tot := 1; tot <= limit; tot++ {
			for left := 0; left < r.Dice; left++ {
				s := playPosition(t, r, score, 0)
				s.Step, s.Total, s.Left = engine.StepChoose, tot*u, left
				bank, _ := s.CanBank()
				want := int32(tot) >= m.bankMin && (score > 0 || int32(tot) >= m.entryMin)
				if bank != want {
					t.Fatalf("score %d, total %d: the engine may bank: %v; the model (bank minimum %d, entry %d units of %d): %v", score, tot*u, bank, m.bankMin, m.entryMin, u, want)
				}
				if s.CanThrow() != (left > 0 || m.hot) {
					t.Fatalf("%d dice left: the engine may throw: %v; the model's hot dice: %v", left, s.CanThrow(), m.hot)
				}
				if left == 0 && m.hot && s.ToThrow() != m.dice {
					t.Fatalf("hot dice: the engine throws %d dice, the model %d", s.ToThrow(), m.dice)
				}
			}
		}
	}
	// The farkle penalty: the count-th farkle in a row takes the penalty,
	// never below 0.
	if h, ok := aFarkle(r); ok && m.penCount > 0 {
		for _, score := range []int{0, int(m.penPts) / 2, int(m.penPts), int(m.penPts) + 1} {
			s := playPosition(t, r, score*u, m.penCount-1)
			after, _ := throwHand(t, s, h)
			want := (score - min(int(m.penPts), score)) * u
			if after.Players[0].Score != want || after.Players[0].Streak != 0 {
				t.Fatalf("penalty after %d farkles from %d: score %d streak %d, the model %d and 0", m.penCount, score*u, after.Players[0].Score, after.Players[0].Streak, want)
			}
		}
	}
	// The target: banking target units reaches it, one unit less does not.
	for _, tot := range []int32{m.target - 1, m.target} {
		s := playPosition(t, r, 0, 0)
		s.Step, s.Total, s.Left = engine.StepChoose, int(tot)*u, 1
		if ok, _ := s.CanBank(); !ok || tot <= 0 {
			continue
		}
		_, ev, err := engine.Apply(s, engine.BankBy(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, final := hasEvent(ev, engine.EvFinalRound)
		_, over := hasEvent(ev, engine.EvGameOver)
		_, capped := hasEvent(ev, engine.EvTurnLimit)
		if reached := final || over && !capped; reached != (tot >= m.target) {
			t.Fatalf("banking %d from 0: the engine reaches the target %d: %v; the model's target is %d units of %d", int(tot)*u, r.Game.Target, reached, m.target, u)
		}
	}
}

// aFarkle returns a throw that is a farkle under r, if there is one.
func aFarkle(r rules.Rules) (dice.Hand, bool) {
	tab := dice.NewTable(r)
	for n := 1; n <= r.Dice; n++ {
		for _, h := range dice.Throws(n) {
			if tab.Farkle(h) && !(n == 6 && r.Scoring.SixDiceNothing > 0) {
				return h, true
			}
		}
	}
	return 0, false
}
