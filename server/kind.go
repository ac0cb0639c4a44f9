package server

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/store"
)

// gameKind is what the server does differently for each kind of game
// (game.Kind): the messages and views on the wire, the bots, the hints,
// the stats. Everything else (seats, tokens, the order of the checks, the
// store, the turn clock, failures, restarts) is the table's, the same for
// every kind. farkle.go and dragon.go implement it.
type gameKind interface {
	// variant is the game the table plays.
	variant() game.Variant
	// rules are the variant's rules as JSON (Variant.Rules, made once).
	rules() json.RawMessage
	// hints reports whether the table serves hints.
	hints() bool

	// checkSeats refuses a new table of n seats.
	checkSeats(n int) error
	// defaultBot is the level of the bot seated by default.
	defaultBot() string
	// botLevel checks a bot level asked for and returns its canonical name.
	botLevel(level string) (string, error)
	// bot makes the bot of a seat at level.
	bot(t *table, level string) (seatBot, error)
	// clockBot makes what plays for a seat whose clock ran out.
	clockBot(t *table) seatBot
	// resign is the action that resigns seat, nil if the kind has none.
	resign(seat int) game.Action

	// parseAction reads the action of an action message.
	parseAction(raw json.RawMessage) (game.Action, error)
	// welcome is the welcome message for seat (-1: a watcher).
	// Its log lines are written in the language of c.
	welcome(t *table, seat int, you youView, c *lang.Catalogue) any
	// update is the update message for seat after actor played a.
	update(t *table, seat int, tv tableView, actor int, a game.Action, evs []game.Event, c *lang.Catalogue) any
	// private reports whether seats see different games (update depends
	// on its seat), so that the broadcast encodes one update a seat, not
	// one for all.
	private() bool
	// tableJSON is the table as GET /api/tables/{id} shows it.
	tableJSON(t *table, tv tableView) any
	// hint answers a hint message.
	hint(c *client, m clientMsg)
	// replay is every step of the game of rec, as GET
	// /api/tables/{id}/replay shows it (replayOf).
	replay(t *table, tv tableView, rec *game.Record, c *lang.Catalogue) (any, error)
	// result fills the counts of seat's stats line from the final game.
	result(g game.Game, seat int, r *store.Result)
}

// seatBot chooses the action of a seat the server plays: a bot's, or a
// player's whose clock ran out. It is called without the table's lock.
type seatBot interface {
	Act(g game.Game, seat int) (game.Action, error)
}

// kinds caches the kinds of game the server serves whose preparation is
// costly (Dragon Farkle's bots' tables), by kind and rules.
type kinds struct {
	mu sync.Mutex
	m  map[string]*dragonKit
}

// kindOf returns the gameKind of a stored table.
func (s *Server) kindOf(tb store.Table) (gameKind, error) {
	v, err := tb.Variant()
	if err != nil {
		return nil, err
	}
	return s.kindOfVariant(v)
}

// kindOfVariant returns the gameKind of variant v.
func (s *Server) kindOfVariant(v game.Variant) (gameKind, error) {
	switch v := v.(type) {
	case *game.FarkleVariant:
		return &farkleKind{srv: s, v: v, r: v.RuleSet(), rj: v.Rules()}, nil
	case *game.DragonVariant:
		key := string(v.Rules())
		s.kinds.mu.Lock()
		defer s.kinds.mu.Unlock()
		if k, ok := s.kinds.m[key]; ok {
			return k, nil
		}
		if s.kinds.m == nil {
			s.kinds.m = map[string]*dragonKit{}
		}
		k := newDragonKit(v)
		s.kinds.m[key] = k
		return k, nil
	}
	return nil, fmt.Errorf("this server does not serve games of kind %q", v.Kind())
}

// playing returns the table's game as the kind's type G, ok false before
// it starts. t.mu is held.
func playing[G game.Game](t *table) (g G, ok bool) {
	if t.play == nil {
		return g, false
	}
	g, ok = t.play.Game().(G)
	return g, ok
}

// replayView is a replay as GET /api/tables/{id}/replay shows it: the
// table, the game before the first action and every step, each as the
// table's kind shows them.
type replayView[S, T any] struct {
	Table tableView `json:"table"`
	Start S         `json:"start"`
	Steps []T       `json:"steps"`
}

// replayOf replays rec from the table's seed (the seed stays on the
// server: every view is a watcher's) and shows the game before the first
// action with start and every step, with the game after it, with step.
func replayOf[S, T any](t *table, tv tableView, rec *game.Record, start func(game.Game) S,
	step func(i int, st game.Step, after game.Game) T) (replayView[S, T], error) {
	out := replayView[S, T]{Table: tv, Steps: []T{}}
	final, steps, err := game.Replay(rec, t.meta.Seed)
	if err != nil {
		return out, err
	}
	for i, st := range steps {
		after := final
		if i+1 < len(steps) {
			after = steps[i+1].Before
		}
		if i == 0 {
			out.Start = start(st.Before)
		}
		out.Steps = append(out.Steps, step(i, st, after))
	}
	return out, nil
}
