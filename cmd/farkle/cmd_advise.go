package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func init() {
	register(&command{
		name:    "advise",
		args:    "--me N [--them N] --turn N --dice N [--throw DICE] [--rules NAME|FILE] [--json]",
		summary: "the value of every choice in a position: win probability against one opponent, or expected points",
		run:     runAdvise,
	})
}

const adviseHelp = `The position: my banked score (--me), the opponent's (--them), the turn total
so far (--turn) and the dice to throw (--dice; all of them at the start of a
turn and after hot dice). With --throw DICE (--dice of them) every legal keep of
that throw is listed, valued by the better of banking and throwing on after it;
without, banking and throwing.

With --them the values are win probabilities of a two-player game with best
play from here, from the duel table (solved once and cached; see farkle solve
--duel). With the final-round ending, --them at or above the target is the
last turn of the game. Without --them, or with --points, the values are the
expected points of the rest of the turn (the solo policy).

Positions that cannot occur (negative points, more dice than the rules have,
points that are not a multiple of the scoring unit) exit 2.`

// solverTables returns the solver tables for a command, with dir as the
// cache directory and, when stderr is a terminal, a progress bar while a
// duel table is solved.
func solverTables(e *env, dir string) *solved.Tables {
	return solverTablesWithin(e, dir, 0)
}

// solverTablesWithin is solverTables whose tables, solved or read, may
// need at most maxMem bytes (0: solve.DefaultMaxBytes, the solver's own
// default).
func solverTablesWithin(e *env, dir string, maxMem int64) *solved.Tables {
	ts := solved.NewLimitedTables(dir, solved.Limits{Memory: maxMem})
	if stderrTerminal(e) {
		ts.Progress, _ = sweepBar(e, "cli.advise.barDuel")
	}
	return ts
}

// stderrTerminal reports whether the command's stderr is a terminal.
func stderrTerminal(e *env) bool {
	f, ok := e.stderr.(*os.File)
	return ok && isTerminal(f)
}

// cacheFlags adds --cache and --no-cache and returns a function giving the
// cache directory ("" for none).
func cacheFlags(e *env, fs *flag.FlagSet) func() string {
	dir := fs.String("cache", "", "directory of the duel table cache (default $FARKLE_CACHE_DIR, else $XDG_CACHE_HOME/farkle, else ~/.cache/farkle)")
	no := fs.Bool("no-cache", false, "neither read nor write the duel table cache")
	return func() string {
		if *no {
			return ""
		}
		return cacheDirectory(e, *dir)
	}
}

// solverError turns a solver failure about the rules or the position into
// bad input (exit 2).
func solverError(err error) error {
	if errors.Is(err, solve.ErrRules) || errors.Is(err, solve.ErrTooLarge) || errors.Is(err, advise.ErrPosition) || errors.Is(err, solve.ErrPosition) {
		return usageOf(err)
	}
	return err
}

func runAdvise(ctx context.Context, e *env, args []string) error {
	c := commands["advise"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.advise.details", adviseHelp))
	getRules := rulesFlag(fs)
	me := fs.Int("me", 0, "my banked score")
	them := fs.Int("them", -1, "the opponent's banked score (omit for expected points)")
	turn := fs.Int("turn", 0, "the turn total so far")
	nDice := fs.Int("dice", 0, "dice to throw, or thrown with --throw (default: all of them)")
	throwText := fs.String("throw", "", "the throw to keep from, e.g. 113556")
	myStreak := fs.Int("my-streak", 0, "my farkles in a row (with a farkle penalty)")
	theirStreak := fs.Int("their-streak", 0, "the opponent's farkles in a row")
	points := fs.Bool("points", false, "value by expected points even with --them")
	asJSON := fs.Bool("json", false, "print JSON: {\"measure\":...,\"position\":{...},\"choices\":[{\"action\":\"keep\",\"keep\":[1],\"value\":...,\"best\":true},...]}")
	cache := cacheFlags(e, fs)
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.unexpectedArg", "arg", strconv.Quote(fs.Arg(0)), "cmd", "advise")
	}
	r, err := getRules()
	if err != nil {
		return err
	}
	pos := advise.Position{Me: *me, Them: max(*them, 0), MyStreak: *myStreak, TheirStreak: *theirStreak, Total: *turn, Dice: *nDice}
	if *throwText != "" {
		if pos.Throw, err = parseThrow(*throwText, r); err != nil {
			return usageMsg("cli.err.flagValue", "flag", "throw", "value", *throwText, "err", err)
		}
		if pos.Dice == 0 {
			pos.Dice = pos.Throw.N()
		}
	}
	if pos.Dice == 0 {
		pos.Dice = r.Dice
	}
	if *them < -1 {
		return usageMsg("cli.err.negative", "flag", "them", "value", strconv.Itoa(*them))
	}
	ts := solverTables(e, cache())
	players := 1
	if *them >= 0 && !*points {
		players = 2
	}
	// Check the position against the rules before any duel table is solved.
	solo, err := ts.Solo(r)
	if err != nil {
		return solverError(err)
	}
	pre, err := advise.New(r, nil, solo)
	if err != nil {
		return err
	}
	if err := pre.Check(pos); err != nil {
		return usageOf(err)
	}
	a := pre
	if players == 2 {
		if a, err = advise.For(r, 2, ts); err != nil {
			return solverError(err)
		}
	}
	adv, err := a.Position(pos)
	if err != nil {
		return solverError(err)
	}
	if players == 2 && a.Measure() != advise.WinProbability {
		adv.Note = strings.TrimPrefix(adv.Note+"; ", "; ") + noTwoPlayer
	}
	if *asJSON {
		return emitJSON(e, adv, false)
	}
	printAdvice(e.stdout, e.cat(), r, adv)
	return nil
}

// noTwoPlayer is the note of advice asked with --them under rules that
// have no two-player game.
const noTwoPlayer = "these rules have no two-player game: expected points"

// formatValue writes a value in its measure: a percentage or points, as
// the language of c writes numbers.
func formatValue(c *lang.Catalogue, m advise.Measure, v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if m == advise.WinProbability {
		return c.Pct(v, 2)
	}
	return c.Dec(v, 1)
}

func describePosition(c *lang.Catalogue, p advise.Position, duel bool) string {
	parts := []string{c.Msg("cli.pos.me", "n", p.Me)}
	if duel {
		parts = append(parts, c.Msg("cli.pos.them", "n", p.Them))
	}
	parts = append(parts, c.Msg("cli.pos.turn", "n", p.Total))
	if p.Throw != 0 {
		parts = append(parts, c.Msg("cli.pos.threw", "dice", p.Throw.String()))
	} else {
		parts = append(parts, c.Msg("cli.pos.dice", "n", p.Dice))
	}
	if p.MyStreak > 0 || p.TheirStreak > 0 {
		parts = append(parts, c.Msg("cli.pos.streaks", "mine", p.MyStreak, "theirs", p.TheirStreak))
	}
	return strings.Join(parts, ", ")
}

// adviseNotes are the notes of the advisor (package advise) and of this
// command, by their English words, with their keys.
var adviseNotes = map[string]string{
	"only a throw is allowed here":   "cli.note.onlyThrow",
	"farkle: the turn total is lost": "hint.note.farkle",
	noTwoPlayer:                      "cli.note.noTwoPlayer",
	"more than two players: win probability against the strongest opponent only":     "hint.note.many",
	"expected points of the turn: the scores of the game are not taken into account": "cli.note.turnPoints",
	"win probability against the strongest opponent only (a two-player table)":       "cli.note.strongest",
}

// noteText says the advisor's note (parts joined by "; ") in the language
// of c; a part it has no text for stays as it is.
func noteText(c *lang.Catalogue, note string) string {
	parts := strings.Split(note, "; ")
	for i, p := range parts {
		if k, ok := adviseNotes[p]; ok {
			parts[i] = c.Msg(k)
		} else if why, ok := strings.CutPrefix(p, "banking is not allowed: "); ok {
			parts[i] = c.Msg("cli.note.noBank", "why", why)
		}
	}
	return strings.Join(parts, "; ")
}

// actionText says an action's name in the language of c, word by word
// (keys cli.act.WORD); player names and dice stay.
func actionText(c *lang.Catalogue, s string, players []string) string {
	return c.Words("cli.act.", s, players)
}

func printAdvice(w io.Writer, c *lang.Catalogue, r rules.Rules, adv *advise.Advice) {
	duel := adv.Measure == advise.WinProbability
	fmt.Fprintf(w, "%s: %s\n", r.Name, describePosition(c, adv.Position, duel))
	if duel {
		fmt.Fprintln(w, c.Msg("cli.advise.valuesWin"))
	} else {
		fmt.Fprintln(w, c.Msg("cli.advise.valuesPoints"))
	}
	if adv.Note != "" {
		fmt.Fprintln(w, c.Msg("cli.note", "note", noteText(c, adv.Note)))
	}
	if adv.Farkle {
		fmt.Fprintln(w, c.Msg("cli.advise.noKeep", "value", formatValue(c, adv.Measure, adv.FarkleValue)))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	keeps := adv.Position.Throw != 0
	if keeps {
		fmt.Fprintf(tw, "\n%s\t\n", c.Msg("cli.advise.headKeeps"))
	} else {
		fmt.Fprintf(tw, "\n%s\t\n", c.Msg("cli.advise.head"))
	}
	num := func(n int) string { return c.Num(int64(n)) }
	for _, ch := range adv.Choices {
		mark := ""
		if ch.Best {
			mark = c.Msg("cli.advise.best")
		}
		if keeps {
			val := func(p *float64) string {
				if p == nil {
					return "-"
				}
				return formatValue(c, adv.Measure, *p)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", actionText(c, "keep "+ch.Keep.String(), nil), num(ch.Points), num(ch.Total), ch.Left, val(ch.Bank), val(ch.ThrowOn), formatValue(c, adv.Measure, ch.Value), mark)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", actionText(c, ch.Action.String(), nil), formatValue(c, adv.Measure, ch.Value), mark)
	}
	tw.Flush()
	if b := adv.Best(); b != nil && b.Action == engine.Keep {
		fmt.Fprintf(w, "\n%s\n", c.Msg("cli.advise.bestKeep", "dice", b.Keep.String(), "then", actionText(c, b.Then, nil)))
	}
}
