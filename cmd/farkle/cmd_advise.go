package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
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
func solverTables(e *env, dir string) *bot.Tables {
	ts := bot.NewTables(dir)
	if stderrTerminal(e) {
		ts.Progress, _ = sweepBar(e, "solving the duel table")
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
		return usagef("%v", err)
	}
	return err
}

func runAdvise(ctx context.Context, e *env, args []string) error {
	c := commands["advise"]
	fs := newFlags(e, c)
	setCommandHelp(fs, c, adviseHelp)
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see farkle advise -h)", fs.Arg(0))
	}
	r, err := getRules()
	if err != nil {
		return err
	}
	pos := advise.Position{Me: *me, Them: max(*them, 0), MyStreak: *myStreak, TheirStreak: *theirStreak, Total: *turn, Dice: *nDice}
	if *throwText != "" {
		if pos.Throw, err = parseThrow(*throwText, r); err != nil {
			return usagef("--throw %s: %v", *throwText, err)
		}
		if pos.Dice == 0 {
			pos.Dice = pos.Throw.N()
		}
	}
	if pos.Dice == 0 {
		pos.Dice = r.Dice
	}
	if *them < -1 {
		return usagef("--them %d is negative", *them)
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
		return usagef("%v", err)
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
		adv.Note = strings.TrimPrefix(adv.Note+"; ", "; ") + "these rules have no two-player game: expected points"
	}
	if *asJSON {
		return emitJSON(e, adv, false)
	}
	printAdvice(e.stdout, r, adv)
	return nil
}

// formatValue writes a value in its measure: a percentage or points.
func formatValue(m advise.Measure, v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if m == advise.WinProbability {
		return fmt.Sprintf("%.2f%%", 100*v)
	}
	return fmt.Sprintf("%.1f", v)
}

func describePosition(p advise.Position, duel bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "me %d", p.Me)
	if duel {
		fmt.Fprintf(&b, ", them %d", p.Them)
	}
	fmt.Fprintf(&b, ", turn %d", p.Total)
	if p.Throw != 0 {
		fmt.Fprintf(&b, ", threw %s", p.Throw)
	} else {
		fmt.Fprintf(&b, ", %d %s to throw", p.Dice, plural(p.Dice, "die", "dice"))
	}
	if p.MyStreak > 0 || p.TheirStreak > 0 {
		fmt.Fprintf(&b, ", farkles in a row %d/%d", p.MyStreak, p.TheirStreak)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func printAdvice(w io.Writer, r rules.Rules, adv *advise.Advice) {
	duel := adv.Measure == advise.WinProbability
	fmt.Fprintf(w, "%s: %s\n", r.Name, describePosition(adv.Position, duel))
	if duel {
		fmt.Fprintln(w, "values: probability of winning with best play from here")
	} else {
		fmt.Fprintln(w, "values: expected points of the rest of the turn with best play")
	}
	if adv.Note != "" {
		fmt.Fprintf(w, "note: %s\n", adv.Note)
	}
	if adv.Farkle {
		fmt.Fprintf(w, "no keep: the value is %s\n", formatValue(adv.Measure, adv.FarkleValue))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	keeps := adv.Position.Throw != 0
	if keeps {
		fmt.Fprintln(tw, "\nchoice\tpoints\tturn\tdice left\tbank\tthrow on\tvalue\t")
	} else {
		fmt.Fprintln(tw, "\nchoice\tvalue\t")
	}
	for _, ch := range adv.Choices {
		mark := ""
		if ch.Best {
			mark = "<- best"
		}
		if keeps {
			val := func(p *float64) string {
				if p == nil {
					return "-"
				}
				return formatValue(adv.Measure, *p)
			}
			fmt.Fprintf(tw, "keep %s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", ch.Keep, ch.Points, ch.Total, ch.Left, val(ch.Bank), val(ch.ThrowOn), formatValue(adv.Measure, ch.Value), mark)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", ch.Action, formatValue(adv.Measure, ch.Value), mark)
	}
	tw.Flush()
	if b := adv.Best(); b != nil && b.Action == engine.Keep {
		fmt.Fprintf(w, "\nbest: keep %s, then %s\n", b.Keep, b.Then)
	}
}
