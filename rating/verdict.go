package rating

import (
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// Reason says why a game of a rated family moves no rating; "" when it
// does. The codes are the API's (the table's "unrated" field).
type Reason string

// The reasons a game moves no rating.
const (
	// NotRatedBots: house rules are rated only between people. The bots'
	// ratings (Anchors) were fitted on the ordinary game; under other
	// rules they mean nothing, and a bot beaten under rules that favour
	// luck would hand its rating to anyone.
	NotRatedBots Reason = "bots"
	// NotRatedShort: the game is shorter than a real game: a turn cap
	// under MinMaxTurns rounds, or house rules whose target is under
	// MinTargetThrows throws' worth of points.
	NotRatedShort Reason = "short"
	// NotRatedAborted: the game ended before every seat had finished a
	// turn of its own (Aborted); it counts for nobody, as no loss either.
	NotRatedAborted Reason = "aborted"
)

// The bounds of a game long enough to be rated.
const (
	// MinMaxTurns is the shortest turn cap (rules' game.max_turns, in
	// rounds) of a rated game: the presets' games take 15 to 23 turns a
	// player between good players, and a game capped under 10 is decided
	// by a few throws.
	MinMaxTurns = 10
	// MinTargetThrows bounds the target of rated house rules: at least
	// this many times the expected points of one throw of all the dice
	// (their best keep). The presets' targets are 23 to 32 times theirs; a
	// target of 10 throws is about 7 turns of a good player.
	MinTargetThrows = 10
)

// Verdict is how a table's game is rated: its Family, or Unrated with the
// Reason when the family would be rated but the game cannot be.
type Verdict struct {
	Family Family
	Reason Reason
}

// Rated reports whether the game moves ratings.
func (v Verdict) Rated() bool { return v.Family != Unrated }

// ruleSet is a variant played by an ordinary rule set (rules.Rules): its
// length and target say whether a game is long enough to rate.
type ruleSet interface{ RuleSet() rules.Rules }

// Judge returns the verdict on a game of v at a table marked rated or not
// (marked matters for house rules only), bots of whose seats are bots:
// FamilyOf's family, unless the game is too short (NotRatedShort) or is
// house rules with a bot (NotRatedBots). A game that ends before every
// seat had a turn is judged at its end (Aborted).
func Judge(v game.Variant, marked bool, bots int) Verdict {
	f := FamilyOf(v, marked)
	if f == Unrated {
		return Verdict{}
	}
	if rs, ok := v.(ruleSet); ok {
		r := rs.RuleSet()
		if m := r.Game.MaxTurns; m > 0 && m < MinMaxTurns {
			return Verdict{Reason: NotRatedShort}
		}
		if f == House {
			if float64(r.Game.Target) < MinTargetThrows*engine.TableFor(r).Odds(r.Dice).Expected() {
				return Verdict{Reason: NotRatedShort}
			}
			if bots > 0 {
				return Verdict{Reason: NotRatedBots}
			}
		}
	}
	return Verdict{Family: f}
}

// Aborted reports whether the game g, over, ended before every seat had
// finished a turn of its own, as its variant counts them (game.Game.Aborted:
// the ordinary game does not count a turn cut short by the seat's
// resignation, or by the turn clock resigning for it, nor a roll-off for
// the first turn; of Dragon Farkle, which has no resignation, it asks
// whether the game lasted a round).
func Aborted(g game.Game) bool { return g.Aborted() }
