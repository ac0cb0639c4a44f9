package rules_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/rules"
)

func TestHashEqualRules(t *testing.T) {
	for _, name := range rules.Presets() {
		a, b := rules.MustPreset(name), rules.MustPreset(name)
		h := a.Hash()
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h) {
			t.Fatalf("%s: Hash() = %q, want 64 hex digits", name, h)
		}
		for range 50 { // map iteration order must not matter
			if b.Hash() != h || a.Clone().Hash() != h {
				t.Fatalf("%s: the hash changes between calls", name)
			}
		}
		b.Name, b.Base = "my house", "classic"
		if b.Hash() != h {
			t.Errorf("%s: the hash depends on name and base", name)
		}
		// Single tables that mean the same thing hash the same.
		b.Scoring.Single = map[string]int{"5": 50, "1": 100, "3": 0}
		if b.Hash() != h {
			t.Errorf("%s: a zero single entry changes the hash", name)
		}
	}
	a := rules.MustPreset("classic")
	a.Scoring.Single = nil
	b := rules.MustPreset("classic")
	b.Scoring.Single = map[string]int{}
	if a.Hash() != b.Hash() {
		t.Error("a nil and an empty single table hash differently")
	}
}

func TestHashChangesWithEveryField(t *testing.T) {
	base := rules.MustPreset("classic")
	changes := map[string]func(r *rules.Rules){
		"dice":                        func(r *rules.Rules) { r.Dice = 5 },
		"scoring.single.1":            func(r *rules.Rules) { r.Scoring.Single["1"] = 150 },
		"scoring.single.2":            func(r *rules.Rules) { r.Scoring.Single["2"] = 20 },
		"scoring.triple[5]":           func(r *rules.Rules) { r.Scoring.Triple[5] = 650 },
		"scoring.kind_mode":           func(r *rules.Rules) { r.Scoring.KindMode = rules.KindDouble },
		"scoring.four_of_a_kind":      func(r *rules.Rules) { r.Scoring.FourOfAKind = 1000 },
		"scoring.five_of_a_kind":      func(r *rules.Rules) { r.Scoring.FiveOfAKind = 2000 },
		"scoring.six_of_a_kind":       func(r *rules.Rules) { r.Scoring.SixOfAKind = 3000 },
		"scoring.straight":            func(r *rules.Rules) { r.Scoring.Straight = 1500 },
		"scoring.small_straight_low":  func(r *rules.Rules) { r.Scoring.SmallStraightLow = 500 },
		"scoring.small_straight_high": func(r *rules.Rules) { r.Scoring.SmallStraightHigh = 750 },
		"scoring.three_pairs":         func(r *rules.Rules) { r.Scoring.ThreePairs = 500 },
		"scoring.three_pairs_quad":    func(r *rules.Rules) { r.Scoring.ThreePairsQuad = false },
		"scoring.four_kind_pair":      func(r *rules.Rules) { r.Scoring.FourKindPair = 1500 },
		"scoring.two_triplets":        func(r *rules.Rules) { r.Scoring.TwoTriplets = 2500 },
		"scoring.six_dice_nothing":    func(r *rules.Rules) { r.Scoring.SixDiceNothing = 500 },
		"turn.hot_dice":               func(r *rules.Rules) { r.Turn.HotDice = false },
		"turn.entry_minimum":          func(r *rules.Rules) { r.Turn.EntryMinimum = 500 },
		"turn.bank_minimum":           func(r *rules.Rules) { r.Turn.BankMinimum = 300 },
		"turn.farkle_penalty.count":   func(r *rules.Rules) { r.Turn.FarklePenalty.Count = 4 },
		"turn.farkle_penalty.points":  func(r *rules.Rules) { r.Turn.FarklePenalty.Points = 500 },
		"game.target":                 func(r *rules.Rules) { r.Game.Target = 5000 },
		"game.ending":                 func(r *rules.Rules) { r.Game.Ending = rules.EndImmediate },
		"game.min_players":            func(r *rules.Rules) { r.Game.MinPlayers = 2 },
		"game.max_players":            func(r *rules.Rules) { r.Game.MaxPlayers = 4 },
		"game.first_player":           func(r *rules.Rules) { r.Game.FirstPlayer = rules.SeatOrder },
		"game.tie":                    func(r *rules.Rules) { r.Game.Tie = rules.Share },
	}
	seen := map[string]string{base.Hash(): "classic"}
	seenScoring := map[string]string{base.ScoringHash(): "classic"}
	for field, change := range changes {
		r := base.Clone()
		change(&r)
		h := r.Hash()
		if other, dup := seen[h]; dup {
			t.Errorf("changing %s gives the hash of %s", field, other)
		}
		seen[h] = field
		// The scoring hash follows the dice and the scoring table only.
		sh := r.ScoringHash()
		scoring := field == "dice" || strings.HasPrefix(field, "scoring.")
		if other, dup := seenScoring[sh]; scoring && dup {
			t.Errorf("changing %s gives the scoring hash of %s", field, other)
		}
		if !scoring && sh != base.ScoringHash() {
			t.Errorf("changing %s changes the scoring hash", field)
		}
		if scoring {
			seenScoring[sh] = field
		}
	}
	// Names and single entries of 0 do not count, as in Hash.
	r := base.Clone()
	r.Name, r.Base = "mine", "classic"
	r.Scoring.Single["4"] = 0
	if r.ScoringHash() != base.ScoringHash() {
		t.Error("the name, the base or a zero single entry changes the scoring hash")
	}
}

// TestHashGolden pins the preset hashes: the solver's cache is keyed by
// them, so a change must be deliberate (go test ./rules -update).
func TestHashGolden(t *testing.T) {
	var b bytes.Buffer
	for _, name := range rules.Presets() {
		fmt.Fprintf(&b, "%s %s\n", name, rules.MustPreset(name).Hash())
	}
	const path = "testdata/hashes.golden"
	if testflags.Update() {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rules -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		sc := bufio.NewScanner(bytes.NewReader(want))
		for sc.Scan() {
			t.Logf("golden: %s", sc.Text())
		}
		t.Fatalf("preset hashes changed:\n%s(if deliberate, run go test ./rules -update)", b.String())
	}
}
