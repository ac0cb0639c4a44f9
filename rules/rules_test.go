package rules_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/farkle/farkle/rules"
)

func TestPresetsValidate(t *testing.T) {
	names := rules.Presets()
	for _, want := range []string{"classic", "pocket-farkel", "farkle-dice", "cardgames"} {
		if !slices.Contains(names, want) {
			t.Errorf("Presets() = %v lacks %q", names, want)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("Presets() = %v is not sorted", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			r, err := rules.Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(); err != nil {
				t.Fatalf("preset %s does not validate: %v", name, err)
			}
			if r.Name != name {
				t.Fatalf("preset %s has name %q", name, r.Name)
			}
			// Each call returns a fresh copy: changing one must not change the next.
			r.Scoring.Single["1"] = 1
			r.Scoring.Triple[0] = 1
			if again := rules.MustPreset(name); again.Scoring.Single["1"] != 100 || again.Scoring.Triple[0] == 1 {
				t.Fatalf("preset %s shares its data between calls", name)
			}
		})
	}
}

// TestPresetValues checks every preset against the table of docs/RULES.md
// section 3 and the rules common to all.
func TestPresetValues(t *testing.T) {
	type row struct {
		triple1           int
		kindMode          string
		four, five, six   int
		straight, pairs   int
		twoTriplets       int
		entry             int
		penaltyN, penalty int
		ending            string
		minP, maxP        int
	}
	want := map[string]row{
		"classic":       {1000, "none", 0, 0, 0, 0, 0, 0, 0, 3, 1000, "final-round", 1, 8},
		"pocket-farkel": {300, "fixed", 1000, 2000, 3000, 1500, 1500, 2500, 0, 0, 0, "final-round", 1, 8},
		"farkle-dice":   {1000, "multiply", 0, 0, 0, 1000, 750, 0, 500, 3, 1000, "final-round", 1, 8},
		"cardgames":     {1000, "fixed", 1000, 2000, 3000, 2500, 1500, 0, 0, 0, 0, "immediate", 2, 2},
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			r := rules.MustPreset(name)
			s := r.Scoring
			got := row{s.Triple[0], s.KindMode, s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind, s.Straight, s.ThreePairs, s.TwoTriplets,
				r.Turn.EntryMinimum, r.Turn.FarklePenalty.Count, r.Turn.FarklePenalty.Points, r.Game.Ending, r.Game.MinPlayers, r.Game.MaxPlayers}
			if got != w {
				t.Errorf("got  %+v\nwant %+v", got, w)
			}
			// Common to all presets.
			if r.Dice != 6 || !r.Turn.HotDice || r.Turn.BankMinimum != 0 || r.Game.Target != 10000 {
				t.Errorf("dice %d, hot dice %v, bank minimum %d, target %d", r.Dice, r.Turn.HotDice, r.Turn.BankMinimum, r.Game.Target)
			}
			if len(s.Single) != 2 || s.Single["1"] != 100 || s.Single["5"] != 50 {
				t.Errorf("single = %v, want 1 = 100, 5 = 50", s.Single)
			}
			if [5]int(s.Triple[1:]) != [5]int{200, 300, 400, 500, 600} {
				t.Errorf("triples of 2..6 = %v, want 100 × face", s.Triple[1:])
			}
			if s.ThreePairs > 0 && !s.ThreePairsQuad {
				t.Error("three pairs score but three_pairs_quad is false")
			}
			if s.SmallStraightLow != 0 || s.SmallStraightHigh != 0 || s.FourKindPair != 0 || s.SixDiceNothing != 0 {
				t.Errorf("an option no preset uses is set: %+v", s)
			}
			if r.Game.FirstPlayer != rules.RollOff || r.Game.Tie != rules.RollOff {
				t.Errorf("first player %q, tie %q; want roll-off for both", r.Game.FirstPlayer, r.Game.Tie)
			}
		})
	}
}

func TestUnknownPreset(t *testing.T) {
	for _, get := range []func(string) (rules.Rules, error){rules.Preset, rules.Resolve} {
		_, err := get("dragonfly")
		if !errors.Is(err, rules.ErrUnknownPreset) {
			t.Fatalf("error %v does not wrap ErrUnknownPreset", err)
		}
		for _, name := range append(rules.Presets(), "dragonfly") {
			if !containsStr(err.Error(), name) {
				t.Errorf("error %q does not name %q", err, name)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustPreset of an unknown name did not panic")
		}
	}()
	rules.MustPreset("dragonfly")
}

func TestKindAndSinglePoints(t *testing.T) {
	s := rules.MustPreset("classic").Scoring
	s.Triple = [6]int{1000, 200, 0, 400, 500, 600}
	s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = 1111, 0, 3333
	tests := []struct {
		mode       string
		face       int
		n3, n4, n5 int
		n6         int
	}{
		{rules.KindNone, 2, 200, 0, 0, 0},
		{rules.KindFixed, 2, 200, 1111, 0, 3333},
		{rules.KindMultiply, 2, 200, 400, 600, 800},
		{rules.KindDouble, 2, 200, 400, 800, 1600},
		{rules.KindDouble, 1, 1000, 2000, 4000, 8000},
		{rules.KindMultiply, 3, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		s.KindMode = tt.mode
		got := [4]int{s.KindPoints(tt.face, 3), s.KindPoints(tt.face, 4), s.KindPoints(tt.face, 5), s.KindPoints(tt.face, 6)}
		if got != [4]int{tt.n3, tt.n4, tt.n5, tt.n6} {
			t.Errorf("%s, face %d: KindPoints(3..6) = %v", tt.mode, tt.face, got)
		}
	}
	for f, want := range []int{0, 100, 0, 0, 0, 50, 0} {
		if f > 0 && s.SinglePoints(f) != want {
			t.Errorf("SinglePoints(%d) = %d, want %d", f, s.SinglePoints(f), want)
		}
	}
}

func TestClone(t *testing.T) {
	r := rules.MustPreset("classic")
	c := r.Clone()
	c.Scoring.Single["2"] = 20
	if _, ok := r.Scoring.Single["2"]; ok {
		t.Fatal("Clone shares the single table")
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
