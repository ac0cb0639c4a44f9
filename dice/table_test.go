package dice_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// oddRules are custom rule sets that exercise every scoring option,
// including zeros inside kind modes and the options no preset uses.
func oddRules(t testing.TB) map[string]rules.Rules {
	t.Helper()
	out := map[string]rules.Rules{}

	r := rules.MustPreset("classic")
	r.Scoring.KindMode = rules.KindDouble
	r.Scoring.Triple = [6]int{0, 200, 0, 400, 500, 600} // three 1s and 3s are not melds
	r.Scoring.ThreePairs = 500
	r.Scoring.ThreePairsQuad = false
	out["double-with-zeros"] = r

	r = rules.MustPreset("classic")
	r.Scoring.KindMode = rules.KindMultiply
	r.Scoring.SmallStraightLow, r.Scoring.SmallStraightHigh = 500, 750
	r.Scoring.Straight = 1500
	r.Scoring.FourKindPair = 1500
	r.Scoring.ThreePairs = 750
	r.Scoring.SixDiceNothing = 500
	out["multiply-small-straights"] = r

	r = rules.MustPreset("pocket-farkel")
	r.Scoring.FourOfAKind, r.Scoring.FiveOfAKind, r.Scoring.SixOfAKind = 0, 2000, 0
	r.Scoring.ThreePairs = 750
	r.Scoring.FourKindPair = 900
	out["fixed-with-zeros"] = r

	r = rules.MustPreset("classic")
	r.Scoring.TwoTriplets = 2500
	r.Scoring.ThreePairs = 1500
	r.Scoring.ThreePairsQuad = false
	r.Scoring.Single = map[string]int{"1": 100, "2": 20} // no single 5, a single 2
	out["none-two-triplets-no-quad"] = r

	r = rules.MustPreset("farkle-dice")
	r.Dice = 5
	r.Scoring.Straight, r.Scoring.ThreePairs = 0, 0
	r.Scoring.SmallStraightLow, r.Scoring.SmallStraightHigh = 750, 750
	out["five-dice"] = r

	r = rules.MustPreset("classic")
	r.Scoring.Single = map[string]int{}
	r.Scoring.Triple = [6]int{0, 0, 0, 0, 0, 300}
	r.Scoring.Straight = 1000
	out["sixes-and-straights"] = r

	for name, r := range out {
		if err := r.Validate(); err != nil {
			t.Fatalf("odd rules %s: %v", name, err)
		}
	}
	return out
}

// allRuleSets returns the presets and the odd rule sets.
func allRuleSets(t testing.TB) map[string]rules.Rules {
	out := oddRules(t)
	for _, name := range rules.Presets() {
		out[name] = rules.MustPreset(name)
	}
	return out
}

// TestTableAgreesWithReference checks, for every rule set, every throw and
// every sub-multiset of it, that the table's points equal the reference
// scorer's, and that the keeps are exactly the scoring sub-multisets.
func TestTableAgreesWithReference(t *testing.T) {
	for name, r := range allRuleSets(t) {
		t.Run(name, func(t *testing.T) {
			checkAgainstReference(t, r)
		})
	}
}

func checkAgainstReference(t *testing.T, r rules.Rules) {
	t.Helper()
	tab := dice.NewTable(r)
	ref := newRefScorer(r)
	throws := 0
	for n := 1; n <= 6; n++ {
		for _, c := range allCounts(n) {
			throws++
			throw := c.hand()
			var want []dice.Keep
			bestWant := 0
			for _, sub := range subCounts(c) {
				h := sub.hand()
				refPts := ref.points(sub)
				pts, ok := tab.Points(h)
				if sub.n() == 0 {
					continue
				}
				if ok != (refPts > 0) || (ok && pts != refPts) {
					t.Fatalf("Points(%v) = %d, %v; reference says %d", h, pts, ok, refPts)
				}
				if refPts > 0 {
					want = append(want, dice.Keep{Hand: h, Points: int32(refPts), N: uint8(sub.n())})
					bestWant = max(bestWant, refPts)
				}
				if err := tab.CheckKeep(throw, h); (err == nil) != (refPts > 0) {
					t.Fatalf("CheckKeep(%v, %v) = %v; reference points %d", throw, h, err, refPts)
				}
			}
			slices.SortFunc(want, func(a, b dice.Keep) int { return compareFaces(a.Hand, b.Hand) })
			got := tab.Keeps(throw)
			if !slices.Equal(got, want) {
				t.Fatalf("Keeps(%v) = %v, want %v", throw, got, want)
			}
			if tab.Farkle(throw) != (len(want) == 0) {
				t.Fatalf("Farkle(%v) = %v with %d keeps", throw, tab.Farkle(throw), len(want))
			}
			if tab.Best(throw) != bestWant {
				t.Fatalf("Best(%v) = %d, want %d", throw, tab.Best(throw), bestWant)
			}
		}
	}
	if throws != 923 {
		t.Fatalf("checked %d throws, want 923", throws)
	}
}

// compareFaces orders by dice count, then the ascending face lists, using
// only Faces.
func compareFaces(a, b dice.Hand) int {
	fa, fb := a.Faces(), b.Faces()
	if d := len(fa) - len(fb); d != 0 {
		return d
	}
	return slices.Compare(fa, fb)
}

// TestKeepsProperties checks the keep lists of every preset over all 923
// throws against the contract alone (no reference scorer).
func TestKeepsProperties(t *testing.T) {
	for name, r := range allRuleSets(t) {
		t.Run(name, func(t *testing.T) {
			tab := dice.NewTable(r)
			all := dice.AllThrows()
			if len(all) != 923 {
				t.Fatalf("AllThrows has %d throws, want 923", len(all))
			}
			farkles := 0
			for _, throw := range all {
				keeps := tab.Keeps(throw)
				if len(keeps) == 0 {
					farkles++
				}
				if tab.Farkle(throw) != (len(keeps) == 0) {
					t.Fatalf("%v: Farkle = %v with %d keeps", throw, tab.Farkle(throw), len(keeps))
				}
				for i, k := range keeps {
					if k.Hand == 0 || !isSubMultiset(k.Hand, throw) {
						t.Fatalf("%v: keep %v is not a non-empty sub-multiset", throw, k.Hand)
					}
					if k.Points <= 0 {
						t.Fatalf("%v: keep %v has %d points", throw, k.Hand, k.Points)
					}
					if int(k.N) != len(k.Hand.Faces()) {
						t.Fatalf("%v: keep %v has N = %d", throw, k.Hand, k.N)
					}
					if p, ok := tab.Points(k.Hand); !ok || p != int(k.Points) {
						t.Fatalf("%v: keep %v has %d points but Points says %d, %v", throw, k.Hand, k.Points, p, ok)
					}
					if i > 0 && compareFaces(keeps[i-1].Hand, k.Hand) >= 0 {
						t.Fatalf("%v: keeps not sorted or duplicated at %d: %v then %v", throw, i, keeps[i-1].Hand, k.Hand)
					}
					if !meldsCover(tab.Split(k.Hand), k.Hand, int(k.Points)) {
						t.Fatalf("%v: Split(%v) = %v does not add up to the keep and its points", throw, k.Hand, tab.Split(k.Hand))
					}
				}
			}
			if farkles == 0 || farkles == 923 {
				t.Fatalf("%d farkles of 923 throws: implausible", farkles)
			}
		})
	}
}

// isSubMultiset compares face counts without Contains.
func isSubMultiset(k, h dice.Hand) bool {
	for f := 1; f <= 6; f++ {
		if k.Count(f) > h.Count(f) {
			return false
		}
	}
	return true
}

func meldsCover(melds []dice.Meld, h dice.Hand, pts int) bool {
	var sum dice.Hand
	total := 0
	for _, m := range melds {
		sum = sum.Plus(m.Hand)
		total += m.Points
	}
	return len(melds) > 0 && sum == h && total == pts
}

// TestRandomRuleSets compares the table with the reference scorer for
// random valid scoring tables.
func TestRandomRuleSets(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(vals ...int) int { return vals[rng.IntN(len(vals))] }
	for i := range n {
		r := rules.MustPreset("classic")
		s := &r.Scoring
		s.Single = map[string]int{}
		for f := 1; f <= 6; f++ {
			if v := pick(0, 0, 0, 50, 100); v > 0 {
				s.Single[string(rune('0'+f))] = v
			}
		}
		for f := range s.Triple {
			s.Triple[f] = pick(0, 100, 200, 300, 1000)
		}
		s.KindMode = []string{rules.KindNone, rules.KindFixed, rules.KindMultiply, rules.KindDouble}[rng.IntN(4)]
		s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = pick(0, 1000), pick(0, 2000), pick(0, 3000)
		s.Straight = pick(0, 1000, 2500)
		s.SmallStraightLow, s.SmallStraightHigh = pick(0, 500), pick(0, 750)
		s.ThreePairs = pick(0, 500, 1500)
		s.ThreePairsQuad = rng.IntN(2) == 0
		s.FourKindPair = pick(0, 1500)
		s.TwoTriplets = pick(0, 2500)
		if r.Validate() != nil {
			continue // e.g. nothing scores at all
		}
		t.Run(fmt.Sprintf("random-%d", i), func(t *testing.T) {
			checkAgainstReference(t, r)
		})
	}
}

// TestFixedExamples pins the points of examples worked out by hand from
// docs/RULES.md section 2.
func TestFixedExamples(t *testing.T) {
	custom := rules.MustPreset("classic")
	custom.Scoring.TwoTriplets = 2500
	pf := rules.MustPreset("pocket-farkel")
	double := rules.MustPreset("farkle-dice")
	double.Scoring.KindMode = rules.KindDouble
	tests := []struct {
		name  string
		r     rules.Rules
		hand  string
		want  int // 0: not every die scores
		melds []string
	}{
		{"pocket-farkel four 1s is four of a kind", pf, "1111", 1000, []string{"four 1s"}},
		{"classic four 1s is a triple and a single", rules.MustPreset("classic"), "1111", 1100, nil},
		{"cardgames four 1s: max(1000, 1100)", rules.MustPreset("cardgames"), "1111", 1100, nil},
		{"farkle-dice four 1s is triple x 2", rules.MustPreset("farkle-dice"), "1111", 2000, []string{"four 1s"}},
		{"pocket-farkel 1-1-1 (a triple or three singles)", pf, "111", 300, nil},
		{"classic 1-1-1", rules.MustPreset("classic"), "111", 1000, []string{"three 1s"}},
		{"pocket-farkel 2-2-2-2-3-3 three pairs", pf, "222233", 1500, []string{"three pairs"}},
		{"farkle-dice 2-2-2-2-3-3 three pairs", rules.MustPreset("farkle-dice"), "222233", 750, []string{"three pairs"}},
		{"classic 2-2-2-2-3-3 does not score", rules.MustPreset("classic"), "222233", 0, nil},
		{"classic 2-2-3-3-4-4 does not score", rules.MustPreset("classic"), "223344", 0, nil},
		{"six 2s as two triplets", custom, "222222", 2500, []string{"two triplets"}},
		{"six 2s without two_triplets", rules.MustPreset("classic"), "222222", 400, []string{"three 2s", "three 2s"}},
		{"two triplets 2-2-2-3-3-3", custom, "222333", 2500, []string{"two triplets"}},
		{"pocket-farkel six 1s: six of a kind beats two triplets", pf, "111111", 3000, []string{"six 1s"}},
		{"pocket-farkel straight", pf, "123456", 1500, []string{"a straight"}},
		{"classic straight does not score", rules.MustPreset("classic"), "123456", 0, nil},
		{"classic 1 and 5", rules.MustPreset("classic"), "15", 150, nil},
		{"farkle-dice six 5s triple x 4", rules.MustPreset("farkle-dice"), "555555", 2000, []string{"six 5s"}},
		{"double six 5s triple x 8", double, "555555", 4000, []string{"six 5s"}},
		{"pocket-farkel 1-1-1-1-5-5: three pairs beat 1000 + 100", pf, "111155", 1500, []string{"three pairs"}},
		{"classic 1-1-1-1-1-5", rules.MustPreset("classic"), "111115", 1250, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := dice.Parse(tt.hand)
			if err != nil {
				t.Fatal(err)
			}
			tab := dice.NewTable(tt.r)
			got, ok := tab.Points(h)
			if got != tt.want || ok != (tt.want > 0) {
				t.Fatalf("Points(%s) = %d, %v; want %d", tt.hand, got, ok, tt.want)
			}
			if tt.melds != nil {
				var names []string
				for _, m := range tab.Split(h) {
					names = append(names, m.Name)
				}
				if !slices.Equal(names, tt.melds) {
					t.Fatalf("Split(%s) = %q, want %q", tt.hand, names, tt.melds)
				}
			}
		})
	}
}

func TestCheckKeep(t *testing.T) {
	classic := dice.NewTable(rules.MustPreset("classic"))
	pf := dice.NewTable(rules.MustPreset("pocket-farkel"))
	tests := []struct {
		name        string
		tab         *dice.Table
		throw, keep string
		reason      string // "" for a legal keep
	}{
		{"pair of 2s", classic, "122345", "22", "2 2 scores only as part of three of a kind"},
		{"a single 1", classic, "122345", "1", ""},
		{"1 and 5", classic, "123456", "15", ""},
		{"one 5 of two", classic, "552346", "5", ""},
		{"not in the throw", classic, "122345", "11", "the throw 1 2 2 3 4 5 has only one 1"},
		{"three 2s", classic, "222456", "222", ""},
		{"1 with a 3", classic, "123456", "13", "3 scores only as part of three of a kind"},
		{"pocket-farkel straight", pf, "123456", "123456", ""},
		{"pocket-farkel 2-3", pf, "123456", "23", "2 3 do not score (a 2 scores only as part of three or more of a kind, a straight, three pairs or two triplets; a 3 scores only as part of three or more of a kind, a straight, three pairs or two triplets)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			throw, keep := mustParse(t, tt.throw), mustParse(t, tt.keep)
			err := tt.tab.CheckKeep(throw, keep)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("CheckKeep(%s, %s) = %v, want nil", tt.throw, tt.keep, err)
				}
				return
			}
			if !errors.Is(err, dice.ErrIllegalKeep) {
				t.Fatalf("CheckKeep(%s, %s) = %v, want an error matching ErrIllegalKeep", tt.throw, tt.keep, err)
			}
			var ke *dice.KeepError
			if !errors.As(err, &ke) || ke.Say(nil) != tt.reason {
				t.Fatalf("CheckKeep(%s, %s) = %q, want reason %q", tt.throw, tt.keep, err, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "dice: ") || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("error %q does not carry the package prefix and reason", err)
			}
		})
	}
	if err := classic.CheckKeep(mustParse(t, "123456"), 0); !errors.Is(err, dice.ErrIllegalKeep) {
		t.Fatalf("empty keep: %v, want ErrIllegalKeep", err)
	}
}

func mustParse(t testing.TB, s string) dice.Hand {
	t.Helper()
	h, err := dice.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func BenchmarkKeeps(b *testing.B) {
	tab := dice.NewTable(rules.MustPreset("pocket-farkel"))
	all := dice.AllThrows()
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(tab.Keeps(all[i%len(all)]))
	}
	if n == 0 {
		b.Fatal("no keeps")
	}
}

func BenchmarkNewTable(b *testing.B) {
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dice.NewTable(r)
			}
		})
	}
}

func BenchmarkPoints(b *testing.B) {
	tab := dice.NewTable(rules.MustPreset("classic"))
	all := dice.AllThrows()
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		p, _ := tab.Points(all[i%len(all)])
		s += p
	}
	if s == 0 {
		b.Fatal("no points")
	}
}

func BenchmarkCheckKeep(b *testing.B) {
	tab := dice.NewTable(rules.MustPreset("classic"))
	throw := dice.Of(1, 2, 2, 3, 4, 5)
	b.Run("legal", func(b *testing.B) {
		b.ReportAllocs()
		keep := dice.Of(1, 5)
		for b.Loop() {
			if tab.CheckKeep(throw, keep) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("illegal", func(b *testing.B) {
		b.ReportAllocs()
		keep := dice.Of(2, 2)
		for b.Loop() {
			if tab.CheckKeep(throw, keep) == nil {
				b.Fatal("accepted")
			}
		}
	})
}

// TestKeepErrorBlames: a keep that was thrown but does not score names the
// dice to blame, those left over by its largest scoring part; the other
// refusals blame no dice.
func TestKeepErrorBlames(t *testing.T) {
	tab := dice.NewTable(rules.MustPreset("classic"))
	throw := dice.Of(1, 2, 2, 5, 6, 6)
	for _, c := range []struct{ keep, bad dice.Hand }{
		{dice.Of(1, 2), dice.Of(2)},
		{dice.Of(1, 5, 6, 6), dice.Of(6, 6)},
		{dice.Of(2, 2, 6), dice.Of(2, 2, 6)},
		{dice.Of(1, 1), 0}, // not thrown
		{0, 0},             // nothing kept
	} {
		var ke *dice.KeepError
		if err := tab.CheckKeep(throw, c.keep); !errors.As(err, &ke) {
			t.Fatalf("keep %v: %v, want a KeepError", c.keep, err)
		}
		if ke.Bad != c.bad {
			t.Errorf("keep %v blames %v, want %v (%s)", c.keep, ke.Bad, c.bad, ke.Say(nil))
		}
	}
}
