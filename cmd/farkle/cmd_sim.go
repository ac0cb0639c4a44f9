package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/sim"
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
rules engine, more slowly). Dragon Farkle games are recorded too.

With --rules dragon the players are Dragon Farkle bot levels (%s). The
first player of each game is drawn at random; a second table gives the wins
by place in the turn order (1st player, 2nd player...), the measure of a
seat's advantage, and the last line how many games ended with the dragon
slain, the rounds a game and the Final Battles a game.`

// simJSON is the JSON of sim: sim.Result and the time it took.
type simJSON struct {
	*sim.Result
	Workers     int     `json:"workers"`
	Seconds     float64 `json:"seconds"`
	GamesPerSec float64 `json:"games_per_second"`
}

func runSim(ctx context.Context, e *env, args []string) error {
	c := commands["sim"]
	fs := newFlags(e, c)
	setCommandHelp(fs, c, fmt.Sprintf(simHelp, strings.Join(bot.LevelNames(), ", "), strings.Join(dragon.Levels(), ", ")))
	getRules := variantFlag(fs)
	players := fs.String("players", "", "bot levels, one per seat, separated by commas (required)")
	games := fs.Int("games", 1000, "number of games")
	seedText := fs.String("seed", "", "the tournament seed (any text, or 64 hex digits); default random")
	recordDir := fs.String("record", "", "write every game's record into this directory")
	workers := fs.Int("workers", 0, "parallel games (default: GOMAXPROCS)")
	asJSON := fs.Bool("json", false, `print JSON: {"games":N,"players":[{"name":...,"wins":...,"win_rate":...,"ci95":[lo,hi]}],...}`)
	cache := cacheFlags(e, fs)
	setLang := langFlag(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := setLang(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see farkle sim -h)", fs.Arg(0))
	}
	if *players == "" {
		return usagef("--players is required: bot levels separated by commas, e.g. --players perfect,steady (levels: %s)", strings.Join(bot.LevelNames(), ", "))
	}
	if *games < 1 {
		return usagef("--games %d: play at least 1 game", *games)
	}
	if *workers < 0 {
		return usagef("--workers %d: at least 1 (0: one per core)", *workers)
	}
	levels := strings.Split(*players, ",")
	for i, l := range levels {
		levels[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "bot:"))
	}
	v, err := getRules()
	if err != nil {
		return err
	}
	seed := dice.NewSeed()
	if *seedText != "" {
		seed = dice.SeedFrom(*seedText)
	}
	if d, ok := v.(*game.DragonVariant); ok {
		return simDragon(e, d, levels, *games, seed, *workers, *asJSON, *recordDir)
	}
	r := v.Scoring()
	for _, l := range levels {
		if _, err := bot.New(l, r); err != nil {
			return usagef("--players: %v", err)
		}
	}
	if n := len(levels); n < r.Game.MinPlayers || n > r.Game.MaxPlayers || n > bot.MaxPlayers {
		return usagef("--players: %d players, but the rules %s allow %d to %d", n, r.Name, r.Game.MinPlayers, min(r.Game.MaxPlayers, bot.MaxPlayers))
	}
	cfg := sim.Config{Rules: r, Players: levels, Games: *games, Seed: seed, Workers: *workers, Tables: solverTables(e, cache())}
	if *recordDir != "" {
		write, err := recordWriter(*recordDir)
		if err != nil {
			return err
		}
		cfg.Record = func(i int, rec *record.Record) error {
			data, err := rec.Marshal()
			if err != nil {
				return err
			}
			return write(i, data)
		}
	}
	// Load what the bots need before the clock starts (a duel table may be
	// solved now, with its own progress bar).
	if _, notes, err := sim.Bots(r, levels, cfg.Tables); err != nil {
		return usagef("--players: %v", err)
	} else {
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "farkle sim: %s\n", n)
		}
	}
	var bar *progressbar.ProgressBar
	if stderrTerminal(e) {
		bar = progressbar.NewOptions(*games,
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
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
	out := simJSON{Result: res, Workers: min(w, *games), Seconds: secs, GamesPerSec: float64(*games) / secs}
	if *asJSON {
		return emitJSON(e, out, false)
	}
	lc := e.cat()
	fmt.Fprintln(e.stdout, lc.Msg("cli.sim.head", "n", res.Games, "rules", r.Name, "seed", res.Seed))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t\n", lc.Msg("cli.sim.columns"))
	for _, p := range res.Players {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Name, winsText(lc, p.Wins, p.Shared), lc.Pct(p.WinRate, 2), interval(lc, p.CI95[0], p.CI95[1]), lc.Dec(p.MeanTurns, 1), lc.Dec(p.MeanScore, 0))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, lc.Msg("cli.sim.speed", "turns", lc.Dec(res.MeanTurns, 1), "secs", lc.Dec(secs, 2), "workers", out.Workers, "rate", lc.Dec(out.GamesPerSec, 0)))
	if *recordDir != "" {
		fmt.Fprintln(e.stdout, lc.Msg("cli.sim.records", "files", fmt.Sprintf("%s/game-000000.json ... game-%06d.json", *recordDir, *games-1)))
	}
	return nil
}

// dragonSimJSON is dragon.SimResult in the JSON shape of the other sims:
// each player's 95% interval also as "ci95": [lo, hi], and the time taken.
type dragonSimJSON struct {
	dragon.SimResult
	Players     []dragonSimPlayer `json:"players"`
	Workers     int               `json:"workers"`
	Seconds     float64           `json:"seconds"`
	GamesPerSec float64           `json:"games_per_second"`
}

type dragonSimPlayer struct {
	dragon.SimPlayer
	CI95 [2]float64 `json:"ci95"`
}

// simDragon runs a Dragon Farkle tournament (package dragon) and prints it
// as the ordinary sim does, with the Dragon Farkle figures after it.
func simDragon(e *env, v *game.DragonVariant, levels []string, games int, seed dice.Seed, workers int, asJSON bool, recordDir string) error {
	opt := dragon.SimOptions{Rules: v.Game().Rules(), Cards: v.Game().Cards(), Games: games, Seed: seed, Workers: workers}
	if recordDir != "" {
		write, err := recordWriter(recordDir)
		if err != nil {
			return err
		}
		opt.Record = func(i int, names []string, gameSeed [32]byte, actions []dragon.Action, capped bool) error {
			rec, err := dragonSimRecord(v, names, dice.Seed(gameSeed), actions)
			if err != nil {
				return fmt.Errorf("%w: game %d: %w", errRecord, i, err)
			}
			rec.Meta.Extra = map[string]string{"levels": strings.Join(levels, ","), "game": fmt.Sprint(i), "sim_seed": seed.Hex()}
			if capped {
				rec.Meta.Extra["capped"] = "the simulator ended the game after its last round"
			}
			data, err := rec.Marshal()
			if err == nil {
				err = write(i, data)
			}
			if err != nil {
				return fmt.Errorf("%w: %w", errRecord, err)
			}
			return nil
		}
	}
	var bar *progressbar.ProgressBar
	if stderrTerminal(e) {
		bar = progressbar.NewOptions(games, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		opt.Progress = func(done, total int) { _ = bar.Set(done) }
	}
	start := time.Now()
	res, err := dragon.SimulateWith(levels, opt)
	if bar != nil {
		_ = bar.Finish()
	}
	if errors.Is(err, errRecord) {
		return err
	}
	if err != nil {
		return usagef("%v", err)
	}
	secs := time.Since(start).Seconds()
	w := workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	out := dragonSimJSON{SimResult: res, Workers: min(w, games), Seconds: secs, GamesPerSec: float64(games) / secs}
	for _, p := range res.Players {
		out.Players = append(out.Players, dragonSimPlayer{SimPlayer: p, CI95: [2]float64{p.Low, p.High}})
	}
	if asJSON {
		return emitJSON(e, out, false)
	}
	lc := e.cat()
	fmt.Fprintln(e.stdout, lc.Msg("cli.sim.head", "n", res.Games, "rules", res.Rules, "seed", res.Seed))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t\n", lc.Msg("cli.sim.columnsDragon"))
	for _, p := range res.Players {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Name, winsText(lc, p.Wins, p.Shared), lc.Pct(p.WinRate, 2), interval(lc, p.Low, p.High), lc.Dec(p.MeanTurns, 1), lc.Dec(p.MeanSoldiers, 0))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, lc.Msg("cli.sim.speed", "turns", lc.Dec(res.AvgTurns, 1), "secs", lc.Dec(secs, 2), "workers", out.Workers, "rate", lc.Dec(out.GamesPerSec, 0)))
	tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t\n", lc.Msg("cli.sim.columnsOrder"))
	for _, q := range res.ByPlace {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", ordinal(lc, q.Place), winsText(lc, q.Wins, q.Shared), lc.Pct(q.WinRate, 2), interval(lc, q.Low, q.High))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, lc.Msg("cli.sim.dragon", "slain", res.Slain, "capped", res.Capped, "rounds", lc.Dec(res.AvgRounds, 1), "battles", lc.Dec(res.Battles, 2)))
	if recordDir != "" {
		fmt.Fprintln(e.stdout, lc.Msg("cli.sim.records", "files", fmt.Sprintf("%s/game-000000.json ... game-%06d.json", recordDir, games-1)))
	}
	return nil
}

// errRecord is wrapped by the errors of writing a record of farkle sim
// --rules dragon --record, which are no usage errors.
var errRecord = errors.New("--record")

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

// dragonSimRecord is the record of a simulated game of Dragon Farkle: the
// game played again through game.Play from its seed and actions, so that
// it is written as every other record is. The seed is revealed: the game is
// over, by the rules or at the simulator's cap on rounds (then the record
// has no outcome, and verify says the game is not over).
func dragonSimRecord(v *game.DragonVariant, names []string, seed dice.Seed, actions []dragon.Action) (*game.Record, error) {
	p, _, err := game.Start(v, names, seed)
	if err != nil {
		return nil, err
	}
	for _, a := range actions {
		if _, err := p.Do(p.Game().ToAct(), a); err != nil {
			return nil, err
		}
	}
	rec := p.Record()
	rec.Seed = seed.Hex()
	return rec, nil
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
