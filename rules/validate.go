package rules

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("rules: invalid")

// FieldError says which field of a rule set is wrong and what is allowed.
type FieldError struct {
	Field string // dotted path as in a rule file, e.g. "scoring.triple[2]"
	Msg   string
}

func (e *FieldError) Error() string { return "rules: " + e.Field + ": " + e.Msg }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func oneOf(field, got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return fieldErr(field, "%q is not allowed (allowed: %s)", got, strings.Join(allowed, ", "))
}

// Validate checks r and returns the first problem as a *FieldError naming
// the field and what is allowed, or nil.
func (r *Rules) Validate() error {
	if r.Dice < 1 || r.Dice > 6 {
		return fieldErr("dice", "must be 1 to 6 (got %d)", r.Dice)
	}
	s := &r.Scoring
	for k, v := range s.Single {
		if len(k) != 1 || k[0] < '1' || k[0] > '6' {
			return fieldErr("scoring.single", "face %q is not a die face (allowed: \"1\" to \"6\")", k)
		}
		if v < 0 {
			return fieldErr("scoring.single."+k, "must not be negative (got %d)", v)
		}
	}
	for i, v := range s.Triple {
		if v < 0 {
			return fieldErr(fmt.Sprintf("scoring.triple[%d]", i), "must not be negative (got %d)", v)
		}
	}
	if err := oneOf("scoring.kind_mode", s.KindMode, KindNone, KindFixed, KindMultiply, KindDouble); err != nil {
		return err
	}
	nonNeg := []struct {
		name string
		v    int
	}{
		{"scoring.four_of_a_kind", s.FourOfAKind},
		{"scoring.five_of_a_kind", s.FiveOfAKind},
		{"scoring.six_of_a_kind", s.SixOfAKind},
		{"scoring.straight", s.Straight},
		{"scoring.small_straight_low", s.SmallStraightLow},
		{"scoring.small_straight_high", s.SmallStraightHigh},
		{"scoring.three_pairs", s.ThreePairs},
		{"scoring.four_kind_pair", s.FourKindPair},
		{"scoring.two_triplets", s.TwoTriplets},
		{"scoring.six_dice_nothing", s.SixDiceNothing},
		{"turn.entry_minimum", r.Turn.EntryMinimum},
		{"turn.bank_minimum", r.Turn.BankMinimum},
		{"turn.farkle_penalty.count", r.Turn.FarklePenalty.Count},
		{"turn.farkle_penalty.points", r.Turn.FarklePenalty.Points},
	}
	for _, f := range nonNeg {
		if f.v < 0 {
			return fieldErr(f.name, "must not be negative (got %d)", f.v)
		}
	}
	sixOnly := []struct {
		name string
		v    int
		min  int
	}{
		{"scoring.straight", s.Straight, 6},
		{"scoring.three_pairs", s.ThreePairs, 6},
		{"scoring.four_kind_pair", s.FourKindPair, 6},
		{"scoring.two_triplets", s.TwoTriplets, 6},
		{"scoring.six_dice_nothing", s.SixDiceNothing, 6},
		{"scoring.six_of_a_kind", s.SixOfAKind, 6},
		{"scoring.five_of_a_kind", s.FiveOfAKind, 5},
		{"scoring.small_straight_low", s.SmallStraightLow, 5},
		{"scoring.small_straight_high", s.SmallStraightHigh, 5},
		{"scoring.four_of_a_kind", s.FourOfAKind, 4},
	}
	for _, f := range sixOnly {
		if f.v > 0 && r.Dice < f.min {
			return fieldErr(f.name, "needs %d dice but the game has dice = %d (set it to 0)", f.min, r.Dice)
		}
	}
	scores := false
	for f := 1; f <= 6; f++ {
		if s.SinglePoints(f) > 0 || (r.Dice >= 3 && s.Triple[f-1] > 0) {
			scores = true
		}
	}
	if !scores && s.Straight == 0 && s.ThreePairs == 0 && s.SmallStraightLow == 0 && s.SmallStraightHigh == 0 {
		return fieldErr("scoring", "no meld scores any points: every throw would be a farkle")
	}
	g := &r.Game
	if g.Target <= 0 {
		return fieldErr("game.target", "must be positive (got %d)", g.Target)
	}
	if r.Turn.EntryMinimum > g.Target {
		return fieldErr("turn.entry_minimum", "%d is above game.target %d", r.Turn.EntryMinimum, g.Target)
	}
	if r.Turn.BankMinimum > g.Target {
		return fieldErr("turn.bank_minimum", "%d is above game.target %d", r.Turn.BankMinimum, g.Target)
	}
	if err := oneOf("game.ending", g.Ending, EndFinalRound, EndImmediate); err != nil {
		return err
	}
	if g.MinPlayers < 1 || g.MinPlayers > 8 {
		return fieldErr("game.min_players", "must be 1 to 8 (got %d)", g.MinPlayers)
	}
	if g.MaxPlayers < g.MinPlayers || g.MaxPlayers > 8 {
		return fieldErr("game.max_players", "must be from min_players (%d) to 8 (got %d)", g.MinPlayers, g.MaxPlayers)
	}
	// game.max_turns: the cap on a game's length (engine and sim).
	if g.MaxTurns < 0 || g.MaxTurns > MaxTurnsLimit {
		return fieldErr("game.max_turns", "must be 0 (no cap) to %d (got %d)", MaxTurnsLimit, g.MaxTurns)
	}
	if err := oneOf("game.first_player", g.FirstPlayer, RollOff, SeatOrder); err != nil {
		return err
	}
	return oneOf("game.tie", g.Tie, RollOff, Share)
}
