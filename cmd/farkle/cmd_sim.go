package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/sim"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

func init() {
	register(&command{
		name:    "sim",
		args:    "--players A,B,... --games N [--seed S] [--record DIR] [--rules NAME|FILE] [--json]",
		summary: "a bot tournament in parallel: wins, win rates with 95% intervals, turns per game",
		run:     runSim,
	})
}

const simHelp = `--players names a bot level for each seat; a level may come more than once
(steady,steady: shown as steady#1 and steady#2). The seats turn by one every
game, so each player sits first equally often. Levels: %s.

Game i's dice come from a seed derived from --seed and i alone, so the same
--seed gives the same results whatever the number of workers. Without --seed a
random seed is drawn and printed. perfect needs the duel table of the rules
(solved once and cached; see farkle solve --duel).

With --record DIR every game is written to DIR/game-NNNNNN.json, a record that
farkle verify, replay and analyze read (recorded games are played through the
rules engine, more slowly). Dragon Farkle games are recorded too.`

// ownSimHelp is the paragraphs of sim's help of the kinds with views of
// their own (ownView.simHelp), in the order of game.KindNames.
func ownSimHelp() []helpPara {
	var paras []helpPara
	for _, k := range game.KindNames() {
		if o, ok := ownViews[k]; ok {
			paras = append(paras, o.simHelp())
		}
	}
	return paras
}

// simJSON is the JSON of sim: sim.Result and the time it took.
type simJSON struct {
	*sim.Result
	simTime
	Three *sim.ThreeCheck `json:"three_table,omitempty"`
	// NoThree says why three perfect bots played as expert (they had no
	// three-player table).
	NoThree string `json:"three_table_none,omitempty"`
}

func runSim(ctx context.Context, e *env, args []string) error {
	c := commands["sim"]
	fs := newFlags(e, c)
	levelNames := strings.Join(bot.LevelNames(), ", ")
	setCommandHelp(e, fs, c, append([]helpPara{para("cli.help.sim.details", fmt.Sprintf(simHelp, levelNames), "levels", levelNames)}, ownSimHelp()...)...)
	getRules := variantFlag(fs)
	players := fs.String("players", "", "bot levels, one per seat, separated by commas (required)")
	games := fs.Int("games", 1000, "number of games")
	seedText := fs.String("seed", "", "the tournament seed (any text, or 64 hex digits); default random")
	recordDir := fs.String("record", "", "write every game's record into this directory")
	workers := fs.Int("workers", 0, "parallel games (default: GOMAXPROCS)")
	asJSON := fs.Bool("json", false, `print JSON: {"games":N,"players":[{"name":...,"wins":...,"win_rate":...,"ci95":[lo,hi]}],...}`)
	cache := cacheFlags(e, fs)
	maxMem := fs.Int64("max-memory", solve.DefaultMaxBytes, "most bytes a table the bots need may take, solved or read; past it, their bots play as expert")
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.unexpectedArg", "arg", strconv.Quote(fs.Arg(0)), "cmd", "sim")
	}
	if *games < 1 {
		return usageMsg("cli.err.atLeastOne", "flag", "games", "value", strconv.Itoa(*games))
	}
	if *workers < 0 {
		return usageMsg("cli.err.workers", "value", strconv.Itoa(*workers))
	}
	if *maxMem < 1 {
		return usageMsg("cli.err.atLeastOne", "flag", "max-memory", "value", strconv.FormatInt(*maxMem, 10))
	}
	e.limitMemory(*maxMem)
	v, err := getRules()
	if err != nil {
		return err
	}
	// The levels of the kind of game played (Dragon Farkle's are its own).
	known := game.DefaultCast().LevelNames(v.Kind())
	if v.Kind() == game.Farkle {
		known = bot.LevelNames()
	}
	if *players == "" {
		example := strings.Join(known[max(0, len(known)-2):], ",") // simple,smart
		if v.Kind() == game.Farkle {
			example = "perfect,steady"
		}
		return usageMsg("cli.err.simPlayers", "levels", strings.Join(known, ", "), "example", example)
	}
	levels := strings.Split(*players, ",")
	for i, l := range levels {
		levels[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "bot:"))
	}
	seed := dice.NewSeed()
	if *seedText != "" {
		seed = dice.SeedFrom(*seedText)
	}
	cfg := sim.Config{Variant: v, Players: levels, Games: *games, Seed: seed, Workers: *workers, Tables: solverTablesWithin(e, cache(), *maxMem)}
	cast := advise.Cast(cfg.Tables)
	for _, l := range levels {
		if _, err := cast.Bot(v, l); err != nil {
			if errors.Is(err, bot.ErrUnknownLevel) || !slices.Contains(known, l) {
				return usageMsg("cli.err.simLevel", "level", l, "levels", strings.Join(known, ", "))
			}
			return usageMsg("cli.err.flagErr", "flag", "players", "err", err)
		}
	}
	lo, hi := v.Seats()
	if n := len(levels); n < lo || n > hi || n > bot.MaxPlayers {
		return usageMsg("cli.err.playerCount", "n", n, "rules", v.Name(), "lo", lo, "hi", min(hi, bot.MaxPlayers))
	}
	if *recordDir != "" {
		write, err := recordWriter(*recordDir)
		if err != nil {
			return err
		}
		cfg.Record = func(i int, rec *game.Record) error {
			data, err := rec.Marshal()
			if err != nil {
				return err
			}
			return write(i, data)
		}
	}
	show := viewOf(v.Kind()).simulate(&cfg)
	// Load what the bots need before the clock starts (a duel table may be
	// solved now, with its own progress bar).
	if _, notes, err := sim.Bots(v, levels, cast); err != nil {
		return usageMsg("cli.err.flagErr", "flag", "players", "err", err)
	} else {
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "farkle sim: %s\n", n)
		}
	}
	var bar *progressbar.ProgressBar
	if stderrTerminal(e) {
		bar = newBar(e, int64(*games), e.msg("cli.sim.bar"), barLine{count: true, rate: true})
		cfg.Progress = func(n int) { _ = bar.Add(n) }
	}
	start := time.Now()
	res, err := sim.Run(ctx, cfg)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		if errors.Is(err, sim.ErrConfig) {
			return usagef("%v", err)
		}
		return err
	}
	res.Notes = nil // printed above
	secs := time.Since(start).Seconds()
	w := *workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	t := simTime{Workers: min(w, *games), Seconds: secs, GamesPerSec: float64(*games) / secs}
	return show(e, res, t, *asJSON, *recordDir)
}

// simTime is what a tournament took: its workers, its seconds and the
// games a second.
type simTime struct {
	Workers     int     `json:"workers"`
	Seconds     float64 `json:"seconds"`
	GamesPerSec float64 `json:"games_per_second"`
}

// showSimOf returns the printer of the ordinary game's tournament cfg:
// a line a player, the wins by place in the turn order, the speed, where
// the records are (JSON: sim.Result and the time it took). Three perfect
// players are checked against the three-player table they played by
// (threeCheckOf).
func showSimOf(cfg *sim.Config) simShow {
	return func(e *env, res *sim.Result, t simTime, asJSON bool, recordDir string) error {
		check, none := threeCheckOf(cfg, res)
		if asJSON {
			return emitJSON(e, simJSON{Result: res, simTime: t, Three: check, NoThree: solved.Reason(none)}, false)
		}
		lc := e.cat()
		sayFitted(e, lc.Msg("cli.sim.head", "n", res.Games, "rules", res.Rules, "seed", res.Seed)) // a long --seed goes to a line of its own, whole
		var names []string
		var rows [][]string
		for _, p := range res.Players {
			names = append(names, p.Name)
			rows = append(rows, []string{winsText(lc, p.Wins, p.Shared), lc.Pct(p.WinRate, 2), interval(lc, p.CI95[0], p.CI95[1]), lc.Dec(p.MeanTurns, 1), lc.Dec(p.MeanScore, 0)})
		}
		fmt.Fprint(e.stdout, fitTabbed(lc.Msg("cli.sim.columns"), names, rows, tableWidth(e)))
		sayFitted(e, lc.Msg("cli.sim.speed", "turns", lc.Dec(res.MeanTurns, 1), "secs", lc.Dec(t.Seconds, 2), "workers", t.Workers, "rate", lc.Dec(t.GamesPerSec, 0)))
		if len(res.ByPlace) > 1 {
			fmt.Fprint(e.stdout, placeTable(e, res.ByPlace))
		}
		if check != nil {
			pcts, ses, zs := make([]string, 3), make([]string, 3), make([]string, 3)
			for i := range 3 {
				pcts[i], ses[i], zs[i] = lc.Pct(check.Table[i], 2), lc.Pct(check.SE[i], 2), lc.Dec(check.Z[i], 2)
			}
			fmt.Fprintln(e.stdout, lc.Msg("cli.sim.three", "p", strings.Join(pcts, " / "), "se", strings.Join(ses, " / "), "z", strings.Join(zs, " / ")))
			if !check.Within {
				fmt.Fprintln(e.stdout, lc.Msg("cli.sim.threeOff"))
			}
		}
		if none != nil {
			// a sentence of its own: broken at its spaces within 80 columns
			sayFitted(e, lc.Msg("cli.sim.threeNone", "why", solved.WhyOf(none).In(lc)))
		}
		sayRecords(e, recordDir, res.Games)
		return nil
	}
}

// placeTable is the table of the wins by place in the turn order.
func placeTable(e *env, places []sim.Place) string {
	lc := e.cat()
	var names []string
	var rows [][]string
	for _, q := range places {
		names = append(names, ordinal(lc, q.Place))
		rows = append(rows, []string{winsText(lc, q.Wins, q.Shared), lc.Pct(q.WinRate, 2), interval(lc, q.CI95[0], q.CI95[1])})
	}
	return fitTabbed(lc.Msg("cli.sim.columnsOrder"), names, rows, tableWidth(e))
}

// threeCheckOf checks the tournament res of cfg against the three-player
// table its players played by (sim.CheckThree): nil unless it was three
// perfect bots of the ordinary game with the table at hand; without one
// they played as expert, and none says why.
func threeCheckOf(cfg *sim.Config, res *sim.Result) (check *sim.ThreeCheck, none error) {
	if len(cfg.Players) != 3 || len(res.ByPlace) != 3 || cfg.Tables == nil || cfg.Variant == nil {
		return nil, nil
	}
	for _, l := range cfg.Players {
		if l != "perfect" {
			return nil, nil
		}
	}
	t, err := cfg.Tables.ThreeNow(cfg.Variant.Scoring())
	if err != nil {
		return nil, err
	}
	c, err := sim.CheckThree(t.Start(), res)
	if err != nil {
		return nil, nil
	}
	return &c, nil
}

// sayRecords says where the records of a tournament were written.
func sayRecords(e *env, dir string, games int) {
	if dir != "" {
		fmt.Fprintln(e.stdout, e.cat().Msg("cli.sim.records", "files", fmt.Sprintf("%s/game-000000.json ... game-%06d.json", dir, games-1)))
	}
}

// recordWriter makes the directory of --record and returns the function
// that writes the record of game i into it.
func recordWriter(dir string) (func(i int, data []byte) error, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return func(i int, data []byte) error {
		return os.WriteFile(filepath.Join(dir, fmt.Sprintf("game-%06d.json", i)), append(data, '\n'), 0o644)
	}, nil
}

// winsText writes a win count as the ordinary sim does: "12", or
// "12 (3 shared)".
func winsText(c *lang.Catalogue, wins, shared int) string {
	if shared > 0 {
		return c.Msg("cli.sim.shared", "wins", wins, "n", shared)
	}
	return c.Num(int64(wins))
}

// interval writes a 95% interval of probabilities: "[48.20%, 51.80%]".
func interval(c *lang.Catalogue, lo, hi float64) string {
	return c.Msg("cli.sim.interval", "lo", c.Pct(lo, 2), "hi", c.Pct(hi, 2))
}

// ordinal names a place in the turn order: "1st player", "2nd player"...
// (cli.sim.place.N for the places a language names in a word of their
// own, else cli.sim.place).
func ordinal(c *lang.Catalogue, n int) string {
	if k := "cli.sim.place." + strconv.Itoa(n); c.Has(k) {
		return c.Msg(k)
	}
	return c.Msg("cli.sim.place", "n", n)
}
