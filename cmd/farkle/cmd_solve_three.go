package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// threeOpts are the flags of solve that choose the game solved: the number
// of players and changes to the rules (a smaller target, no penalty).
type threeOpts struct {
	players   int
	target    int
	noPenalty bool
	rule      string
	orbits    bool
	jobs      int
}

// maxJobs bounds --jobs (the solvers use at most 64 workers).
const maxJobs = 64

func threeFlags(fs *flag.FlagSet) *threeOpts {
	o := &threeOpts{}
	fs.IntVar(&o.players, "players", 0, "2: the same as --duel; 3: solve the three-player game")
	fs.IntVar(&o.target, "target", 0, "solve with this target (points) instead of the rules' one")
	fs.BoolVar(&o.noPenalty, "no-penalty", false, "solve the rules without their farkle penalty")
	fs.StringVar(&o.rule, "orbit-rule", "mixed", "with --players 3: how score triples whose best responses cycle are resolved: mixed (an exact mixed equilibrium) or pure (the pure profile of least regret)")
	fs.BoolVar(&o.orbits, "orbits", false, "with --players 3: list every orbit (score triples whose best responses cycle)")
	fs.IntVar(&o.jobs, "jobs", 0, "with --duel or --players 3: the score pairs or triples of one sum solved at once, on this many cores (0: every core, GOMAXPROCS; at most 64); the table is the same")
	return o
}

// check checks the flags on their own.
func (o *threeOpts) check() error {
	if o.players != 0 && o.players != 2 && o.players != 3 {
		return usageMsg("cli.err.solverPlayers", "n", o.players)
	}
	if o.rule != "mixed" && o.rule != "pure" {
		return usageMsg("cli.err.orbitRule", "value", strconv.Quote(o.rule))
	}
	if o.jobs < 0 || o.jobs > maxJobs {
		return usageMsg("cli.err.jobs", "n", o.jobs, "max", maxJobs)
	}
	return nil
}

// apply changes r as the flags ask.
func (o *threeOpts) apply(r rules.Rules) (rules.Rules, error) {
	if o.players == 3 {
		r = explore.WithThirdSeat(r)
	}
	if o.target != 0 {
		r.Game.Target = o.target
	}
	if o.noPenalty {
		r.Turn.FarklePenalty = rules.Penalty{}
	}
	if o.target != 0 || o.noPenalty {
		if err := r.Validate(); err != nil {
			return r, usagef("%v", err)
		}
	}
	return r, nil
}

// threeJSON is the JSON of solve --players 3.
type threeJSON struct {
	Rules        string      `json:"rules"`
	Target       int         `json:"target"`
	Unit         int         `json:"unit"`
	PWins        [3]float64  `json:"p_wins"` // by seat, the first to move first
	Triples      int         `json:"triples"`
	Streaks      int         `json:"streaks"`               // farkle streak states per seat (1: no penalty)
	Sweeps       int         `json:"sweeps,omitempty"`      // with a penalty, as solved here
	SweepError   float64     `json:"sweep_error,omitempty"` // the error the sweeps leave (estimate)
	OrbitRule    string      `json:"orbit_rule"`
	OrbitCount   int         `json:"orbit_count"`
	Orbits       []orbitJSON `json:"orbits,omitempty"`
	Regret       float64     `json:"regret"`
	Residual     float64     `json:"residual"`
	Bytes        int64       `json:"bytes"`
	Seconds      float64     `json:"seconds"`
	SolveSeconds float64     `json:"solve_seconds"`
	Cached       bool        `json:"cached"`
	CacheFile    string      `json:"cache_file,omitempty"`
	Amplitude    float64     `json:"largest_amplitude"`
	Mixed        int         `json:"mixed"`
	Fair         [3]int      `json:"fair"`      // the fair compensation: points given to each seat at the start
	FairWins     [3]float64  `json:"fair_wins"` // each seat's chance with it
}

type orbitJSON struct {
	Scores    [3]int      `json:"scores"`
	Mix       [3]*float64 `json:"mix"`
	Mixed     bool        `json:"mixed"`
	Amplitude float64     `json:"amplitude"`
	Regret    float64     `json:"regret"`
}

func solveThree(ctx context.Context, e *env, r rules.Rules, o *threeOpts, asJSON bool, dir string, maxMem int64) error {
	if err := solve.CheckThreeRules(r); err != nil {
		return usagef("%v", err)
	}
	rule := solve.OrbitMixed
	if o.rule == "pure" {
		rule = solve.OrbitPure
	}
	need, err := solve.ThreeBytes(r, o.jobs)
	if err != nil {
		if tl := tooLargeError(err); tl != nil {
			return tl
		}
		return err
	}
	start := time.Now()
	lc := e.cat()
	opt := solve.ThreeOptions{MaxBytes: maxMem, Context: ctx, Rule: rule, Workers: o.jobs}
	var bar *progressbar.ProgressBar
	if stderrTerminal(e) {
		// the work in units of CPU time (not triples: those of high
		// scores are quick), so that the estimate holds from the start
		last := 0
		opt.Progress = func(done, total int) {
			if bar == nil {
				bar = newBar(e, int64(total), lc.Msg("cli.solve.barThree"), barLine{})
			}
			if done < last { // under a penalty: the next sweep
				bar.Reset()
			}
			last = done
			_ = bar.Set(done)
		}
	}
	seconds := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)).Round(time.Second) }
	// with a penalty, a line a sweep (they take minutes to an hour at the
	// full target), and a checkpoint in the cache directory to resume from
	lastSweep := 0
	say := func(key string, kv ...any) {
		if bar != nil {
			_ = bar.Clear()
		}
		fmt.Fprintf(e.stderr, "farkle solve: %s\n", lc.Msg(key, kv...))
	}
	opt.Sweep = func(si solve.SweepInfo) {
		if si.N == 0 {
			say("cli.solve.warm", "took", seconds(si.Took))
			return
		}
		lastSweep = si.N
		// one line of at most 80 columns while the sweeps take seconds
		left := lc.Msg("cli.solve.leftUnknown")
		switch {
		case si.Left == 0:
			left = lc.Msg("cli.solve.settled")
		case si.Left > 0:
			// the estimate errs long: the changes fall faster and faster
			left = lc.Msg("cli.solve.left", "n", si.Left, "time", seconds(float64(si.Left)*si.Took))
		}
		say("cli.solve.sweep", "n", si.N, "took", seconds(si.Took), "all", seconds(si.Seconds), "change", genIn(lc, si.Change, 2), "left", left)
	}
	checkpoint := ""
	if dir != "" {
		checkpoint = solve.ThreeCheckpointFile(dir, r, rule)
		// One solve of these rules at a time in a cache directory: a
		// second would take as many hours and as much memory again, and
		// write over the first one's checkpoint. The lock is the
		// system's (flock, LockFileEx), so a solve killed leaves none. A
		// table already saved is only read: any number at once.
		if _, err := os.Stat(solve.ThreeCacheFile(dir, r, rule)); err != nil {
			lock := flock.New(strings.TrimSuffix(checkpoint, ".sweeps") + ".lock")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			ok, err := lock.TryLock()
			if err != nil {
				return err
			}
			if !ok {
				say("cli.solve.busy", "file", lock.Path())
				return &exitError{1} // said: which solve is under way
			}
			defer lock.Unlock()
		}
		opt.Checkpoint = checkpoint
		opt.Resume = func(sweep int, err error) {
			if err != nil {
				say("cli.solve.noCheckpoint", "why", userTextIn(lc, err))
				return
			}
			lastSweep = sweep
			say("cli.solve.resuming", "n", sweep, "file", checkpoint)
		}
	}
	var (
		t      *solve.Three
		loaded bool
		stale  error
	)
	if dir == "" {
		t, err = solve.SolveThree(r, opt)
	} else {
		t, loaded, stale, err = solve.CachedThree(r, dir, opt)
		if err == nil {
			// the table is saved: its checkpoint is no longer needed
			if rerr := os.Remove(checkpoint); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				fmt.Fprintf(e.stderr, "farkle solve: %s\n", userTextIn(lc, rerr))
			}
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if t == nil && checkpoint != "" && lastSweep > 0 && ctx.Err() != nil {
		say("cli.solve.interrupted", "n", lastSweep, "file", checkpoint)
		return &exitError{exitInterrupted} // said: interrupted, and how to go on
	}
	if stale != nil {
		say("cli.solve.rebuilt", "why", userTextIn(lc, stale))
	}
	if err != nil {
		if t == nil {
			if tl := tooLargeError(err); tl != nil {
				return tl
			}
			if errors.Is(err, solve.ErrRules) {
				return usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(e.stderr, "farkle solve: %s\n", userTextIn(lc, err)) // solved, but not saved
	}
	out := threeJSON{
		Rules:        r.Name,
		Target:       r.Game.Target,
		Unit:         t.Unit(),
		Triples:      t.Triples(),
		Streaks:      t.Streaks(),
		Sweeps:       t.Sweeps(),
		SweepError:   t.SweepError(),
		OrbitRule:    t.Rule().String(),
		Regret:       t.Regret(),
		Residual:     t.Residual(),
		Bytes:        need,
		Seconds:      solveRound(time.Since(start).Seconds(), 3),
		SolveSeconds: solveRound(t.Seconds(), 3),
		Cached:       loaded,
	}
	for i, p := range t.Start() {
		out.PWins[i] = solveRound(p, 12)
	}
	fc := t.FairCompensation()
	out.Fair = fc.Points
	for i, p := range fc.Wins {
		out.FairWins[i] = solveRound(p, 12)
	}
	orbits := t.Orbits()
	out.OrbitCount = len(orbits)
	for _, ob := range orbits {
		j := orbitJSON{Scores: ob.Scores, Mixed: ob.Mixed, Amplitude: ob.Amplitude, Regret: ob.Regret}
		for k, m := range ob.Mix {
			if !math.IsNaN(m) {
				v := m
				j.Mix[k] = &v
			}
		}
		out.Orbits = append(out.Orbits, j)
		out.Amplitude = max(out.Amplitude, ob.Amplitude)
		if ob.Mixed {
			out.Mixed++
		}
	}
	if dir != "" {
		out.CacheFile = solve.ThreeCacheFile(dir, r, rule)
	}
	if asJSON {
		return solveWriteJSON(e.stdout, out)
	}
	w := new(strings.Builder) // the report, fitted to the terminal (reportWidth)
	defer func() { fmt.Fprint(e.stdout, fitReport(w.String(), reportWidth(e))) }()
	fmt.Fprintln(w, lc.Msg("cli.three.head", "rules", r.Name, "target", r.Game.Target))
	for i, p := range out.PWins {
		fmt.Fprintln(w, lc.Msg("cli.three.pWins", "seat", i+1, "p", lc.Dec(p, 6)))
	}
	fmt.Fprintln(w, lc.Msg("cli.three.fair", "p1", out.Fair[0], "p2", out.Fair[1], "p3", out.Fair[2],
		"p", strings.Join([]string{lc.Dec(out.FairWins[0], 4), lc.Dec(out.FairWins[1], 4), lc.Dec(out.FairWins[2], 4)}, " / ")))
	fmt.Fprintln(w, lc.Msg("cli.three.triples", "n", out.Triples, "unit", out.Unit))
	if out.Streaks > 1 {
		key := "cli.three.streaks"
		if out.Sweeps > 0 {
			key = "cli.three.streaksSwept"
		}
		fmt.Fprintln(w, lc.Msg(key, "n", out.Streaks, "states", out.Streaks*out.Streaks*out.Streaks, "sweeps", out.Sweeps, "error", genIn(lc, max(out.SweepError, 1e-16), 1)))
	}
	if out.OrbitCount > 0 {
		fmt.Fprintln(w, lc.Msg("cli.three.orbitsSome", "n", out.OrbitCount, "swing", genIn(lc, out.Amplitude, 1), "rule", out.OrbitRule, "mixed", out.Mixed, "regret", genIn(lc, out.Regret, 1)))
	} else {
		fmt.Fprintln(w, lc.Msg("cli.three.orbits", "n", out.OrbitCount))
	}
	fmt.Fprintln(w, lc.Msg("cli.three.residual", "r", genIn(lc, out.Residual, 1)))
	if r.Game.Ending == rules.EndFinalRound {
		fmt.Fprintln(w, lc.Msg("cli.three.finalRound"))
	}
	if o.orbits {
		for _, ob := range orbits {
			// a seat whose best response does not cycle there has no mix: -
			mix := make([]string, len(ob.Mix))
			for k, m := range ob.Mix {
				mix[k] = "-"
				if !math.IsNaN(m) {
					mix[k] = lc.Dec(m, 4)
				}
			}
			fmt.Fprintln(w, lc.Msg("cli.three.orbit", "scores", fmt.Sprint(ob.Scores), "mix", "["+strings.Join(mix, " ")+"]", "swing", genIn(lc, ob.Amplitude, 2), "regret", genIn(lc, ob.Regret, 1)))
		}
	}
	fmt.Fprintln(w, lc.Msg("cli.three.memory", "memory", sizeIn(lc, need)))
	if loaded {
		fmt.Fprintln(w, lc.Msg("cli.duel.loaded", "secs", lc.Dec(out.Seconds, 3), "file", out.CacheFile, "solved", lc.Dec(out.SolveSeconds, 1)))
	} else {
		fmt.Fprintln(w, lc.Msg("cli.duel.seconds", "secs", lc.Dec(out.Seconds, 3)))
		if out.CacheFile != "" {
			fmt.Fprintln(w, lc.Msg("cli.duel.cache", "file", out.CacheFile))
		}
	}
	return nil
}

// printPublishedThree writes the three-player results at hand in dir
// (tables farkle solve --players 3 wrote; none is solved here, as the
// full targets take a quarter of an hour of CPU or more): each seat's
// chance from the start
// under perfect play, the orbits, the fair compensation; for a table not
// there, the command that makes it.
//
// maxMem bounds the tables read (0: solve.DefaultMaxBytes): classic's and
// Farkle Dice's at 10,000 need about 5 GiB.
func printPublishedThree(e *env, dir string, maxMem int64) error {
	lc := e.cat()
	width := reportWidth(e)
	// fitted to the terminal: the heading's paragraph flows as one
	// (fitWidth), each line of a game wraps on its own (fitReport); a
	// command is left whole, for the terminal to wrap and copy as one
	w := e.stdout
	say := func(line string) { fmt.Fprint(w, fitReport(line+"\n", width)) }
	fmt.Fprint(w, "\n"+fitWidth(lc.Msg("cli.three.pub.title")+"\n", width)+fitWidth(lc.Msg("cli.three.pub.what")+"\n", width))
	ts := solved.NewLimitedTables(dir, solved.Limits{Memory: maxMem}) // reads, never solves a three-player table
	pct := func(p [3]float64) string {
		return lc.Pct(p[0], 2) + " / " + lc.Pct(p[1], 2) + " / " + lc.Pct(p[2], 2)
	}
	for _, g := range explore.PublishedThree {
		r := g.Rules()
		say("\n" + lc.Msg("cli.three.pub.game", "rules", g.Preset, "target", g.Target))
		var (
			t   *solve.Three
			err error
		)
		if dir != "" {
			t, err = ts.Three(r)
		} else {
			err = solved.ErrNoThreeTable
		}
		if err != nil {
			if errors.Is(err, solved.ErrNoThreeTable) {
				need, _ := solve.ThreeBytes(r, 0)
				say("  " + lc.Msg("cli.three.pub.missing", "memory", sizeIn(lc, need)))
				fmt.Fprintf(w, "    farkle solve --players 3 --rules %s --target %d\n", g.Preset, g.Target)
				continue
			}
			why := userText(err)
			if errors.Is(err, solve.ErrTooLarge) { // past --max-memory: said in the reader's language
				why = solved.WhyOf(err).In(lc)
			}
			say("  " + why)
			continue
		}
		res := explore.ThreeResultOf(t)
		say("  " + lc.Msg("cli.three.pub.start", "p", pct(res.Start)))
		say("  " + lc.Msg("cli.three.pub.orbits", "n", res.Orbits, "mixed", res.Mixed, "regret", fmt.Sprintf("%.1g", res.Regret)))
		say("  " + lc.Msg("cli.three.pub.fair", "p1", res.Fair[0], "p2", res.Fair[1], "p3", res.Fair[2]))
		say("    " + lc.Msg("cli.three.pub.fairWins", "p", pct(res.FairWins)))
	}
	return nil
}
