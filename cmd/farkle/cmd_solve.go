package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func init() {
	register(&command{
		name:    "solve",
		args:    "--solo|--duel|--players 3|--published [--rules NAME|FILE] [--target N] [--no-penalty] [--json] [--cache DIR] [--profile FILE]",
		summary: "exact optimal strategy: expected points per turn (--solo), two-player (--duel) or three-player (--players 3) win probabilities",
		run:     runSolve,
	})
}

func runSolve(ctx context.Context, e *env, args []string) error {
	c := commands["solve"]
	fs := newFlags(e, c)
	getRules := rulesFlag(fs)
	solo := fs.Bool("solo", false, "solve the solo game: the turn strategy of most expected points")
	duel := fs.Bool("duel", false, "solve the two-player game: the strategy of most win probability")
	asJSON := fs.Bool("json", false, "print JSON")
	cacheDir := fs.String("cache", "", "directory of the duel table cache (default $FARKLE_CACHE_DIR, else $XDG_CACHE_HOME/farkle, else ~/.cache/farkle)")
	noCache := fs.Bool("no-cache", false, "neither read nor write the duel table cache")
	maxMem := fs.Int64("max-memory", solve.DefaultMaxBytes, "most bytes a solve (solo or duel) may need; rules needing more are refused before any work")
	profile := fs.String("profile", "", "write a CPU profile of the solve to this file (for go tool pprof)")
	published := fs.Bool("published", false, "the results published in the literature, each with its source and this project's value beside it")
	three := threeFlags(fs)
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if err := three.check(); err != nil {
		return err
	}
	e.limitMemory(*maxMem)
	if three.players == 2 || three.players == 3 {
		*duel = true // checked below as one of --solo and --duel
	}
	if *published {
		dir := cacheDirectory(e, *cacheDir)
		if err := printPublished(e, dir, *noCache); err != nil {
			return err
		}
		if *noCache {
			dir = ""
		}
		return printPublishedThree(e, dir, *maxMem)
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.unexpectedArg", "arg", strconv.Quote(fs.Arg(0)), "cmd", "solve")
	}
	if *solo == *duel {
		return usageMsg("cli.err.solveWhich")
	}
	r, err := getRules()
	if err != nil {
		return err
	}
	if r, err = three.apply(r); err != nil {
		return err
	}
	if *profile != "" {
		stop, err := startProfile(*profile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if *solo {
		return solveSolo(e, r, *asJSON, *maxMem)
	}
	dir := ""
	if !*noCache {
		dir = cacheDirectory(e, *cacheDir)
	}
	if three.players == 3 {
		return solveThree(ctx, e, r, three, *asJSON, dir, *maxMem)
	}
	return solveDuel(ctx, e, r, *asJSON, dir, *maxMem, three.jobs)
}

// tooLargeError is the usage error of a solve refused for its memory: one
// line giving the memory it would need and the flag that allows more; nil
// for other errors.
func tooLargeError(err error) error {
	var tl *solve.TooLargeError
	if !errors.As(err, &tl) {
		return nil
	}
	// The solver's error is kept, so that userTextIn says it in the
	// player's language.
	if tl.Limit > 0 && tl.Limit < math.MaxInt64 {
		return &usageError{msg: tl.Message() + " (--max-memory)", err: tl}
	}
	return &usageError{msg: tl.Message(), err: tl}
}

// startProfile starts a CPU profile written to path and returns the function
// that stops it and closes the file.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// cacheDirectory resolves the duel cache directory: --cache, then the
// environment (solved.CacheDir); "" when none is known.
func cacheDirectory(e *env, flagDir string) string {
	if flagDir != "" {
		return flagDir
	}
	return solved.CacheDir(e.getenv)
}

// sweepBar returns a DuelOptions.Progress function that draws one progress
// bar per sweep of a duel solve on e's stderr, labelled with the text of
// the catalogue key label, and a function that finishes the last bar.
func sweepBar(e *env, label string) (progress func(sweep, done, total int), finish func()) {
	var bar *progressbar.ProgressBar
	last := 0
	progress = func(sweep, done, total int) {
		if sweep != last {
			if bar != nil {
				_ = bar.Finish()
			}
			// a narrow terminal shortens the label, not the sweep's number
			room := barRoom(e, int64(total), barLine{count: true})
			if room >= 0 {
				room -= len([]rune(e.msg("cli.solve.barSweep", "label", "", "sweep", sweep)))
			}
			desc := e.msg("cli.solve.barSweep", "label", shorten(e.msg(label), max(room, 0)), "sweep", sweep)
			bar = newBar(e, int64(total), desc, barLine{count: true})
			last = sweep
		}
		_ = bar.Set(done)
	}
	finish = func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
	return progress, finish
}

// soloJSON is the JSON of solve --solo. A nil threshold is null: banking is
// never at least as good.
type soloJSON struct {
	Rules        string                     `json:"rules"`
	Unit         int                        `json:"unit"`
	ExpectedTurn float64                    `json:"expected_turn"`
	BankAt       map[string]*int            `json:"bank_at"`
	BankAtStreak map[string]map[string]*int `json:"bank_at_streak,omitempty"`
	Entry        *entryJSON                 `json:"entry,omitempty"`
}

// entryJSON is the strategy of a player still to get on the board.
type entryJSON struct {
	Minimum      int                        `json:"minimum"`
	Cost         float64                    `json:"cost"`
	BankAt       map[string]*int            `json:"bank_at"`
	BankAtStreak map[string]map[string]*int `json:"bank_at_streak,omitempty"`
}

func thresholds(r rules.Rules, f func(n int) (int, bool, error)) (map[string]*int, error) {
	out := map[string]*int{}
	for n := 1; n <= r.Dice; n++ {
		v, ok, err := f(n)
		if err != nil {
			return nil, err
		}
		if ok {
			out[strconv.Itoa(n)] = &v
		} else {
			out[strconv.Itoa(n)] = nil
		}
	}
	return out, nil
}

func solveSolo(e *env, r rules.Rules, asJSON bool, maxMem int64) error {
	p, err := solve.SolveSoloWith(r, solve.SoloOptions{MaxBytes: maxMem})
	if err != nil {
		if tooLarge := tooLargeError(err); tooLarge != nil {
			return tooLarge
		}
		if errors.Is(err, solve.ErrRules) {
			return usagef("%v", err)
		}
		return err
	}
	out := soloJSON{Rules: r.Name, Unit: p.Unit(), ExpectedTurn: solveRound(p.ExpectedTurn(), 6)}
	streakTable := func(entry bool) (map[string]*int, map[string]map[string]*int, error) {
		all := map[string]map[string]*int{}
		for s := 0; s < p.Streaks(); s++ {
			th, err := thresholds(r, func(n int) (int, bool, error) {
				if entry {
					return p.EntryBankAt(s, n)
				}
				return p.BankAtStreak(s, n)
			})
			if err != nil {
				return nil, nil, err
			}
			all[strconv.Itoa(s)] = th
		}
		if r.Turn.FarklePenalty.Count == 0 {
			return all["0"], nil, nil
		}
		return all["0"], all, nil
	}
	if out.BankAt, out.BankAtStreak, err = streakTable(false); err != nil {
		return err
	}
	if r.Turn.EntryMinimum > 0 {
		out.Entry = &entryJSON{Minimum: r.Turn.EntryMinimum, Cost: solveRound(p.EntryCost(), 6)}
		if out.Entry.BankAt, out.Entry.BankAtStreak, err = streakTable(true); err != nil {
			return err
		}
	}
	if asJSON {
		return solveWriteJSON(e.stdout, out)
	}
	// the prose fitted to the terminal (reportWidth), the table as it is:
	// its columns stay aligned
	w, width := e.stdout, reportWidth(e)
	prose := func(text string) { fmt.Fprint(w, fitReport(text, width)) }
	lc := e.cat()
	prose(lc.Msg("cli.solve.head", "rules", r.Name, "unit", out.Unit) + "\n")
	if r.Turn.FarklePenalty.Count > 0 {
		prose(lc.Msg("cli.solve.expectedPenalty", "points", lc.Dec(out.ExpectedTurn, 2), "penalty", r.Turn.FarklePenalty.Points, "n", r.Turn.FarklePenalty.Count) + "\n")
	} else {
		prose(lc.Msg("cli.solve.expected", "points", lc.Dec(out.ExpectedTurn, 2)) + "\n")
	}
	prose("\n" + lc.Msg("cli.solve.bankAt") + "\n")
	if pen := r.Turn.FarklePenalty; pen.Count > 0 {
		prose(lc.Msg("cli.solve.rows", "n", pen.Count, "penalty", pen.Points) + "\n")
	}
	cols := make([]string, r.Dice)
	for n := 1; n <= r.Dice; n++ {
		cols[n-1] = strconv.Itoa(n)
	}
	var labels []string
	var cells [][]string
	row := func(label string, th map[string]*int) {
		labels = append(labels, label)
		var c []string
		for n := 1; n <= r.Dice; n++ {
			if v := th[strconv.Itoa(n)]; v != nil {
				c = append(c, lc.Num(int64(*v)))
			} else {
				c = append(c, "-")
			}
		}
		cells = append(cells, c)
	}
	rows := func(prefix string, one map[string]*int, all map[string]map[string]*int) {
		if all == nil {
			label := strings.TrimSuffix(prefix, ", ")
			if label == "" && out.Entry != nil {
				label = lc.Msg("cli.solve.onBoard")
			} else if label == "" {
				label = lc.Msg("cli.solve.everyTurn")
			}
			row(label, one)
			return
		}
		for s := 0; s < len(all); s++ {
			row(prefix+lc.Msg("cli.solve.inARow", "n", s), all[strconv.Itoa(s)])
		}
	}
	rows("", out.BankAt, out.BankAtStreak)
	if out.Entry != nil {
		rows(lc.Msg("cli.solve.toEnter")+", ", out.Entry.BankAt, out.Entry.BankAtStreak)
	}
	if _, err := io.WriteString(w, fitTable(lc.Msg("cli.solve.diceToThrow"), cols, labels, cells, tableWidth(e))); err != nil {
		return err
	}
	if out.Entry != nil {
		prose("\n" + lc.Msg("cli.solve.entryCost", "min", out.Entry.Minimum, "cost", lc.Dec(out.Entry.Cost, 2)) + "\n")
	}
	return nil
}

// duelJSON is the JSON of solve --duel.
type duelJSON struct {
	Rules            string  `json:"rules"`
	PFirstWins       float64 `json:"p_first_wins"`
	FairCompensation int     `json:"fair_compensation"`
	PFirstFair       float64 `json:"p_first_wins_compensated"`
	States           int     `json:"states"`
	Seconds          float64 `json:"seconds"`
	SolveSeconds     float64 `json:"solve_seconds"`
	Sweeps           int     `json:"sweeps"`
	ErrorEstimate    float64 `json:"error_estimate"`
	Cached           bool    `json:"cached"`
	CacheFile        string  `json:"cache_file,omitempty"`
}

func solveDuel(ctx context.Context, e *env, r rules.Rules, asJSON bool, dir string, maxMem int64, jobs int) error {
	if err := solve.CheckDuelRules(r); err != nil {
		return usagef("%v", err)
	}
	start := time.Now()
	opt := solve.DuelOptions{MaxBytes: maxMem, Context: ctx, Workers: jobs}
	finish := func() {}
	if stderrTerminal(e) { // the bar is drawn on stderr: also with --json or stdout to a file
		opt.Progress, finish = sweepBar(e, "cli.solve.barDuel")
	}
	var (
		t      *solve.Table
		loaded bool
		stale  error
		err    error
	)
	if dir == "" {
		t, err = solve.SolveDuel(r, opt)
	} else {
		t, loaded, stale, err = solve.Cached(r, dir, opt)
	}
	finish()
	if stale != nil {
		fmt.Fprintf(e.stderr, "farkle solve: cache file rebuilt: %s\n", userText(stale))
	}
	if err != nil {
		if t == nil {
			if tooLarge := tooLargeError(err); tooLarge != nil {
				return tooLarge
			}
			if errors.Is(err, solve.ErrRules) {
				return usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(e.stderr, "farkle solve: %s\n", userText(err)) // solved, but not saved
	}
	comp, pComp := t.FairCompensation()
	out := duelJSON{
		Rules:            r.Name,
		PFirstWins:       solveRound(t.FirstPlayerWins(), 12),
		FairCompensation: comp,
		PFirstFair:       solveRound(pComp, 12),
		States:           t.States(),
		Seconds:          solveRound(time.Since(start).Seconds(), 3),
		SolveSeconds:     solveRound(t.Seconds(), 3),
		Sweeps:           t.Sweeps(),
		ErrorEstimate:    t.ErrorEstimate(),
		Cached:           loaded,
	}
	if dir != "" {
		out.CacheFile = solve.CacheFile(dir, r)
	}
	if asJSON {
		return solveWriteJSON(e.stdout, out)
	}
	w := new(strings.Builder) // the report, fitted to the terminal (reportWidth)
	defer func() { fmt.Fprint(e.stdout, fitReport(w.String(), reportWidth(e))) }()
	lc := e.cat()
	fmt.Fprintln(w, lc.Msg("cli.duel.head", "rules", r.Name))
	fmt.Fprintln(w, lc.Msg("cli.duel.pFirst", "p", lc.Dec(out.PFirstWins, 6)))
	who := lc.Msg("cli.duel.second")
	if comp < 0 {
		who = lc.Msg("cli.duel.first")
	}
	fmt.Fprintln(w, lc.Msg("cli.duel.fair", "points", solveAbs(comp), "who", who, "p", lc.Dec(out.PFirstFair, 6)))
	fmt.Fprintln(w, lc.Msg("cli.duel.states", "n", out.States))
	if loaded {
		fmt.Fprintln(w, lc.Msg("cli.duel.loaded", "secs", lc.Dec(out.Seconds, 3), "file", out.CacheFile, "solved", lc.Dec(out.SolveSeconds, 1)))
	} else {
		if out.Sweeps > 1 {
			fmt.Fprintln(w, lc.Msg("cli.duel.sweeps", "secs", lc.Dec(out.Seconds, 3), "n", out.Sweeps, "error", genIn(lc, out.ErrorEstimate, 1)))
		} else {
			fmt.Fprintln(w, lc.Msg("cli.duel.seconds", "secs", lc.Dec(out.Seconds, 3)))
		}
		if out.CacheFile != "" {
			fmt.Fprintln(w, lc.Msg("cli.duel.cache", "file", out.CacheFile))
		}
	}
	return nil
}

func solveAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func solveRound(x float64, digits int) float64 {
	s := strconv.FormatFloat(x, 'f', digits, 64)
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func solveWriteJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
