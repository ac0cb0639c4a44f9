package rules_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/farkle/farkle/rules"
)

// maxedRules returns rules with every number at its bound: every meld at
// MaxPoints, the target at MaxTarget, the minimums and the penalty at the
// target, the penalty at MaxPoints with the longest count and the most
// players.
func maxedRules(mode string) rules.Rules {
	r := rules.MustPreset("classic")
	r.Name = "maxed " + mode
	s := &r.Scoring
	for f := 1; f <= 6; f++ {
		s.Single[fmt.Sprint(f)] = rules.MaxPoints
		s.Triple[f-1] = rules.MaxPoints
	}
	s.KindMode = mode
	s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
	s.Straight, s.SmallStraightLow, s.SmallStraightHigh = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
	s.ThreePairs, s.FourKindPair, s.TwoTriplets = rules.MaxPoints, rules.MaxPoints, rules.MaxPoints
	s.ThreePairsQuad = true
	s.SixDiceNothing = rules.MaxPoints
	r.Turn.HotDice = true
	r.Game.Target = rules.MaxTarget
	r.Turn.EntryMinimum = rules.MaxTarget
	r.Turn.BankMinimum = rules.MaxTarget
	r.Turn.FarklePenalty = rules.Penalty{Count: rules.MaxPenaltyCount, Points: rules.MaxPoints}
	r.Game.MinPlayers, r.Game.MaxPlayers = rules.MaxPlayers, rules.MaxPlayers
	return r
}

// TestBounds: rules with every number at its bound validate, and each
// field one past its bound is refused with a one-line error naming the
// field and the bound.
func TestBounds(t *testing.T) {
	for _, mode := range []string{rules.KindFixed, rules.KindMultiply, rules.KindDouble} {
		r := maxedRules(mode)
		if err := r.Validate(); err != nil {
			t.Fatalf("rules at the bounds (%s): %v", mode, err)
		}
	}
	type field struct {
		name  string
		set   func(r *rules.Rules, v int)
		bound int
	}
	pts := func(name string, set func(s *rules.Scoring, v int)) field {
		return field{"scoring." + name, func(r *rules.Rules, v int) { set(&r.Scoring, v) }, rules.MaxPoints}
	}
	fields := []field{
		{"game.target", func(r *rules.Rules, v int) { r.Game.Target = v }, rules.MaxTarget},
		{"turn.entry_minimum", func(r *rules.Rules, v int) { r.Turn.EntryMinimum = v }, rules.MaxTarget},
		{"turn.bank_minimum", func(r *rules.Rules, v int) { r.Turn.BankMinimum = v }, rules.MaxTarget},
		{"turn.farkle_penalty.points", func(r *rules.Rules, v int) { r.Turn.FarklePenalty.Points = v }, rules.MaxPoints},
		{"turn.farkle_penalty.count", func(r *rules.Rules, v int) { r.Turn.FarklePenalty.Count = v }, rules.MaxPenaltyCount},
		{"game.max_players", func(r *rules.Rules, v int) { r.Game.MaxPlayers = v }, rules.MaxPlayers},
		{"dice", func(r *rules.Rules, v int) { r.Dice = v }, rules.MaxDice},
		pts("four_of_a_kind", func(s *rules.Scoring, v int) { s.FourOfAKind = v }),
		pts("five_of_a_kind", func(s *rules.Scoring, v int) { s.FiveOfAKind = v }),
		pts("six_of_a_kind", func(s *rules.Scoring, v int) { s.SixOfAKind = v }),
		pts("straight", func(s *rules.Scoring, v int) { s.Straight = v }),
		pts("small_straight_low", func(s *rules.Scoring, v int) { s.SmallStraightLow = v }),
		pts("small_straight_high", func(s *rules.Scoring, v int) { s.SmallStraightHigh = v }),
		pts("three_pairs", func(s *rules.Scoring, v int) { s.ThreePairs = v }),
		pts("four_kind_pair", func(s *rules.Scoring, v int) { s.FourKindPair = v }),
		pts("two_triplets", func(s *rules.Scoring, v int) { s.TwoTriplets = v }),
		pts("six_dice_nothing", func(s *rules.Scoring, v int) { s.SixDiceNothing = v }),
	}
	for f := 1; f <= 6; f++ {
		fields = append(fields,
			pts(fmt.Sprintf("single.%d", f), func(s *rules.Scoring, v int) { s.Single[fmt.Sprint(f)] = v }),
			pts(fmt.Sprintf("triple[%d]", f-1), func(s *rules.Scoring, v int) { s.Triple[f-1] = v }))
	}
	for _, f := range fields {
		t.Run(f.name, func(t *testing.T) {
			r := maxedRules(rules.KindFixed)
			f.set(&r, f.bound)
			if err := r.Validate(); err != nil {
				t.Fatalf("at the bound %d: %v", f.bound, err)
			}
			for _, v := range []int{f.bound + 1, 2 * f.bound, math.MaxInt64} {
				r := maxedRules(rules.KindFixed)
				f.set(&r, v)
				err := r.Validate()
				checkFieldError(t, err, f.name, fmt.Sprint(f.bound), fmt.Sprintf("(got %d)", v))
			}
		})
	}
	// the exact message of a target of 10^15
	r := rules.MustPreset("classic")
	r.Game.Target = 1_000_000_000_000_000
	if err := r.Validate(); err == nil || err.Error() != "rules: game.target: at most 1000000 (got 1000000000000000)" {
		t.Errorf("target 10^15: %v", err)
	}
}

// TestBoundsInFiles: the values of the issue, in a rule file or JSON, are
// refused naming the field.
func TestBoundsInFiles(t *testing.T) {
	for _, tt := range []struct {
		doc, field string
	}{
		{"[scoring]\nsingle = { \"1\" = 100000000000000 }", "scoring.single.1"},
		{"[scoring]\nsingle = { \"1\" = 9223372036854775807 }", "scoring.single.1"},
		{"[game]\ntarget = 1000000000000000", "game.target"},
		{"[game]\ntarget = 1000000000000\n[turn]\nbank_minimum = 100000000000", "game.target"},
		{"[turn]\nfarkle_penalty = { count = 11, points = 500 }", "turn.farkle_penalty.count"},
		{"[turn]\nfarkle_penalty = { count = 3, points = 1000001 }", "turn.farkle_penalty.points"},
	} {
		_, err := rules.ParseTOML([]byte(tt.doc))
		checkFieldError(t, err, tt.field, "at most")
		_, err = rules.ParseJSON([]byte(tomlToJSON(t, tt.doc)))
		checkFieldError(t, err, tt.field, "at most")
	}
}

// TestJSONNumbers: a JSON number that is not a whole number within int64
// is refused naming the field and its bound, not as a Go type error.
func TestJSONNumbers(t *testing.T) {
	for _, tt := range []struct {
		doc, field, bound string
	}{
		{`{"game":{"target":99999999999999999999}}`, "game.target", "1000000"},
		{`{"game":{"target":1e7}}`, "game.target", "1000000"},
		{`{"scoring":{"single":{"1":1e20}}}`, "scoring.single", "1000000"},
		{`{"scoring":{"triple":[1000,200,300,400,500,600.5]}}`, "scoring.triple", "1000000"},
		{`{"turn":{"farkle_penalty":{"count":2.5,"points":500}}}`, "turn.farkle_penalty.count", "10"},
		{`{"game":{"max_players":1e3}}`, "game.max_players", "8"},
	} {
		_, err := rules.ParseJSON([]byte(tt.doc))
		checkFieldError(t, err, tt.field, "whole number", tt.bound)
	}
}
