package advise

import (
	"fmt"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
)

// Soldiers measures a Dragon Farkle decision by the soldiers it is
// expected to bring: banked this turn while recruiting, or the net gain
// against the opponents of a brawl (dragon.UnitSoldiers).
const Soldiers Measure = "expected soldiers"

// dragonMeasures are the measures of dragon.Advice's units.
var dragonMeasures = map[string]Measure{dragon.UnitSoldiers: Soldiers, dragon.UnitPWin: WinProbability}

// AnalyzeDragon verifies rec, a Dragon Farkle record whose seed is
// revealed (game.Verify), and values its decisions as AnalyzeDragonSteps
// does.
func AnalyzeDragon(rec *game.Record) (*Report, error) {
	if rec.Kind != game.Dragon {
		return nil, fmt.Errorf("advise: a %s record is not a Dragon Farkle record", rec.Kind)
	}
	final, steps, err := game.Verify(rec)
	if err != nil {
		return nil, err
	}
	return AnalyzeDragonSteps(final.Variant().(*game.DragonVariant), rec.Players, steps)
}

// AnalyzeDragonSteps values every real decision of a game of Dragon
// Farkle played by players, given as the steps of game.Verify, game.Replay
// or game.Resume: a choice among actions the Smart bot's tables value in
// one unit (dragon.Brains.Advise; the hint of the terminal game), with the
// best of them and what the one played lost. The Report's Measure is
// Soldiers: recruiting, and choosing between recruiting and brawls; the
// Final Battle's keeps, throws and retreats are valued by the probability
// of slaying the dragon (WinProbability, set on those decisions). Choices
// the tables cannot value are no decisions: uses and discards of cards,
// and the start of a turn when battling is among the choices (its value is
// a probability, the others' soldiers).
func AnalyzeDragonSteps(v *game.DragonVariant, players []string, steps []game.Step) (*Report, error) {
	brains := dragon.NewBrains(v.Game())
	rep := &Report{Rules: v.Name(), Measure: Soldiers, Decisions: []Decision{}}
	turn := 0
	for i, st := range steps {
		before, ok := st.Before.(*game.DragonGame)
		played, isDragon := st.Action.(dragon.Action)
		if !ok || !isDragon {
			return nil, fmt.Errorf("advise: action %d is not of a Dragon Farkle game", i+1)
		}
		if len(before.Players()) != len(players) || st.Seat < 0 || st.Seat >= len(players) {
			return nil, fmt.Errorf("advise: action %d: seat %d of a game of %d players, not of %d", i+1, st.Seat, len(before.Players()), len(players))
		}
		view := v.Game().View(before.State(), st.Seat)
		if view.Phase == dragon.PhaseChoose {
			turn++
		}
		adv := brains.Advise(view)
		if len(adv) < 2 || !dragon.OneUnit(adv) {
			continue
		}
		best, mine := -1, -1
		for j, a := range adv {
			if best < 0 || a.Value > adv[best].Value {
				best = j
			}
			if a.Action == played {
				mine = j
			}
		}
		if mine < 0 {
			continue // a card played: the tables do not value it
		}
		d := Decision{
			Action: i + 1, Turn: turn, Player: st.Seat, Name: players[st.Seat],
			Position: dragonPosition(view), Played: dragonAction(adv[mine].Action, players), Best: dragonAction(adv[best].Action, players),
			Value: adv[mine].Value, BestValue: adv[best].Value, Loss: max(0, adv[best].Value-adv[mine].Value),
			Measure: dragonMeasures[adv[mine].Unit],
		}
		if d.Loss < Tolerance {
			d.Loss = 0
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	rep.summarize(players)
	return rep, nil
}

// dragonPosition is the decision of v's seat in the terms of Position:
// Me and Them are soldiers (Them the strongest opponent's), Total the pool
// of the recruiting turn, Dice the dice to throw or thrown, Throw the
// throw to keep from.
func dragonPosition(v dragon.View) Position {
	p := Position{Me: v.Players[v.Seat].Soldiers, Total: v.Pool, Dice: v.Dice}
	for i, o := range v.Players {
		if i != v.Seat {
			p.Them = max(p.Them, o.Soldiers)
		}
	}
	if v.Phase == dragon.PhaseKeep {
		p.Throw = v.Throw
		p.Dice = v.Throw.N()
	}
	return p
}

// dragonAction names an action with the players' names: "brawl Ana",
// "keep 1-5 (double)", "roll".
func dragonAction(a dragon.Action, players []string) string {
	if a.Kind == dragon.ActBrawl && a.Target >= 0 && a.Target < len(players) {
		return "brawl " + players[a.Target]
	}
	return a.String()
}
