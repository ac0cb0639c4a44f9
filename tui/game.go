package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// logSize is how many log lines a Game keeps.
const logSize = 200

// Kept is one keep of the turn in progress.
type Kept struct {
	Dice   dice.Hand
	Points int
}

// Game is a game of ordinary Farkle being played in the terminal: the
// table (the game from its seed, the seats, the save file), the seats'
// bots, the log of what happened and the keeps of the turn. It is not safe
// for concurrent use.
type Game struct {
	*table
	tables *solved.Tables // the solver results the bots play from
	bots   []game.Bot     // nil for people

	log   []logLine // one line per event, oldest first
	keeps []Kept    // keeps of the turn in progress
	meter *SolveMeter
	lc    *lang.Catalogue // the language of the log and line mode; nil: English

	online *online // a game played at a server (online.go); nil for a local one
}

// logLine is a line of the log, written in the language asked for.
type logLine func(c *lang.Catalogue) string

// SetLang sets the language of the game's log and of line mode (RunLines);
// nil is English.
func (g *Game) SetLang(c *lang.Catalogue) { g.lc = c }

// Lang returns the language of the game's texts (English unless SetLang
// chose another).
func (g *Game) Lang() *lang.Catalogue { return orEnglish(g.lc) }

// FollowSolves has line mode say how far the solves preparing the bots
// are, read from m (whose Progress the bots' tables report to).
func (g *Game) FollowSolves(m *SolveMeter) { g.meter = m }

// NewGame starts a game under r with the seats and the dice seed. It is
// saved to path ("" for never); now stamps the record (nil: time.Now); the
// bots play from the solver results of ts (nil: solved.DefaultTables()).
func NewGame(r rules.Rules, seats []Seat, seed dice.Seed, path string, now func() time.Time, ts *solved.Tables) (*Game, error) {
	v, err := game.NewFarkle(r)
	if err != nil {
		return nil, err
	}
	t, _, err := startTable(v, seats, seed, path, now)
	if err != nil {
		return nil, err
	}
	g := &Game{table: t, tables: ts}
	if err := g.makeBots(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Game) makeBots() error {
	g.bots = make([]game.Bot, len(g.seats))
	for i, s := range g.seats {
		if !s.IsBot() {
			continue
		}
		if g.tables == nil {
			g.tables = solved.DefaultTables()
		}
		b, err := advise.Cast(g.tables).Bot(g.play.Game().Variant(), s.Bot)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrPlayers, s.Name, err)
		}
		g.bots[i] = b
	}
	return nil
}

// fallbacker is a bot that may play at a simpler level, and says why
// (bot.Perfect as expert: no three-player table for these rules, say).
type fallbacker interface{ FallbackWhy() solved.Why }

// Fallbacks returns, by seat, why each bot plays at a simpler level than
// its own now (the zero Why for none), to be said in the player's
// language (Why.In).
func (g *Game) Fallbacks() []solved.Why {
	out := make([]solved.Why, len(g.bots))
	for i, b := range g.bots {
		if f, ok := b.(fallbacker); ok {
			out[i] = f.FallbackWhy()
		}
	}
	return out
}

// preparer is a bot with solver results to load (or compute) before its
// first decision, which can take minutes the first time for a rule set.
type preparer interface{ Prepare() error }

// NeedsPrepare returns the names of the bots that have something to load
// before they play (see Prepare).
func (g *Game) NeedsPrepare() []string {
	var out []string
	for i, b := range g.bots {
		if _, ok := b.(preparer); ok {
			out = append(out, g.seats[i].Name)
		}
	}
	return out
}

// Prepare loads what the bots need before their first decision. It may
// take long (a solver run the first time for a rule set) and is safe to
// call from another goroutine while nothing else uses the game's bots. A
// bot whose preparation fails plays at a simpler level; the errors are
// returned joined.
func (g *Game) Prepare() error {
	var errs []error
	for i, b := range g.bots {
		if p, ok := b.(preparer); ok {
			if err := p.Prepare(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", g.seats[i].Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// State returns the game's engine state.
func (g *Game) State() engine.State { return g.play.Game().(*game.FarkleGame).State() }

// Rules returns the rules of the game.
func (g *Game) Rules() rules.Rules { return g.State().Rules() }

// Log returns the last lines of the log, oldest first (at most logSize),
// in the game's language.
func (g *Game) Log() []string {
	c := g.Lang()
	out := make([]string, len(g.log))
	for i, l := range g.log {
		out[i] = l(c)
	}
	return out
}

// Keeps returns the keeps of the turn in progress.
func (g *Game) Keeps() []Kept { return g.keeps }

// Actor returns the seat to act, -1 when the game is over.
func (g *Game) Actor() int { return g.State().Actor() }

// BotToAct reports whether a bot is to act.
func (g *Game) BotToAct() bool {
	a := g.Actor()
	return a >= 0 && g.bots[a] != nil
}

// AutoToAct reports whether the next action needs no person's decision:
// a bot is to act, or a roll-off die is to be thrown (people's roll-off
// throws are made for them). A person's throw at the start of a turn is not
// automatic: the terminal game waits for r (line mode throws it at once).
func (g *Game) AutoToAct() bool {
	s := g.State()
	if g.online != nil {
		return g.online.autoToAct(s)
	}
	return !s.Over() && (g.BotToAct() || s.Phase != engine.PhasePlay)
}

// Auto plays the next action that needs no person's decision (see
// AutoToAct) and returns its events.
func (g *Game) Auto() (engine.Action, []engine.Event, error) {
	s := g.State()
	a := g.Actor()
	if a < 0 {
		return engine.Action{}, nil, engine.ErrGameOver
	}
	var act engine.Action
	switch {
	case g.online != nil:
		act = engine.RollOffBy(a)
		return act, nil, g.online.send(s.Version, act)
	case g.bots[a] != nil:
		ba, err := g.bots[a].Choose(g.play.Game(), a, nil)
		if err != nil {
			return engine.Action{}, nil, err
		}
		act = ba.(engine.Action)
	case s.Phase != engine.PhasePlay:
		act = engine.RollOffBy(a)
	default:
		return engine.Action{}, nil, fmt.Errorf("tui: %s decides for themselves", s.Players[a].Name)
	}
	ev, err := g.Do(act)
	return act, ev, err
}

// Do applies a, logs its events and saves the game at the end of a turn
// or of the game. On error nothing changes and the error is the engine's.
func (g *Game) Do(a engine.Action) ([]engine.Event, error) {
	if g.online != nil {
		// The server plays it; its events come back with its update. It
		// is checked here when it is the next action (not one sent
		// after another still on its way: keep and bank).
		if g.online.inFlight == 0 {
			if err := g.play.Check(a.Player, a); err != nil {
				return nil, err
			}
		}
		return nil, g.online.send(g.State().Version, a)
	}
	evs, err := g.do(a.Player, a)
	if err != nil {
		return nil, err
	}
	ev := make([]engine.Event, len(evs))
	turnEnded := false
	for i, e := range evs {
		ev[i] = e.(engine.Event)
		g.note(ev[i])
		if ev[i].Kind == engine.EvTurn || ev[i].Kind == engine.EvGameOver {
			turnEnded = true
		}
	}
	if turnEnded {
		g.saved = g.Save()
	}
	return ev, nil
}

// logSay adds a line of the table's own to the log, in the language it
// is read in.
func (g *Game) logSay(line func(c *lang.Catalogue) string) {
	g.log = append(g.log, line)
	if len(g.log) > logSize {
		g.log = append(g.log[:0:0], g.log[len(g.log)-logSize:]...)
	}
}

// note records an event in the log and the turn's keeps.
func (g *Game) note(e engine.Event) {
	switch e.Kind {
	case engine.EvTurn:
		g.keeps = nil
	case engine.EvKeep:
		g.keeps = append(g.keeps, Kept{Dice: e.Dice, Points: e.Points})
	}
	t := g.teller()
	g.log = append(g.log, func(c *lang.Catalogue) string { return t.say(c, e) })
	if len(g.log) > logSize {
		g.log = append(g.log[:0:0], g.log[len(g.log)-logSize:]...)
	}
}

// Describe is engine.Event.Describe with the grammar fixed for a player
// called "you" ("you throw 1 2 3", "your turn").
func Describe(e engine.Event, names []string) string { return describeIn(nil, e, names) }

// Reason returns the part of an engine, dice or save error a player needs:
// "keep 2 2: 2 2 scores only as part of three of a kind" without the
// "engine: illegal action: " prefix.
func Reason(err error) string {
	msg := err.Error()
	for _, e := range []error{engine.ErrIllegal, engine.ErrNotYourTurn, engine.ErrUnknownAction, engine.ErrGameOver, dice.ErrBadThrow, ErrSave} {
		if errors.Is(err, e) {
			msg = strings.TrimPrefix(msg, e.Error())
			msg = strings.TrimPrefix(msg, ": ")
		}
	}
	if msg == "" {
		return err.Error()
	}
	return msg
}

// Winners returns the end-of-game line: "winner: ana with 10250", or
// "winners: ana, bob with 10000" for a shared win; "" while the game goes on.
func (g *Game) Winners() string {
	s := g.State()
	if !s.Over() {
		return ""
	}
	c := g.Lang()
	if len(s.Winners) == 0 {
		return c.Msg("tui.lines.noWinner") // the only player resigned
	}
	names := make([]string, len(s.Winners))
	for i, w := range s.Winners {
		names[i] = s.Players[w].Name
	}
	return c.Msg("tui.lines.winners", "n", len(names), "names", strings.Join(names, ", "), "score", s.Players[s.Winners[0]].Score)
}

// Preview returns the state after keeping k from the throw on the table,
// without committing it, or the engine's error. Points of the keep are
// Total - before.Total.
func (g *Game) Preview(k dice.Hand) (engine.State, error) {
	s := g.State()
	next, _, err := engine.Apply(s, engine.KeepBy(s.Current, k), nil)
	return next, err
}
