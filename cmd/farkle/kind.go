package main

import (
	"context"
	"time"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/sim"
	"github.com/farkle/farkle/tui"
)

// kindView is what the command line shows differently for a kind of game
// (game.Kind): the words of its replays and analyses, its odds beyond the
// throws' and how it prints its rules. The ordinary game's is farkleView
// (here); another kind registers an ownView (Dragon Farkle: dragon.go).
// Everything else the commands do through package game, whatever the kind.
type kindView interface {
	// scoresLabel is the word of a replay's scores line.
	scoresLabel(c *lang.Catalogue) string
	// eventPlace says where an event goes in a replay, and for the start
	// of a turn, whose and in which round (0: the kind counts no rounds).
	eventPlace(ev game.Event) (place, seat, round int)
	// position says where a decision of an analysis was.
	position(c *lang.Catalogue, p game.Position, win bool) string
	// odds adds the kind's own odds to res and returns what prints them
	// after the table of the throws (nil: nothing).
	odds(v game.Variant, res *oddsResult) func(e *env)
	// printRules writes the rules of v, as TOML or JSON.
	printRules(e *env, v game.Variant, asJSON bool) error
	// listed is the line of `farkle rules --list` of v, the preset name.
	listed(name string, v game.Variant) presetInfo
	// simulate readies cfg for a tournament of the kind (its own figures
	// counted as the games end) and returns what prints its results.
	simulate(cfg *sim.Config) simShow
}

// simShow prints the results of a tournament, the time it took and where
// its records are (recordDir, "" for none), as JSON with asJSON.
type simShow func(e *env, res *sim.Result, t simTime, asJSON bool, recordDir string) error

// ownView is the view of a kind of game other than the ordinary game,
// which the commands made for the ordinary game refuse and farkle play
// plays with its own front end.
type ownView interface {
	kindView
	// title names the kind to players: "Dragon Farkle".
	title() string
	// unsupported is the usage error of cmd, a command that plays only
	// the ordinary game (solve, advise, explore, serve's quick tables).
	unsupported(cmd string) error
	// play plays a local game of v (farkle play --rules), and resume the
	// one saved at path (farkle play --resume).
	play(ctx context.Context, e *env, v game.Variant, p playArgs) error
	resume(ctx context.Context, e *env, path string, p playArgs) error
	// preset is the name a server opens a table of the kind by (farkle
	// play --online --players), and onlineSeats reads --players for it.
	preset() string
	onlineSeats(spec string, v game.Variant) ([]tui.Seat, error)
	// simHelp is the paragraph of farkle sim's help on a tournament of
	// the kind: its bot levels and its own figures.
	simHelp() helpPara
}

// playArgs are the flags of farkle play a local game of another kind than
// the ordinary game takes.
type playArgs struct {
	players, seed string
	lineMode      bool
	dir           string // the games directory; "" with dirErr when there is none
	dirErr        error
	now           func() time.Time
	delay         time.Duration
	hold          time.Duration // --farkle-hold
}

// ownViews are the views of the kinds other than the ordinary game.
var ownViews = map[game.Kind]ownView{}

// viewOf returns the view of kind k: the ordinary game's unless another
// kind registered its own.
func viewOf(k game.Kind) kindView {
	if v, ok := ownViews[k]; ok {
		return v
	}
	return farkleView{}
}

// farkleView is the ordinary game's view; the commands' own flow plays it.
type farkleView struct{}

func (farkleView) scoresLabel(c *lang.Catalogue) string { return c.Msg("cli.replay.scores") }

func (farkleView) eventPlace(ev game.Event) (place, seat, round int) {
	if ev, ok := ev.(engine.Event); ok {
		switch ev.Kind {
		case engine.EvTurn:
			return turnStart, ev.Player, 0
		case engine.EvGameOver, engine.EvTie, engine.EvTurnLimit:
			return gameEnd, 0, 0
		}
	}
	return inTurn, 0, 0
}

func (farkleView) position(c *lang.Catalogue, p game.Position, win bool) string {
	return describePosition(c, p, win)
}

func (farkleView) odds(game.Variant, *oddsResult) func(e *env) { return nil }

func (farkleView) printRules(e *env, v game.Variant, asJSON bool) error {
	r := v.Scoring()
	if asJSON {
		return emitJSON(e, r, true)
	}
	_, err := e.stdout.Write(r.TOML())
	return err
}

func (farkleView) listed(name string, v game.Variant) presetInfo {
	r := v.Scoring()
	return presetInfo{Name: name, Description: describe(name, r), Hash: r.Hash()}
}

func (farkleView) simulate(cfg *sim.Config) simShow { return showSimOf(cfg) }
