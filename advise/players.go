package advise

import (
	"errors"
	"fmt"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// Cast returns the Players of every kind of game: game.DefaultCast and
// the ordinary game's, whose bots (package bot) and advisors (this
// package) take their solver results from ts (nil: solved.DefaultTables()).
// It is the one place a front end gets bots by level and advisors,
// whatever the variant.
func Cast(ts *solved.Tables, opts ...Option) game.Cast {
	o := ordinary{tables: ts, duels: true}
	for _, f := range opts {
		f(&o)
	}
	return game.DefaultCast().With(game.Farkle, o)
}

// Option changes the ordinary game's Players of a Cast.
type Option func(*ordinary)

// Live makes the ordinary game's advisors never wait for a duel or
// three-player table, as a server's hints must not: win probabilities once
// the table is in memory (the first request starts getting it through the
// scheduler of the Tables), expected points until then, with a note that
// says why. With duels false they never ask for either table at all.
func Live(duels bool) Option {
	return func(o *ordinary) { o.live, o.duels = true, duels }
}

// ordinary are the ordinary game's bots and advisors.
type ordinary struct {
	tables      *solved.Tables
	live, duels bool
}

func (o ordinary) Levels() []game.BotLevel { return bot.GameLevels() }
func (o ordinary) DefaultLevel() string    { return bot.DefaultLevel }

// rulesOf returns the rules of an ordinary game's variant.
func rulesOf(v game.Variant) (rules.Rules, error) {
	if v.Kind() != game.Farkle {
		return rules.Rules{}, fmt.Errorf("%w: %s is not ordinary Farkle", game.ErrNoPlayers, v.Kind())
	}
	return v.Scoring(), nil
}

// Bot returns bot.New's bot of level under v's rules.
func (o ordinary) Bot(v game.Variant, level string) (game.Bot, error) {
	r, err := rulesOf(v)
	if err != nil {
		return nil, err
	}
	s, err := bot.New(level, r, bot.WithTables(o.tables))
	if err != nil {
		return nil, err
	}
	return bot.Of(s), nil
}

// Advisor returns For's advisor of v's rules for players players, or the
// live one (see Live).
func (o ordinary) Advisor(v game.Variant, players int) (game.Advisor, error) {
	r, err := rulesOf(v)
	if err != nil {
		return nil, err
	}
	if o.live {
		return &liveAdvisor{tables: o.tables, r: r, players: players, duels: o.duels}, nil
	}
	return For(r, players, o.tables)
}

// Advise implements game.Advisor for the ordinary game: the advice of
// State for the seat to act, best first.
func (a *Advisor) Advise(g game.Game, seat int) (*game.Advice, error) {
	fg, ok := g.(*game.FarkleGame)
	if !ok {
		return nil, fmt.Errorf("advise: %T is not a game of ordinary Farkle", g)
	}
	s := fg.State()
	if s.Over() || s.Actor() != seat || s.Phase != engine.PhasePlay {
		return nil, fmt.Errorf("%w: seat %d has no decision of play", game.ErrNoDecision, seat)
	}
	res, err := a.State(s)
	if err != nil {
		return nil, err
	}
	adv := &game.Advice{Measure: res.Measure, Position: res.Position, Note: res.Note, Choices: make([]game.Choice, len(res.Choices))}
	for _, p := range s.Players {
		adv.Turn += p.Turns
	}
	for i, c := range res.Choices {
		adv.Choices[i] = game.Choice{Action: c.Engine(), Value: c.Value, Best: c.Best, Then: c.Then}
	}
	adv.Rank()
	return adv, nil
}

// reportNote is what an analysis of a game of players players says of the
// advisor's values.
func (a *Advisor) reportNote(players int) string {
	if a.duel == nil && players > 1 {
		return "expected points of the turn: the scores of the game are not taken into account"
	} else if players > 2 {
		return "win probability against the strongest opponent only (a two-player table)"
	}
	return ""
}

// checkRules refuses a variant whose rules are not the advisor's.
func (a *Advisor) checkRules(v game.Variant) error {
	if v.Kind() != game.Farkle || v.Scoring().Hash() != a.r.Hash() {
		return fmt.Errorf("advise: the record's rules are not the advisor's")
	}
	return nil
}

// liveAdvisor is the advisor of Live: at every request, the best advisor
// ready now.
type liveAdvisor struct {
	tables  *solved.Tables
	r       rules.Rules
	players int
	duels   bool
}

// now returns the best advisor ready now, and why it is not a
// win-probability advisor when one was wanted.
func (l *liveAdvisor) now() (*Advisor, string, error) {
	ts := l.tables
	if ts == nil {
		ts = solved.DefaultTables()
	}
	solo, err := ts.Solo(l.r)
	if err != nil {
		return nil, "", errors.New(solved.Reason(err))
	}
	var note string
	if l.players == 3 && l.duels {
		three, err := ts.ThreeNow(l.r)
		if err == nil {
			adv, err := NewThree(l.r, three, solo)
			return adv, "", err
		}
		note = "win chances are not available: " + solved.Reason(err)
	}
	if l.players == 2 && l.duels {
		duel, err := ts.DuelNow(l.r)
		if err == nil {
			adv, err := New(l.r, duel, solo)
			return adv, "", err
		}
		if !errors.Is(err, solve.ErrRules) {
			note = "win chances are not available: " + solved.Reason(err)
		}
	}
	adv, err := New(l.r, nil, solo)
	return adv, note, err
}

// Measure is the measure of the advisor ready now.
func (l *liveAdvisor) Measure() game.Measure {
	if a, _, err := l.now(); err == nil {
		return a.Measure()
	}
	return ExpectedPoints
}

// Advise is the advice of the advisor ready now, its note saying why its
// measure is not the chance to win when that is not ready.
func (l *liveAdvisor) Advise(g game.Game, seat int) (*game.Advice, error) {
	a, note, err := l.now()
	if err != nil {
		return nil, err
	}
	adv, err := a.Advise(g, seat)
	if errors.Is(err, game.ErrNoDecision) {
		return nil, err
	}
	if err != nil {
		return nil, errors.New("this position cannot be advised")
	}
	adv.Note = note
	return adv, nil
}

// settle returns the advisor an analysis uses for every decision: a live
// advisor's advisor ready now.
func settle(a game.Advisor) (game.Advisor, error) {
	l, ok := a.(*liveAdvisor)
	if !ok {
		return a, nil
	}
	adv, _, err := l.now()
	if err != nil {
		return nil, err
	}
	return adv, nil
}
