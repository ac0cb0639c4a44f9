package bot

import (
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// MaxPlayers is the most seats a View holds (the engine's limit).
const MaxPlayers = 8

// View is what a Decider sees at a decision of the player to move: the
// standings and the turn in progress, in plain values so that a fast
// simulator can keep one View per game and update it in place without
// allocating. FromState builds one from an engine state.
type View struct {
	Rules *rules.Rules // the game's rules (read only)
	Table *dice.Table  // their keep table

	Players int             // number of seats
	Seat    int             // the player to move
	Scores  [MaxPlayers]int // banked scores by seat
	Streaks [MaxPlayers]int // farkles in a row by seat
	Total   int             // turn total so far
	// Left is the number of dice thrown at a keep decision (Throw.N()), and
	// the dice left after the keep (0: none, hot dice if the rules allow)
	// at a bank decision.
	Left       int
	Throw      dice.Hand // the throw on the table (keep decisions)
	ThrowIndex int       // Throw.Index()
	FinalRound bool      // someone reached the target (final-round ending)
	Trigger    int       // who started the final round, -1 if none
	// Out: bit i is set when seat i resigned (engine.Player.Out); such a
	// seat is never an opponent.
	Out uint8
}

// Decider is a Strategy that decides from a View: which keep to take and
// whether to bank. Every bot of this package is a Decider; the simulator
// (package sim) plays Deciders without the engine, and Choose on an engine
// state asks the same two questions, so both play the same game.
//
// Deciders may rely on being asked only legal questions (an unchecked fast
// path): Keep only for a throw that is not a farkle, Bank only when both
// banking and throwing are allowed.
type Decider interface {
	Strategy
	// Keep returns the index in v.Table.Keeps(v.Throw) of the keep to take.
	Keep(v *View) int
	// Bank reports whether to bank (true) or throw on (false).
	Bank(v *View) bool
}

// FromState returns the View of s for the player to move. s must be in
// PhasePlay.
func FromState(s engine.State, v *View) {
	r := s.Rules()
	*v = View{
		Rules:      &r,
		Table:      s.Table(),
		Players:    len(s.Players),
		Seat:       s.Current,
		Total:      s.Total,
		Left:       s.Left,
		Throw:      s.Throw,
		ThrowIndex: s.Throw.Index(),
		FinalRound: s.FinalRound,
		Trigger:    s.Trigger,
	}
	for i, p := range s.Players {
		v.Scores[i] = p.Score
		v.Streaks[i] = p.Streak
		if p.Out {
			v.Out |= 1 << i
		}
	}
}

// Me returns the score of the player to move.
func (v *View) Me() int { return v.Scores[v.Seat] }

// Opponent returns the seat of the strongest other player still in: the
// highest score, ties going to the first in playing order after the player
// to move. It returns -1 when nobody else is in (a one-player game).
func (v *View) Opponent() int {
	best := -1
	for k := 1; k < v.Players; k++ {
		i := (v.Seat + k) % v.Players
		if v.Out&(1<<i) != 0 {
			continue
		}
		if best < 0 || v.Scores[i] > v.Scores[best] {
			best = i
		}
	}
	return best
}

// Leader returns the highest score of the other players (0 alone).
func (v *View) Leader() int {
	if o := v.Opponent(); o >= 0 {
		return v.Scores[o]
	}
	return 0
}

// ToThrow returns the number of dice a throw after the keep would throw.
func (v *View) ToThrow() int {
	if v.Left == 0 {
		return v.Rules.Dice
	}
	return v.Left
}

// BankWins reports whether banking now certainly wins the game (the
// immediate ending and a bank reaching the target), or, on the last turn of
// a final round, whether banking puts the player strictly ahead of everyone.
func (v *View) BankWins() bool {
	score := v.Me() + v.Total
	if v.Rules.Game.Ending == rules.EndImmediate {
		return score >= v.Rules.Game.Target
	}
	return v.FinalRound && score > v.Leader()
}

// BankLoses reports whether banking now certainly loses: on the last turn of
// a final round, a bank that leaves the player at or below the leader. (A
// tie is counted as lost: the bot throws on to break it.)
func (v *View) BankLoses() bool {
	return v.FinalRound && v.Me()+v.Total <= v.Leader()
}

// choose plays d on an engine state: roll-offs and forced actions directly,
// keeps and bank-or-throw through d.
func choose(d Decider, s engine.State) engine.Action {
	p := s.Actor()
	if s.Phase != engine.PhasePlay {
		return engine.RollOffBy(p)
	}
	var v View
	switch s.Step {
	case engine.StepThrow:
		return engine.ThrowBy(p)
	case engine.StepKeep:
		FromState(s, &v)
		keeps := s.Table().Keeps(s.Throw)
		return engine.KeepBy(p, keeps[d.Keep(&v)].Hand)
	}
	canBank, _ := s.CanBank()
	canThrow := s.CanThrow()
	switch {
	case canBank && canThrow:
		FromState(s, &v)
		if d.Bank(&v) {
			return engine.BankBy(p)
		}
		return engine.ThrowBy(p)
	case canBank:
		return engine.BankBy(p)
	}
	return engine.ThrowBy(p)
}
