package online

import (
	"encoding/json"
	"fmt"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/record"
)

// thrown is a dice source that gives the dice the server says it threw,
// so that the engine here reaches the server's state and events.
type thrown struct{ faces []int }

func (t *thrown) Uint64() uint64 {
	if len(t.faces) == 0 {
		return 0 // a throw the server did not report: the state check catches it
	}
	f := t.faces[0]
	t.faces = t.faces[1:]
	return uint64(f - 1)
}

// mirror is the server's game rebuilt here from its actions and the dice
// they threw: every action is played by the engine, so the terminal has
// the whole engine state (and the events for its log) and not just what
// the wire shows.
type mirror struct {
	v game.Variant
	g game.Game
}

// replayRecord rebuilds the game of a record (of an unfinished game: its
// seed hidden) from its recorded dice, returning every event.
func replayRecord(rec *game.Record) (*mirror, []engine.Event, error) {
	if rec.Kind != game.Farkle {
		return nil, nil, fmt.Errorf("online: a table of %s; the terminal plays ordinary Farkle online", rec.Kind)
	}
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, err
	}
	g, _, err := v.Start(rec.Players, nil)
	if err != nil {
		return nil, nil, err
	}
	m := &mirror{v: v, g: g}
	var all []engine.Event
	for i, raw := range rec.Actions {
		var e record.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, nil, fmt.Errorf("online: action %d of the record: %w", i+1, err)
		}
		evs, err := m.apply(e)
		if err != nil {
			return nil, nil, fmt.Errorf("online: action %d of the record: %w", i+1, err)
		}
		all = append(all, evs...)
	}
	return m, all, nil
}

// apply plays one action with the dice it threw.
func (m *mirror) apply(e record.Entry) ([]engine.Event, error) {
	next, evs, err := m.g.Apply(e.Player, e.Action, &thrown{faces: e.Threw.Faces()})
	if err != nil {
		return nil, err
	}
	m.g = next
	out := make([]engine.Event, len(evs))
	for i, ev := range evs {
		out[i] = ev.(engine.Event)
	}
	return out, nil
}
