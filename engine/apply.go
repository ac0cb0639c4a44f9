package engine

import (
	"fmt"
	"slices"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// Apply plays action a on s with dice from src and returns the new state and
// the events, in order. Resign is accepted from the actor at any point of a
// game that is not over (see State.resign). On error the returned state is
// s itself, unchanged; the error is Check's.
func Apply(s State, a Action, src dice.Source) (State, []Event, error) {
	if err := Check(s, a); err != nil {
		return s, nil, err
	}
	n := s.clone()
	var ev []Event
	switch a.Kind {
	case Resign:
		ev = n.resign()
	case RollOff:
		ev = n.rollOff(src)
	case Throw:
		ev = n.throw(src)
	case Keep:
		ev = n.keep(a.Dice)
	case Bank:
		ev = n.bank()
	}
	n.Version++
	return n, ev, nil
}

// Check reports whether Apply would accept a in s, without a dice source and
// without playing it: nil, or an error that wraps ErrGameOver,
// ErrUnknownAction, ErrNotYourTurn or ErrIllegal (an illegal keep also
// matches dice.ErrIllegalKeep) and says why.
func Check(s State, a Action) error {
	if s.Phase == PhaseOver {
		return ErrGameOver
	}
	if a.Kind < Throw || a.Kind > Resign {
		return fmt.Errorf("%w: %v (actions: throw, keep, bank, roll-off, resign)", ErrUnknownAction, a.Kind)
	}
	if actor := s.Actor(); a.Player != actor {
		name := fmt.Sprintf("seat %d", a.Player)
		if a.Player >= 0 && a.Player < len(s.Players) {
			name = s.Players[a.Player].Name
		}
		return fmt.Errorf("%w: %s cannot act, it is %s's turn", ErrNotYourTurn, name, s.Players[actor].Name)
	}
	if a.Kind == Resign {
		return nil
	}
	return s.check(a)
}

// check returns why a is not legal in s, or nil.
func (s State) check(a Action) error {
	if s.Phase != PhasePlay {
		if a.Kind != RollOff {
			return fmt.Errorf("%w: %s during the roll-off (throw one die: roll-off)", ErrIllegal, a.Kind)
		}
		return nil
	}
	switch a.Kind {
	case RollOff:
		return fmt.Errorf("%w: there is no roll-off now", ErrIllegal)
	case Throw:
		if s.CanThrow() {
			return nil
		}
		if s.Step == StepKeep {
			return fmt.Errorf("%w: throw: keep at least one scoring die from %s first", ErrIllegal, s.Throw)
		}
		return fmt.Errorf("%w: throw: every die is kept and hot dice are off; bank", ErrIllegal)
	case Keep:
		if s.Step != StepKeep {
			return fmt.Errorf("%w: keep: there is no throw on the table to keep from; throw first", ErrIllegal)
		}
		if err := s.cfg.table.CheckKeep(s.Throw, a.Dice); err != nil {
			ke := err.(*dice.KeepError)
			return fmt.Errorf("%w: keep %s: %s", &keepErr{ke}, a.Dice, ke.Say(nil))
		}
	case Bank:
		if ok, why := s.CanBank(); !ok {
			return fmt.Errorf("%w: bank: %s", ErrIllegal, why)
		}
	}
	return nil
}

// keepErr makes an illegal keep match both ErrIllegal and
// dice.ErrIllegalKeep, and gives the dice package's refusal (errors.As a
// *dice.KeepError) to a front end that says it in the player's language.
type keepErr struct{ err *dice.KeepError }

func (e *keepErr) Error() string { return ErrIllegal.Error() }
func (e *keepErr) Is(target error) bool {
	return target == ErrIllegal || target == dice.ErrIllegalKeep
}

// As gives the dice package's refusal.
func (e *keepErr) As(target any) bool {
	if p, ok := target.(**dice.KeepError); ok {
		*p = e.err
		return true
	}
	return false
}

func (s *State) rollOff(src dice.Source) []Event {
	p := s.Actor()
	face := dice.Face(src)
	for i, c := range s.Contenders {
		if c == p {
			s.RollFaces[i] = face
		}
	}
	ev := []Event{{Kind: EvRollOff, Player: p, Dice: dice.Single(face, 1)}}
	return s.settleRollOff(ev)
}

// settleRollOff ends the roll-off in progress once every contender has
// thrown (the highest starts or wins; a tie throws again), or at once when
// a single contender is left because the others resigned.
func (s *State) settleRollOff(ev []Event) []Event {
	if len(s.Contenders) > 1 && s.Actor() >= 0 {
		return ev // others still to throw
	}
	top := s.Contenders
	if len(top) > 1 {
		high := 0
		for _, f := range s.RollFaces {
			high = max(high, f)
		}
		top = nil
		for i, f := range s.RollFaces {
			if f == high {
				top = append(top, s.Contenders[i])
			}
		}
	}
	if len(top) > 1 {
		s.startRollOff(top)
		return append(ev, Event{Kind: EvRollOffTie, Player: top[0], Players: top})
	}
	win := top[0]
	s.Contenders, s.RollFaces = nil, nil
	if s.Phase == PhaseFirstRollOff {
		s.Phase = PhasePlay
		s.startTurn(win)
		return append(ev, Event{Kind: EvFirstPlayer, Player: win}, Event{Kind: EvTurn, Player: win})
	}
	s.Phase = PhaseOver
	s.Winners = []int{win}
	return append(ev, Event{Kind: EvGameOver, Player: win, Players: s.Winners, Score: s.Players[win].Score})
}

// resign takes the actor out of the game for good: their turn total is
// lost, they leave a roll-off they were in, and they are skipped from then
// on. When one player is left in, that player wins at once (a one-player
// game that resigns ends with no winner); otherwise the game goes on with
// the next player in, and a final round runs on as before, even when the
// one who resigned started it.
func (s *State) resign() []Event {
	p := s.Actor()
	s.Players[p].Out = true
	ev := []Event{{Kind: EvResign, Player: p}}
	if s.Phase == PhasePlay {
		ev[0].Total = s.Total
		s.Total = 0
	}
	if in := s.In(); len(in) <= 1 {
		s.Phase = PhaseOver
		s.Step, s.Left, s.Throw, s.Kept = 0, 0, 0, 0
		s.Contenders, s.RollFaces = nil, nil
		if len(in) == 0 {
			s.Winners = nil
			return append(ev, Event{Kind: EvGameOver, Player: -1})
		}
		s.Winners = in
		return append(ev, Event{Kind: EvGameOver, Player: in[0], Players: in, Score: s.Players[in[0]].Score})
	}
	if s.Phase == PhasePlay {
		return s.endTurn(ev)
	}
	i := slices.Index(s.Contenders, p)
	s.Contenders = slices.Delete(s.Contenders, i, i+1)
	s.RollFaces = slices.Delete(s.RollFaces, i, i+1)
	return s.settleRollOff(ev)
}

func (s *State) throw(src dice.Source) []Event {
	r := s.cfg.rules
	p := s.Current
	n := s.ToThrow()
	h := dice.Throw(src, n)
	s.Throw, s.Kept = h, 0
	s.Left = n
	ev := []Event{{Kind: EvThrow, Player: p, Dice: h}}
	if !s.cfg.table.Farkle(h) {
		s.Step = StepKeep
		return ev
	}
	if n == 6 && r.Scoring.SixDiceNothing > 0 {
		s.Total += r.Scoring.SixDiceNothing
		s.Step = StepThrow
		return append(ev, Event{Kind: EvSixDiceNothing, Player: p, Points: r.Scoring.SixDiceNothing, Total: s.Total})
	}
	pl := &s.Players[p]
	pl.Streak++
	pl.Farkles++
	ev = append(ev, Event{Kind: EvFarkle, Player: p, Total: s.Total, Streak: pl.Streak})
	if pen := r.Turn.FarklePenalty; pen.Count > 0 && pl.Streak >= pen.Count {
		lost := min(pen.Points, pl.Score)
		pl.Score -= lost
		pl.Penalty += lost
		ev = append(ev, Event{Kind: EvPenalty, Player: p, Points: lost, Score: pl.Score, Streak: pl.Streak})
		pl.Streak = 0
	}
	s.Total = 0
	return s.endTurn(ev)
}

func (s *State) keep(k dice.Hand) []Event {
	pts, _ := s.cfg.table.Points(k)
	p := s.Current
	s.Total += pts
	s.Left -= k.N()
	s.Kept = k
	s.Step = StepChoose
	ev := []Event{{Kind: EvKeep, Player: p, Dice: k, Points: pts, Total: s.Total}}
	if s.Left == 0 && s.cfg.rules.Turn.HotDice {
		ev = append(ev, Event{Kind: EvHotDice, Player: p, Total: s.Total})
	}
	if ok, _ := s.CanBank(); !ok && !s.CanThrow() {
		ev = append(ev, Event{Kind: EvTurnLost, Player: p, Total: s.Total})
		s.Total = 0
		return s.endTurn(ev)
	}
	return ev
}

func (s *State) bank() []Event {
	r := s.cfg.rules
	p := s.Current
	pl := &s.Players[p]
	pl.Score += s.Total
	pl.Banked += s.Total
	pl.BestTurn = max(pl.BestTurn, s.Total)
	pl.Streak = 0
	ev := []Event{{Kind: EvBank, Player: p, Points: s.Total, Score: pl.Score}}
	s.Total = 0
	if pl.Score >= r.Game.Target {
		if r.Game.Ending == rules.EndImmediate {
			s.Phase = PhaseOver
			s.Winners = []int{p}
			return append(ev, Event{Kind: EvGameOver, Player: p, Players: s.Winners, Score: pl.Score})
		}
		if !s.FinalRound {
			s.FinalRound = true
			s.Trigger = p
			ev = append(ev, Event{Kind: EvFinalRound, Player: p, Score: pl.Score})
		}
	}
	return s.endTurn(ev)
}

// endTurn passes the dice to the next player still in, or ends the game
// after the final round: when the dice would reach or pass the seat of the
// player who started it (who may have resigned since). Without a final
// round, the game also ends when it reaches game.max_turns (capReached).
func (s *State) endTurn(ev []Event) []Event {
	s.Step, s.Left, s.Throw, s.Kept = 0, 0, 0, 0
	n := len(s.Players)
	next := s.Current
	for k := 1; k <= n; k++ {
		next = (s.Current + k) % n
		if s.FinalRound && next == s.Trigger {
			return s.finish(ev)
		}
		if !s.Players[next].Out {
			break
		}
	}
	if m := s.cfg.rules.Game.MaxTurns; m > 0 && !s.FinalRound && s.capReached(m) {
		ev = append(ev, Event{Kind: EvTurnLimit, Player: s.Current, Turns: m})
		return s.finish(ev)
	}
	s.startTurn(next)
	return append(ev, Event{Kind: EvTurn, Player: next})
}

// capReached reports whether every player still in has started m turns.
// Turns go round in seat order, so this happens exactly at the end of a
// round: everyone in has had the same number of turns.
func (s *State) capReached(m int) bool {
	for _, p := range s.Players {
		if !p.Out && p.Turns < m {
			return false
		}
	}
	return true
}

// finish ends the game on the highest score of the players still in: one
// winner, a shared win, or a tie roll-off.
func (s *State) finish(ev []Event) []Event {
	high := -1
	for _, p := range s.Players {
		if !p.Out {
			high = max(high, p.Score)
		}
	}
	var top []int
	for i, p := range s.Players {
		if !p.Out && p.Score == high {
			top = append(top, i)
		}
	}
	if len(top) > 1 && s.cfg.rules.Game.Tie == rules.RollOff {
		s.Phase = PhaseTieRollOff
		s.startRollOff(top)
		return append(ev, Event{Kind: EvTie, Player: top[0], Players: top, Score: high})
	}
	s.Phase = PhaseOver
	s.Winners = top
	return append(ev, Event{Kind: EvGameOver, Player: top[0], Players: top, Score: high})
}
