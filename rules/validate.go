package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Bounds of the numbers of a rule set, enforced by Validate (so for rule
// files, the command line and the web form alike).
//
// They are chosen so that no sum can wrap: one meld scores at most
// MaxKeepPoints (six of a kind under kind_mode "double": a triple times 8),
// and so does one keep (six singles score at most 6*MaxPoints, any other
// split of six dice into melds less), which fits an int32 with room to
// spare. A throw adds at most MaxKeepPoints (or six_dice_nothing, at most
// MaxPoints) to a turn total, so an int64 total or score wraps only after
// more than 10^12 throws (2^63 / 8*10^6), far beyond any game; a target of
// at most MaxTarget keeps the solvers' scores in units below 2^20.
const (
	// MaxTarget is the largest game.target (points).
	MaxTarget = 1_000_000
	// MaxPoints is the most points of any scoring field (a single face, a
	// triple, four, five or six of a kind, a straight, a small straight,
	// three pairs, four of a kind and a pair, two triplets,
	// six_dice_nothing) and of turn.farkle_penalty.points. (The entry and
	// bank minimums are bounded by game.target; the penalty is not, so that
	// a short game may keep its base's penalty: it never takes a score
	// below 0.)
	MaxPoints = 1_000_000
	// MaxKeepPoints is the most points one keep (or one meld) can score
	// under rules within the bounds.
	MaxKeepPoints = 8 * MaxPoints
	// MaxPenaltyCount is the largest turn.farkle_penalty.count: the duel
	// solver's table grows with its square.
	MaxPenaltyCount = 10
	// MaxPlayers is the largest game.max_players.
	MaxPlayers = 8
	// MaxDice is the largest number of dice.
	MaxDice = 6
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

// fieldBound returns the largest value a numeric field may ever take (the
// target bounds the minimums further).
func fieldBound(field string) int {
	switch {
	case field == "dice":
		return MaxDice
	case field == "turn.farkle_penalty.count":
		return MaxPenaltyCount
	case strings.HasSuffix(field, "_players"):
		return MaxPlayers
	case strings.HasPrefix(field, "scoring") || field == "turn.farkle_penalty.points":
		return MaxPoints
	}
	return MaxTarget
}

// points checks one scoring field: 0 (no such meld) to MaxPoints.
func points(field string, v int) error {
	if v < 0 {
		return fieldErr(field, "must not be negative (got %d)", v)
	}
	if v > MaxPoints {
		return fieldErr(field, "at most %d (got %d)", MaxPoints, v)
	}
	return nil
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
	if r.Dice < 1 || r.Dice > MaxDice {
		return fieldErr("dice", "must be 1 to %d (got %d)", MaxDice, r.Dice)
	}
	s := &r.Scoring
	for k, v := range s.Single {
		if len(k) != 1 || k[0] < '1' || k[0] > '6' {
			return fieldErr("scoring.single", "face %q is not a die face (allowed: \"1\" to \"6\")", k)
		}
		if err := points("scoring.single."+k, v); err != nil {
			return err
		}
	}
	for i, v := range s.Triple {
		if err := points(fmt.Sprintf("scoring.triple[%d]", i), v); err != nil {
			return err
		}
	}
	if err := oneOf("scoring.kind_mode", s.KindMode, KindNone, KindFixed, KindMultiply, KindDouble); err != nil {
		return err
	}
	pointFields := []struct {
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
	}
	for _, f := range pointFields {
		if err := points(f.name, f.v); err != nil {
			return err
		}
	}
	t := &r.Turn
	nonNeg := []struct {
		name string
		v    int
	}{
		{"turn.entry_minimum", t.EntryMinimum},
		{"turn.bank_minimum", t.BankMinimum},
		{"turn.farkle_penalty.count", t.FarklePenalty.Count},
		{"turn.farkle_penalty.points", t.FarklePenalty.Points},
	}
	for _, f := range nonNeg {
		if f.v < 0 {
			return fieldErr(f.name, "must not be negative (got %d)", f.v)
		}
	}
	if t.FarklePenalty.Points > MaxPoints {
		return fieldErr("turn.farkle_penalty.points", "at most %d (got %d)", MaxPoints, t.FarklePenalty.Points)
	}
	if t.FarklePenalty.Count > MaxPenaltyCount {
		return fieldErr("turn.farkle_penalty.count", "at most %d (got %d)", MaxPenaltyCount, t.FarklePenalty.Count)
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
	if g.Target > MaxTarget {
		return fieldErr("game.target", "at most %d (got %d)", MaxTarget, g.Target)
	}
	if t.EntryMinimum > g.Target {
		return fieldErr("turn.entry_minimum", "at most game.target %d (got %d)", g.Target, t.EntryMinimum)
	}
	if t.BankMinimum > g.Target {
		return fieldErr("turn.bank_minimum", "at most game.target %d (got %d)", g.Target, t.BankMinimum)
	}

	if err := oneOf("game.ending", g.Ending, EndFinalRound, EndImmediate); err != nil {
		return err
	}
	if g.MinPlayers < 1 || g.MinPlayers > MaxPlayers {
		return fieldErr("game.min_players", "must be 1 to %d (got %d)", MaxPlayers, g.MinPlayers)
	}
	if g.MaxPlayers < g.MinPlayers || g.MaxPlayers > MaxPlayers {
		return fieldErr("game.max_players", "must be from min_players (%d) to %d (got %d)", g.MinPlayers, MaxPlayers, g.MaxPlayers)
	}
	// game.max_turns: the cap on a game's length (engine and sim).
	if g.MaxTurns < 0 || g.MaxTurns > MaxTurnsLimit {
		return fieldErr("game.max_turns", "must be 0 (no cap) to %d (got %d)", MaxTurnsLimit, g.MaxTurns)
	}
	if g.NextFirst != "" {
		if err := oneOf("game.next_first", g.NextFirst, NextWinner); err != nil {
			return err
		}
	}
	if err := oneOf("game.first_player", g.FirstPlayer, RollOff, SeatOrder); err != nil {
		return err
	}
	return oneOf("game.tie", g.Tie, RollOff, Share)
}
