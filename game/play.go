package game

import (
	"encoding/json"
	"errors"
	mrand "math/rand/v2"

	"github.com/farkle/farkle/dice"
)

// Play is one game being played: the game now, the source of its dice
// keyed by the secret seed, and its record. When the game ends the seed is
// revealed in the record with the winners and scores. It is not safe for
// concurrent use.
type Play struct {
	game Game
	rec  *Record
	seed dice.Seed
	src  dice.Source
	// started is what happened at the start (a deal, the first player).
	started []Event
	// before is what Undo restores: the game and the state of the dice
	// source (dice.NewSource's) before the last action Do played, if ok.
	before struct {
		ok   bool
		game Game
		src  mrand.ChaCha8
	}
}

// Start begins a game of v for the named players with the seed.
func Start(v Variant, players []string, seed dice.Seed) (*Play, []Event, error) {
	src := dice.NewSource(seed)
	g, evs, err := v.Start(players, src)
	if err != nil {
		return nil, nil, err
	}
	return &Play{game: g, rec: NewRecord(v, players, seed), seed: seed, src: src, started: evs}, evs, nil
}

// Resume rebuilds a game from its record and the seed it committed to,
// checking every action as Verify does, and returns it with the steps so
// far, ready for the next action.
func Resume(rec *Record, seed dice.Seed) (*Play, []Step, error) {
	g, steps, src, started, err := replay(rec, seed)
	if err != nil {
		return nil, nil, err
	}
	cp := *rec
	cp.Actions = append([]json.RawMessage(nil), rec.Actions...)
	return &Play{game: g, rec: &cp, seed: seed, src: src, started: started}, steps, nil
}

// Started returns the events of the game's start (Variant.Start's), for a
// front end that shows a resumed game from its beginning.
func (p *Play) Started() []Event { return p.started }

// Game returns the game now.
func (p *Play) Game() Game { return p.game }

// Record returns the record so far.
func (p *Play) Record() *Record { return p.rec }

// Seed returns the secret seed.
func (p *Play) Seed() dice.Seed { return p.seed }

// Check reports whether Do would accept the action from seat.
func (p *Play) Check(seat int, a Action) error { return p.game.Check(seat, a) }

// Do plays the action from seat and records it. On error nothing changes.
func (p *Play) Do(seat int, a Action) ([]Event, error) {
	src, keep := p.src.(*mrand.ChaCha8)
	if keep {
		p.before.src = *src
	}
	next, evs, err := p.game.Apply(seat, a, p.src)
	if err != nil {
		if keep {
			*src = p.before.src
		}
		return nil, err
	}
	p.before.ok, p.before.game = keep, p.game
	p.game = next
	p.rec.Actions = append(p.rec.Actions, next.Variant().Entry(seat, a, evs))
	if next.Over() {
		p.rec.Seed = p.seed.Hex()
		p.rec.Meta.Winners = next.Winners()
		p.rec.Meta.Scores = next.Scores()
	}
	return evs, nil
}

// Undo takes back the last action Do played, once: the game, the dice
// source and the record (its entries, seed, winners and scores) are as
// they were before it, as if it had never been played. It is for a front
// end whose store refused the action, and fails when there is no action
// to take back.
func (p *Play) Undo() error {
	src, ok := p.src.(*mrand.ChaCha8)
	if !p.before.ok || !ok || len(p.rec.Actions) == 0 {
		return errors.New("game: no action to take back")
	}
	*src = p.before.src
	p.game = p.before.game
	p.rec.Actions = p.rec.Actions[:len(p.rec.Actions)-1]
	p.rec.Seed = ""
	p.rec.Meta.Winners, p.rec.Meta.Scores = nil, nil
	p.before.ok, p.before.game = false, nil
	return nil
}

// Set replaces the game now by g, a set position of the same variant (for
// tests and puzzles): from then on the record no longer replays to the
// game.
func (p *Play) Set(g Game) { p.game, p.before.ok, p.before.game = g, false, nil }
