package online

import (
	"encoding/json"
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/record"
)

// The ordinary game online: the record so far replayed with its recorded
// dice, then each update's action with the dice it threw, so that the
// terminal holds the whole engine state as the server does.
func init() {
	followers[game.Farkle] = followerKind{
		started: func(welcome []byte) bool {
			var m struct {
				State json.RawMessage `json:"state"`
			}
			return json.Unmarshal(welcome, &m) == nil && len(m.State) > 0 && string(m.State) != "null"
		},
		start: func(rec *game.Record, _ []byte, _ int) (follower, []game.Event, error) {
			m, evs, err := replayRecord(rec)
			return m, evs, err
		},
	}
}

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
func replayRecord(rec *game.Record) (*mirror, []game.Event, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, err
	}
	g, _, err := v.Start(rec.Players, nil)
	if err != nil {
		return nil, nil, err
	}
	m := &mirror{v: v, g: g}
	var all []game.Event
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
func (m *mirror) apply(e record.Entry) ([]game.Event, error) {
	next, evs, err := m.g.Apply(e.Player, e.Action, &thrown{faces: e.Threw.Faces()})
	if err != nil {
		return nil, err
	}
	m.g = next
	return evs, nil
}

func (m *mirror) game() game.Game { return m.g }

// farkleUpdate is the part of an update of the ordinary game the mirror
// reads.
type farkleUpdate struct {
	State *struct{ Version int } `json:"state"`
	// Action is the action played, Threw the dice it threw.
	Action *engine.Action `json:"action"`
	Threw  []int          `json:"threw"`
}

// update plays the action of an update on the mirror; one it missed
// (after a gap) or one that does not give the server's state is an error.
func (m *mirror) update(msg []byte) ([]game.Event, bool, error) {
	var u farkleUpdate
	if err := json.Unmarshal(msg, &u); err != nil {
		return nil, false, err
	}
	if u.State == nil || u.Action == nil {
		return nil, false, nil
	}
	if u.State.Version <= m.g.Version() {
		return nil, false, nil // already here (the welcome's record had it)
	}
	if u.State.Version != m.g.Version()+1 {
		return nil, false, fmt.Errorf("online: update %d after %d", u.State.Version, m.g.Version())
	}
	threw, err := dice.FromFaces(u.Threw)
	if err != nil {
		return nil, false, err
	}
	evs, err := m.apply(record.Entry{Action: *u.Action, Threw: threw})
	if err != nil {
		return nil, false, err
	}
	if m.g.Version() != u.State.Version {
		return nil, false, fmt.Errorf("online: the action gave version %d, the server %d", m.g.Version(), u.State.Version)
	}
	return evs, true, nil
}

// wire is an engine.Action as an action message has it.
func (m *mirror) wire(a game.Action) (any, error) {
	ea, ok := a.(engine.Action) // this follower's own variant's action
	if !ok {
		return nil, fmt.Errorf("online: %T is not an action of the ordinary game", a)
	}
	act := map[string]any{"type": ea.Kind.String()}
	if ea.Kind == engine.Keep {
		act["dice"] = ea.Dice.Faces()
	}
	return act, nil
}
