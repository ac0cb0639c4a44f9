package server

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/store"
)

// gameKind is what the server does differently for each kind of game
// (game.Kind): the messages and views on the wire, the bot levels it
// takes, what plays for a seat out of time, the hints, the stats; the bots
// themselves and Dragon Farkle's advisor come from the Cast (Options.Cast). Everything else (seats, tokens, the order of the checks, the
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
	// botLevel checks a bot level asked for and returns its canonical
	// name.
	botLevel(level string) (string, error)
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

// tableBot is a game.Bot at a table: its random choices come from the
// table's bot source.
type tableBot struct {
	b   game.Bot
	src *lockedSource
}

// Act is the bot's choice.
func (b tableBot) Act(g game.Game, seat int) (game.Action, error) {
	b.src.mu.Lock()
	defer b.src.mu.Unlock()
	return b.b.Choose(g, seat, b.src.src)
}

// prepare loads what a solver bot needs for a game of players seats (its
// PrepareFor, else its Prepare), at once for others.
func (b tableBot) prepare(players int) error {
	if p, ok := b.b.(interface{ PrepareFor(int) error }); ok {
		return p.PrepareFor(players)
	}
	if p, ok := b.b.(interface{ Prepare() error }); ok {
		return p.Prepare()
	}
	return nil
}

// fallback says why the bot plays below its level (the zero Why if it does
// not), for the seat's note.
func (b tableBot) fallback() solved.Why {
	if f, ok := b.b.(interface{ FallbackWhy() solved.Why }); ok {
		return f.FallbackWhy()
	}
	return solved.Why{}
}

// lockedSource is the source of a table's bots' random choices, derived
// from the table's seed (game.BotSource), shared by its bots.
type lockedSource struct {
	mu  sync.Mutex
	src dice.Source
}

// botSource returns the source of the table's bots. t.mu is held.
func (t *table) botSource() *lockedSource {
	if t.botSrc == nil {
		t.botSrc = &lockedSource{src: game.BotSource(t.meta.Seed)}
	}
	return t.botSrc
}

// seatBotOf returns the bot of level at the table: the Cast's.
func (t *table) seatBotOf(level string) (seatBot, error) {
	b, err := t.srv.cast().Bot(t.kind.variant(), level)
	if err != nil {
		return nil, err
	}
	return tableBot{b: b, src: t.botSource()}, nil
}

// defaultCast is the Cast of a server whose Options name none: package
// advise's bots, and hints for Dragon Farkle only (the ordinary game's
// advisors would wait for solves: a server gives its hints with a live
// Cast, advise.Live).
var defaultCast = sync.OnceValue(func() game.Cast { return NoHints(advise.Cast(nil), game.Farkle) })

// cast returns the Players of every kind the server plays.
func (s *Server) cast() game.Cast {
	if s.opt.Cast != nil {
		return s.opt.Cast
	}
	return defaultCast()
}

// kindViews makes the gameKind of each kind of game the server serves
// (farkle.go, dragon.go): the one place the server tells the kinds apart.
var kindViews = map[game.Kind]func(s *Server, v game.Variant) (gameKind, error){}

// kinds caches the kinds of game the server serves whose preparation is
// costly (Dragon Farkle's odds table), by kind and rules.
type kinds struct {
	mu sync.Mutex
	m  map[string]gameKind
}

// cached returns the kind of v made once by make.
func (s *Server) cached(v game.Variant, make func() gameKind) gameKind {
	key := string(v.Kind()) + "\x00" + string(v.Rules())
	s.kinds.mu.Lock()
	defer s.kinds.mu.Unlock()
	if k, ok := s.kinds.m[key]; ok {
		return k
	}
	if s.kinds.m == nil {
		s.kinds.m = map[string]gameKind{}
	}
	k := make()
	s.kinds.m[key] = k
	return k
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
	view, ok := kindViews[v.Kind()]
	if !ok {
		return nil, fmt.Errorf("this server does not serve games of kind %q", v.Kind())
	}
	return view(s, v)
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
