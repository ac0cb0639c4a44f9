package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/term"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/explore/chart"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

func init() {
	register(&command{
		name:    "explore",
		args:    "[--rules NAME|FILE] [--me N --them N] [--cursor] [--turn N --throw DICE] [--compare A,B,...] [--published] [--svg|--png FILE]",
		summary: "the strategy explorer: win-probability map, when to bank, any position, rule sets side by side",
		run:     runExplore,
	})
}

const exploreHelp = `Without --compare or --published it shows, for the rules: the map of
P(the player to move wins) over both scores (digits are tenths of P, on
colours from orange for losing to purple for winning), the exact value and
fair compensation at --me/--them, the perfect bank-or-throw decision of a
turn at those scores, and the bank thresholds of the solo optimum and of
the duel. With --turn or --throw it also values every choice of that
position and says what each bot would do. Colours follow the terminal;
NO_COLOR turns them off. --svg or --png writes the same as charts.`

func runExplore(ctx context.Context, e *env, args []string) error {
	c := commands["explore"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.explore.details", exploreHelp))
	getRules := rulesFlag(fs)
	cells := fs.Int("cells", 0, "scores per axis of the win map (default: as many as fit the terminal's width, at most 40; 36 when not a terminal, for 80 columns)")
	me := fs.Int("me", 0, "my score: the cell to read exactly, the turn map's and the thresholds'")
	them := fs.Int("them", 0, "their score")
	turn := fs.Int("turn", 0, "with --dice or --throw: the turn total of a position to value")
	nDice := fs.Int("dice", 0, "dice to throw, or thrown with --throw (default: all of them)")
	throwText := fs.String("throw", "", "the throw to keep from, e.g. 113556")
	myStreak := fs.Int("my-streak", 0, "with --turn, --dice or --throw: my farkles in a row (with a farkle penalty)")
	theirStreak := fs.Int("their-streak", 0, "their farkles in a row")
	turnMax := fs.Int("turn-max", 3000, "the highest turn total of the turn map")
	cursor := fs.Bool("cursor", false, "move a cursor over the win map (arrow keys or h j k l) for each cell's exact value and fair compensation; q quits")
	compare := fs.String("compare", "", "rule sets to compare, separated by commas: presets or rule files")
	games := fs.Int("games", 2000, "with --compare: games simulated for the game length")
	published := fs.Bool("published", false, "the results published in the literature, with this project's values")
	svgFile := fs.String("svg", "", "write the charts to this SVG file")
	pngFile := fs.String("png", "", "write the charts to this PNG file")
	cache := cacheFlags(e, fs)
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.unexpectedArg", "arg", strconv.Quote(fs.Arg(0)), "cmd", "explore")
	}
	out, format, err := chartFile(*svgFile, *pngFile)
	if err != nil {
		return err
	}
	if out != "" { // a file that cannot be written fails before the work
		if err := checkWritable(out); err != nil {
			return usageMsg("cli.err.flagValue", "flag", format, "value", out, "err", err)
		}
	}
	cellsSet := false
	fs.Visit(func(f *flag.Flag) { cellsSet = cellsSet || f.Name == "cells" })
	fitCells := 0 // the most scores per axis that fit the width, when --cells is not given
	if !cellsSet {
		fitCells = mapCells(e, *cursor)
		*cells = fitCells
	}
	tx := explore.Text{Color: e.terminal && e.getenv("NO_COLOR") == "", Lang: e.cat(), Width: termWidth(e)}
	ts := solverTables(e, cache())
	var plots []*plot.Plot
	switch {
	case *published:
		if err := tx.Published(e.stdout, explore.Published(ts, solved.Reason)); err != nil {
			return err
		}
		if err := printPublishedThree(e, cache(), 0); err != nil {
			return err
		}
	case *compare != "":
		if plots, err = exploreCompare(ctx, e, tx, ts, *compare, *games); err != nil {
			return err
		}
	default:
		r, err := getRules()
		if err != nil {
			return err
		}
		pos := explorePosition{me: *me, them: *them, myStreak: *myStreak, theirStreak: *theirStreak, turn: *turn, dice: *nDice, throw: *throwText, turnMax: *turnMax, cells: *cells, fitCells: fitCells, cursor: *cursor}
		if plots, err = exploreRules(e, tx, ts, r, pos); err != nil {
			return err
		}
	}
	if out == "" {
		return nil
	}
	if len(plots) == 0 {
		return usageMsg("cli.err.publishedCharts")
	}
	return writeCharts(e, out, format, plots)
}

// chartFile checks --svg and --png: at most one, with its extension.
func chartFile(svgFile, pngFile string) (file, format string, err error) {
	switch {
	case svgFile != "" && pngFile != "":
		return "", "", usageMsg("cli.err.svgOrPng")
	case svgFile != "":
		file, format = svgFile, "svg"
	case pngFile != "":
		file, format = pngFile, "png"
	default:
		return "", "", nil
	}
	if f, err := chart.Format(file); err != nil || f != format {
		return "", "", usageMsg("cli.err.chartName", "flag", format, "value", file)
	}
	return file, format, nil
}

// checkWritable reports why file cannot be written: its directory is
// missing or not one, or the file is a directory or cannot be created.
// A file it creates to find out is removed again.
func checkWritable(file string) error {
	dir := filepath.Dir(file)
	if fi, err := os.Stat(dir); err != nil {
		return usageMsg("cli.err.noDir", "dir", dir)
	} else if !fi.IsDir() {
		return usageMsg("cli.err.notDir", "dir", dir)
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return usageMsg("cli.err.isDir")
	} else if err == nil {
		return nil // there: os.Create will replace it (or say why not)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return usageMsg("cli.err.cannotCreate", "err", errors.Unwrap(err))
	}
	f.Close()
	return os.Remove(file)
}

// mapCells is the win map's default number of scores per axis: as many
// as fit the terminal's width (two columns each after the 7 of the row
// labels), at most 40; 36 (80 columns) when the output is no terminal.
// For the cursor, whose frame is the whole screen, the rows must fit the
// height too, beside the frame's cursorLines other lines.
func mapCells(e *env, cursor bool) int {
	width, height := termSize(e)
	cells := max(10, min(40, (width-8)/2))
	if cursor && height > 0 {
		cells = max(5, min(cells, height-cursorLines))
	}
	return cells
}

// termSize is the terminal's width and height, or 80 and 0 when the
// output is no terminal.
func termSize(e *env) (width, height int) {
	if f, ok := e.stdout.(*os.File); ok && e.terminal {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w, h
		}
	}
	return 80, 0
}

// termWidth is the terminal's width, 0 when the output is no terminal.
func termWidth(e *env) int {
	if w, h := termSize(e); h > 0 {
		return w
	}
	return 0
}

// cursorLines is the most lines of the cursor's frame besides the map's
// rows: title, axes, column labels, first player, the cell and the keys,
// with room for their wrapping, and the line the cursor rests on.
const cursorLines = 12

func writeCharts(e *env, file, format string, plots []*plot.Plot) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := chart.Write(f, plots, 2, 6*vg.Inch, 4.5*vg.Inch, format); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "charts written to %s\n", file)
	return nil
}

// explorePosition is what the command line asked to look at.
type explorePosition struct {
	me, them, turn, dice  int
	myStreak, theirStreak int
	throw                 string
	turnMax, cells        int
	fitCells              int  // the most scores per axis that fit the width (0: cells as given)
	cursor                bool // move a cursor over the win map instead
}

// exploreRules writes the maps, thresholds and (when asked) a position of
// r, and returns their charts.
func exploreRules(e *env, tx explore.Text, ts *solved.Tables, r rules.Rules, at explorePosition) ([]*plot.Plot, error) {
	pol, err := ts.Solo(r)
	if err != nil {
		return nil, solverError(err)
	}
	pre, err := advise.New(r, nil, pol)
	if err != nil {
		return nil, err
	}
	if err := pre.Check(advise.Position{Me: at.me, Them: at.them, MyStreak: at.myStreak, TheirStreak: at.theirStreak, Total: at.turn, Dice: r.Dice}); err != nil {
		return nil, usageOf(err)
	}
	solo, err := explore.NewSoloThresholds(pol)
	if err != nil {
		return nil, err
	}
	t, err := ts.Duel(r)
	if err != nil {
		// No duel: the solo thresholds are what there is.
		if err := tx.NoDuel(e.stdout, solved.Reason(err)); err != nil {
			return nil, err
		}
		if err := tx.Thresholds(e.stdout, solo, nil); err != nil {
			return nil, err
		}
		sp, err := chart.SoloThresholds(e.cat(), solo)
		return []*plot.Plot{sp}, err
	}
	if at.fitCells > 0 {
		at.cells = explore.FitCells(r.Game.Target, t.Unit(), at.fitCells)
	}
	m, err := explore.NewWinMap(t, at.cells)
	if err != nil {
		return nil, usageMsg("cli.err.flagErr", "flag", "cells", "err", err)
	}
	if at.cursor {
		return nil, exploreCursor(e, tx, m, at.me, at.them)
	}
	if err := tx.WinMap(e.stdout, m); err != nil {
		return nil, err
	}
	comp, compP, err := explore.Compensation(t, at.me, at.them)
	if err != nil {
		return nil, usageMsg("cli.err.position2", "me", strconv.Itoa(at.me), "them", strconv.Itoa(at.them), "err", err)
	}
	p, _ := t.WinProbability(at.me, at.them, 0, 0)
	if err := tx.Cell(e.stdout, m, at.me, at.them, p, comp, compP); err != nil {
		return nil, err
	}
	step := 2 * t.Unit()
	tm, err := explore.NewTurnMap(t, at.me, at.them, at.turnMax, step)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if err := tx.TurnMap(e.stdout, tm); err != nil {
		return nil, err
	}
	var others []int
	for o := 0; o < r.Game.Target; o += max(m.Step, r.Game.Target/20/t.Unit()*t.Unit()) {
		others = append(others, o)
	}
	duel, err := explore.NewDuelThresholds(t, pol, at.me, others)
	if err != nil {
		return nil, err
	}
	if err := tx.Thresholds(e.stdout, solo, duel); err != nil {
		return nil, err
	}
	if at.turn > 0 || at.throw != "" || at.dice > 0 || at.myStreak > 0 || at.theirStreak > 0 {
		if err := exploreInspect(e, tx, ts, r, at); err != nil {
			return nil, err
		}
	}
	sp, err := chart.SoloThresholds(e.cat(), solo)
	if err != nil {
		return nil, err
	}
	dp, err := chart.DuelThresholds(e.cat(), duel)
	if err != nil {
		return nil, err
	}
	wp, err := chart.WinMap(e.cat(), m, at.me, at.them)
	if err != nil {
		return nil, err
	}
	return []*plot.Plot{wp, chart.TurnMap(e.cat(), tm), sp, dp}, nil
}

// exploreInspect values every choice of the position asked for and says
// what each bot would do.
func exploreInspect(e *env, tx explore.Text, ts *solved.Tables, r rules.Rules, at explorePosition) error {
	pos := advise.Position{Me: at.me, Them: at.them, MyStreak: at.myStreak, TheirStreak: at.theirStreak, Total: at.turn, Dice: at.dice}
	if at.throw != "" {
		h, err := parseThrow(at.throw, r)
		if err != nil {
			return usageMsg("cli.err.flagValue", "flag", "throw", "value", at.throw, "err", err)
		}
		pos.Throw = h
		if pos.Dice == 0 {
			pos.Dice = h.N()
		}
	}
	if pos.Dice == 0 {
		pos.Dice = r.Dice
	}
	adv, err := advise.For(r, 2, ts)
	if err != nil {
		return solverError(err)
	}
	bots, err := explore.Bots(r, ts)
	if err != nil {
		return err
	}
	in, err := explore.Inspect(adv, bots, pos)
	if err != nil {
		return solverError(err)
	}
	return tx.Inspection(e.stdout, in)
}

// exploreCompare writes the rule sets of list side by side.
func exploreCompare(ctx context.Context, e *env, tx explore.Text, ts *solved.Tables, list string, games int) ([]*plot.Plot, error) {
	var rs []rules.Rules
	for _, spec := range strings.Split(list, ",") {
		r, err := rules.Resolve(strings.TrimSpace(spec))
		if err != nil {
			return nil, usageMsg("cli.err.flagValue", "flag", "compare", "value", spec, "err", err)
		}
		rs = append(rs, r)
	}
	if len(rs) < 2 || len(rs) > 4 {
		return nil, usageMsg("cli.err.compareCount", "n", len(rs))
	}
	if games < 0 {
		return nil, usageMsg("cli.err.negative", "flag", "games", "value", strconv.Itoa(games))
	}
	stats, err := explore.Compare(ctx, rs, ts, ts, games, solved.Reason)
	if err != nil {
		return nil, solverError(err)
	}
	if err := tx.Compare(e.stdout, stats); err != nil {
		return nil, err
	}
	return chart.Compare(e.cat(), stats)
}

// exploreCursor lets the keys of stdin move a cursor over the win map,
// redrawing it with the cell's exact value after each key, until q. On a
// terminal stdin is put in raw mode (and restored) so that each key counts
// at once.
func exploreCursor(e *env, tx explore.Text, m *explore.WinMap, me, them int) error {
	out := e.stdout
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		old, err := term.MakeRaw(int(f.Fd()))
		if err != nil {
			return err
		}
		defer term.Restore(int(f.Fd()), old)
		out = crlfWriter{e.stdout}
	}
	if e.terminal { // the alternate screen: the frame stays in place, and goes when q quits
		if _, err := io.WriteString(out, "\x1b[?1049h"); err != nil {
			return err
		}
		defer io.WriteString(out, "\x1b[?1049l")
	}
	c := explore.NewCursor(m, me, them)
	draw := func() error {
		if e.terminal {
			if _, err := io.WriteString(out, "\x1b[H\x1b[2J"); err != nil {
				return err
			}
		}
		return tx.Frame(out, c)
	}
	if err := draw(); err != nil {
		return err
	}
	var drawErr error
	err := explore.ReadKeys(e.stdin, func(key string) bool {
		c.Move(key)
		drawErr = draw()
		return drawErr == nil
	})
	return errors.Join(err, drawErr)
}

// crlfWriter ends lines with CR LF, as a terminal in raw mode needs.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printPublished writes the published results beside this project's
// values (farkle solve --published), solving through the cache dir unless
// noCache.
func printPublished(e *env, dir string, noCache bool) error {
	if noCache {
		dir = ""
	}
	return explore.Text{Lang: e.cat(), Width: termWidth(e)}.Published(e.stdout, explore.Published(solverTables(e, dir), solved.Reason))
}
