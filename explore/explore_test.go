package explore

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// tables is shared by the tests: small rule sets solve in a second or less.
var tables = solved.NewTables("")

// small returns preset base with the target lowered (a duel solve of a
// second or less) and, with noPenalty, without its farkle penalty.
func small(base string, target int, noPenalty bool) rules.Rules {
	r := rules.MustPreset(base)
	r.Name = base + "-small"
	r.Game.Target = target
	if noPenalty {
		r.Turn.FarklePenalty = rules.Penalty{}
	}
	return r
}

func duel(t testing.TB, r rules.Rules) *solve.Table {
	t.Helper()
	tb, err := tables.Duel(r)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func solo(t testing.TB, r rules.Rules) *solve.Policy {
	t.Helper()
	p, err := tables.Solo(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWinMap(t *testing.T) {
	for _, r := range []rules.Rules{small("classic", 2000, true), small("cardgames", 2000, false)} {
		tb := duel(t, r)
		m, err := NewWinMap(tb, 20)
		if err != nil {
			t.Fatal(err)
		}
		if m.Step != 100 || len(m.Scores) != 20 || m.Scores[19] != 1900 {
			t.Fatalf("%s: step %d, scores %v: want 20 scores 100 apart", r.Name, m.Step, m.Scores)
		}
		fair, fairP := tb.FairCompensation()
		if m.Comp[0][0] != fair || m.Fair != fair || m.FairWin != fairP || m.FirstPlayer != m.Win[0][0] {
			t.Errorf("%s: compensation at 0-0 %d (map says %d), table %d", r.Name, m.Comp[0][0], m.Fair, fair)
		}
		for i, me := range m.Scores {
			for j, them := range m.Scores {
				p, err := tb.WinProbability(me, them, 0, 0)
				if err != nil || p != m.Win[i][j] {
					t.Fatalf("%s: cell %d-%d is %v, table %v (%v)", r.Name, me, them, m.Win[i][j], p, err)
				}
				// The chance with the compensation given is the table's.
				cm, co := me, them+m.Comp[i][j]
				if m.Comp[i][j] < 0 {
					cm, co = me-m.Comp[i][j], them
				}
				if q, err := tb.WinProbability(cm, co, 0, 0); err != nil || q != m.CompWin[i][j] {
					t.Fatalf("%s: cell %d-%d compensated: %v, table %v (%v)", r.Name, me, them, m.CompWin[i][j], q, err)
				}
				// Compensation goes to the player the position favours less.
				if c := m.Comp[i][j]; (c > 0 && p < 0.5) || (c < 0 && p > 0.5) {
					t.Errorf("%s: cell %d-%d: P %.4f but compensation %d", r.Name, me, them, p, c)
				}
			}
		}
		// Leading helps: the chance grows with my score and falls with theirs
		// (no penalty: a higher score is never worse).
		if r.Turn.FarklePenalty.Count == 0 {
			for i := range m.Scores {
				for j := range m.Scores {
					if i > 0 && m.Win[i][j] < m.Win[i-1][j]-1e-12 || j > 0 && m.Win[i][j] > m.Win[i][j-1]+1e-12 {
						t.Fatalf("%s: not monotone at %d-%d", r.Name, m.Scores[i], m.Scores[j])
					}
				}
			}
		}
	}
	if _, err := NewWinMap(duel(t, small("classic", 2000, true)), 0); err == nil {
		t.Error("a map of 0 cells was made")
	}
}

func TestTurnMapAgreesWithAdvisor(t *testing.T) {
	r := small("classic", 2000, false)
	tb := duel(t, r)
	adv, err := advise.New(r, tb, solo(t, r))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range [][2]int{{0, 0}, {1000, 1500}, {1500, 500}, {1800, 1900}} {
		m, err := NewTurnMap(tb, sc[0], sc[1], 1500, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Totals) != 30 || len(m.Dice) != 6 {
			t.Fatalf("%d totals, %d dice", len(m.Totals), len(m.Dice))
		}
		for d, n := range m.Dice {
			for k, total := range m.Totals {
				cell := m.Cells[d][k]
				a, err := adv.Position(advise.Position{Me: sc[0], Them: sc[1], Total: total, Dice: n})
				if err != nil {
					t.Fatal(err)
				}
				values := map[string]float64{}
				for _, c := range a.Choices {
					values[c.Action.String()] = c.Value
				}
				bank, canBank := values["bank"]
				throw, canThrow := values["throw"]
				want := Throw
				switch {
				case canBank && canThrow && bank >= throw:
					want = Bank
				case canBank && !canThrow:
					want = OnlyBank
				case !canBank && canThrow:
					want = OnlyThrow
				}
				if cell.Decision != want {
					t.Fatalf("%v, %d with %d dice: map %q, advisor %v", sc, total, n, cell.Decision, values)
				}
				if want == Bank || want == Throw {
					if math.Abs(cell.Margin-math.Abs(bank-throw)) > 1e-12 {
						t.Fatalf("%v, %d with %d dice: margin %v, advisor %v", sc, total, n, cell.Margin, values)
					}
				}
			}
		}
	}
	if _, err := NewTurnMap(tb, 0, 0, 1000, 30); !errors.Is(err, solve.ErrPosition) {
		t.Errorf("a step off the unit: %v", err)
	}
}

func TestSoloThresholds(t *testing.T) {
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		p := solo(t, r)
		s, err := NewSoloThresholds(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.BankAt) != p.Streaks() || (r.Turn.EntryMinimum > 0) != (s.Entry != nil) {
			t.Fatalf("%s: %d streak rows, entry %v", name, len(s.BankAt), s.Entry)
		}
		for streak, row := range s.BankAt {
			for i, v := range row {
				n := s.Dice[i]
				if v == NeverBank {
					continue
				}
				// The threshold is where banking becomes best: at it bank,
				// one unit below it throw.
				at, err := p.Choice(solve.SoloPosition{Total: v, Dice: n % r.Dice, Streak: streak})
				if err != nil || !at.BankBest {
					t.Errorf("%s: streak %d, %d dice: at the threshold %d banking is not best (%v)", name, streak, n, v, err)
				}
				if v >= 2*p.Unit() {
					below, err := p.Choice(solve.SoloPosition{Total: v - p.Unit(), Dice: n % r.Dice, Streak: streak})
					if err != nil || below.BankBest {
						t.Errorf("%s: streak %d, %d dice: below the threshold %d banking is best (%v)", name, streak, n, v, err)
					}
				}
			}
		}
	}
}

func TestDuelThresholds(t *testing.T) {
	for _, r := range []rules.Rules{small("cardgames", 2000, false), small("classic", 2000, false)} {
		tb, p := duel(t, r), solo(t, r)
		them := axis(250, 2000)
		d, err := NewDuelThresholds(tb, p, 1000, them)
		if err != nil {
			t.Fatal(err)
		}
		for di, n := range d.Dice {
			for k, o := range them {
				v := d.BankAt[di][k]
				if v == NeverBank {
					continue
				}
				at, err := tb.Choice(solve.DuelPosition{Me: 1000, Them: o, Total: v, Dice: n % r.Dice})
				if err != nil || !at.BankBest {
					t.Errorf("%s: %d dice vs %d: at the threshold %d banking is not best (%v)", r.Name, n, o, v, err)
				}
				if v > tb.Unit() {
					below, err := tb.Choice(solve.DuelPosition{Me: 1000, Them: o, Total: v - tb.Unit(), Dice: n % r.Dice})
					if err == nil && below.BankBest && !math.IsNaN(below.Throw) {
						t.Errorf("%s: %d dice vs %d: below the threshold %d banking is best", r.Name, n, o, v)
					}
				}
				if r.Game.Ending == rules.EndImmediate && v > r.Game.Target-1000 {
					t.Errorf("%s: %d dice vs %d: threshold %d beyond the winning bank", r.Name, n, o, v)
				}
				if dev, ok := d.Deviation(di, k); ok && dev != v-d.Solo[di] {
					t.Errorf("deviation %d", dev)
				}
			}
		}
	}
	if _, err := NewDuelThresholds(duel(t, small("classic", 2000, true)), solo(t, rules.MustPreset("classic")), 0, []int{0}); err == nil {
		t.Error("a policy of other rules was taken")
	}
}

func TestInspect(t *testing.T) {
	r := small("classic", 2000, true)
	tb := duel(t, r)
	adv, err := advise.New(r, tb, solo(t, r))
	if err != nil {
		t.Fatal(err)
	}
	bots, err := Bots(r, tables)
	if err != nil {
		t.Fatal(err)
	}
	throw, err := dice.Parse("1 1 5 2 3 4")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []advise.Position{
		{Me: 500, Them: 1200, Total: 300, Dice: 3},
		{Me: 1500, Them: 1200, Total: 450, Dice: 2},
		{Me: 0, Them: 0, Total: 0, Dice: 6, Throw: throw},
		{Me: 1000, Them: 1800, Total: 400, Dice: 6, Throw: throw},
	} {
		in, err := Inspect(adv, bots, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Options) == 0 || !in.Options[0].Best || in.Options[0].Loss != 0 {
			t.Fatalf("%+v: options %+v: want the best first", p, in.Options)
		}
		if !sort.SliceIsSorted(in.Options, func(i, j int) bool { return in.Options[i].Value > in.Options[j].Value }) {
			t.Errorf("%+v: options not best first: %+v", p, in.Options)
		}
		if len(in.Bots) != len(bot.LevelNames()) {
			t.Fatalf("%d bots", len(in.Bots))
		}
		for _, b := range in.Bots {
			found := false
			for _, o := range in.Options {
				found = found || o.Text == b.Choice
			}
			if !found {
				t.Errorf("%+v: %s picks %q, not an option", p, b.Level, b.Choice)
			}
			// The perfect bot takes the best choice (and then does what
			// the advisor says is best after it).
			if b.Level == "perfect" && (b.Choice != in.Options[0].Text || b.Then != in.Options[0].Then) {
				t.Errorf("%+v: perfect picks %q then %q, best is %q then %q", p, b.Choice, b.Then, in.Options[0].Text, in.Options[0].Then)
			}
		}
	}
	farkle, _ := dice.Parse("2 2 3 3 4 6")
	in, err := Inspect(adv, bots, advise.Position{Me: 100, Total: 300, Dice: 6, Throw: farkle})
	if err != nil || !in.Farkle || len(in.Bots) != 0 {
		t.Errorf("a farkle: %+v, %v", in, err)
	}
}

// farkleChance counts, by multinomials and independently of package dice,
// the throws of n dice that score nothing when the only melds are single
// 1s and 5s and three or more of a kind: every die a 2, 3, 4 or 6 and no
// face more than twice.
func farkleChance(n int) float64 {
	fact := func(k int) float64 {
		f := 1.0
		for i := 2; i <= k; i++ {
			f *= float64(i)
		}
		return f
	}
	ways := 0.0
	for a := 0; a <= 2; a++ {
		for b := 0; b <= 2; b++ {
			for c := 0; c <= 2; c++ {
				if d := n - a - b - c; d >= 0 && d <= 2 {
					ways += fact(n) / (fact(a) * fact(b) * fact(c) * fact(d))
				}
			}
		}
	}
	return ways / math.Pow(6, float64(n))
}

func TestCompare(t *testing.T) {
	a := small("classic", 2000, false)
	b := small("cardgames", 2000, false)
	got, err := Compare(context.Background(), []rules.Rules{a, b}, tables, tables, 400, solved.Reason)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != a.Name || got[1].Name != b.Name {
		t.Fatalf("%+v", got)
	}
	for n := 1; n <= 6; n++ {
		if want := farkleChance(n); math.Abs(got[0].PFarkle[n-1]-want) > 1e-15 {
			t.Errorf("classic, %d dice: P(farkle) %v, counted %v", n, got[0].PFarkle[n-1], want)
		}
	}
	// Straights and three pairs make fewer farkles with six dice.
	if got[1].PFarkle[5] >= got[0].PFarkle[5] {
		t.Errorf("six dice: cardgames %v, classic %v", got[1].PFarkle[5], got[0].PFarkle[5])
	}
	for _, s := range got {
		if !s.Duel || s.Games != 400 {
			t.Fatalf("%s: %+v", s.Name, s)
		}
		// A game to 2,000 takes at least 2000/(points per turn) turns on
		// average (banks above it only shorten it a little).
		if lo := 2000 / s.PointsPerTurn; s.MeanTurns < 0.8*lo || s.MeanTurns > 3*lo {
			t.Errorf("%s: %.2f turns a game, %.1f points a turn", s.Name, s.MeanTurns, s.PointsPerTurn)
		}
	}
}

// failing is a Source whose duel tables cannot be had.
type failing struct{ Source }

func (failing) Duel(rules.Rules) (*solve.Table, error) { return nil, solved.ErrBusy }

func TestPublishedWithoutTable(t *testing.T) {
	res := Published(failing{tables}, solved.Reason)
	if len(res) != 3 {
		t.Fatalf("%d results", len(res))
	}
	for _, r := range res[:2] {
		if r.Agrees != "" || !strings.Contains(r.Ours, "busy") {
			t.Errorf("%+v: want no comparison and the reason", r)
		}
	}
	if !strings.Contains(res[2].Ours, "6 dice:") {
		t.Errorf("thresholds: %+v", res[2])
	}
}

// TestPublished solves the rule set of Busche and Neller (seconds) and
// checks this project's values against theirs.
func TestPublished(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a duel table to 10,000")
	}
	res := Published(tables, solved.Reason)
	for _, r := range res[:2] {
		if r.Agrees != "yes" {
			t.Errorf("%s: published %s, ours %s", r.Claim, r.Published, r.Ours)
		}
	}
	tb := duel(t, BuscheNellerRules())
	if c, _ := tb.FairCompensation(); c != PublishedCompensation {
		t.Errorf("fair compensation %d, published %d", c, PublishedCompensation)
	}
}
