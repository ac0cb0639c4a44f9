package sim

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/rules"
)

// ErrConfig is wrapped by every error about a Config.
var ErrConfig = errors.New("sim: bad configuration")

// Config is a tournament: Games games between bots of the levels in
// Players under Rules, with dice from Seed.
type Config struct {
	Rules   rules.Rules
	Players []string // bot levels (bot.LevelNames), one per seat; repeats allowed
	Games   int
	Seed    dice.Seed
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Tables supplies solver results to expert and perfect; nil means
	// bot.DefaultTables().
	Tables *bot.Tables
	// Record, if set, is called with the record of every game (from the
	// worker goroutines, so it must be safe for concurrent use; i is the
	// game's number from 0). Recorded games are played through the engine.
	Record func(i int, rec *record.Record) error
	// Engine plays every game through engine.Apply instead of the fast
	// simulator (the results are the same; for tests and comparison).
	Engine bool
	// Progress, if set, is called now and then with the number of games
	// just finished (from the worker goroutines, never concurrently).
	Progress func(games int)
}

// Result is the outcome of a tournament.
type Result struct {
	Games     int      `json:"games"`
	Rules     string   `json:"rules"`
	Seed      string   `json:"seed"`
	Players   []Player `json:"players"`
	MeanTurns float64  `json:"mean_turns"` // turns per game, all players together
	Notes     []string `json:"notes,omitempty"`
}

// Player is one player's results. Wins counts shared wins too (tie =
// "share"); Shared says how many of them were shared.
type Player struct {
	Name      string     `json:"name"`
	Level     string     `json:"level"`
	Wins      int        `json:"wins"`
	Shared    int        `json:"shared,omitempty"`
	WinRate   float64    `json:"win_rate"`
	CI95      [2]float64 `json:"ci95"`       // Wilson score interval of the win rate
	MeanTurns float64    `json:"mean_turns"` // this player's turns per game
	MeanScore float64    `json:"mean_score"` // final score per game
}

// GameSeed returns the dice seed of game i of a tournament with seed s:
// SHA-256 of s, the text "farkle-sim/game" and i as 8 big-endian bytes. It
// depends on nothing else, so results do not depend on scheduling.
func GameSeed(s dice.Seed, i int) dice.Seed {
	var buf [32 + 15 + 8]byte
	copy(buf[:], s[:])
	copy(buf[32:], "farkle-sim/game")
	binary.BigEndian.PutUint64(buf[47:], uint64(i))
	return sha256.Sum256(buf[:])
}

// Seating returns, for game i of n players, the seat of each player
// (players listed as in Config.Players): the seats turn by one each game,
// so every player sits first (and, with first_player = "seat-order",
// starts) equally often.
func Seating(i, n int) []int {
	seat := make([]int, n)
	for j := range seat {
		seat[j] = (j + i) % n
	}
	return seat
}

// Names returns display names for the players: the level itself, or
// LEVEL#k (k from 1) for a level that appears more than once.
func Names(levels []string) []string {
	count := map[string]int{}
	for _, l := range levels {
		count[l]++
	}
	seen := map[string]int{}
	out := make([]string, len(levels))
	for i, l := range levels {
		if count[l] == 1 {
			out[i] = l
			continue
		}
		seen[l]++
		out[i] = fmt.Sprintf("%s#%d", l, seen[l])
	}
	return out
}

// Wilson returns the 95% Wilson score interval of wins successes in n
// trials.
func Wilson(wins, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p := float64(wins) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	lo, hi := max(0, center-half), min(1, center+half)
	if wins == 0 {
		lo = 0
	}
	if wins == n {
		hi = 1
	}
	return [2]float64{lo, hi}
}

// tally is one worker's sums; sums of integers, so the total does not
// depend on which worker played which game.
type tally struct {
	wins, shared, turns, score [bot.MaxPlayers]int64
}

// Bots builds one bot per distinct level of levels for r, prepared (solver
// results loaded), and returns them by level with any notes about bots
// that fall back to a simpler level.
func Bots(r rules.Rules, levels []string, ts *bot.Tables) (map[string]bot.Strategy, []string, error) {
	if ts == nil {
		ts = bot.DefaultTables()
	}
	out := map[string]bot.Strategy{}
	var notes []string
	for _, l := range levels {
		if _, ok := out[l]; ok {
			continue
		}
		b, err := bot.New(l, r, bot.WithTables(ts))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if err := bot.Prepare(b); err != nil {
			notes = append(notes, fmt.Sprintf("%s plays as a simpler level: %v", l, err))
		}
		out[l] = b
	}
	return out, notes, nil
}

// Run plays the tournament on Workers goroutines and returns the results.
// Game i uses GameSeed(Seed, i) and Seating(i, n), so the result depends
// only on the Config, not on the number of workers or their timing. It
// stops early with ctx's error when ctx is done, before the next game.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	n := len(cfg.Players)
	switch {
	case cfg.Games < 1:
		return nil, fmt.Errorf("%w: %d games (at least 1)", ErrConfig, cfg.Games)
	case n < cfg.Rules.Game.MinPlayers || n > cfg.Rules.Game.MaxPlayers || n > bot.MaxPlayers:
		return nil, fmt.Errorf("%w: %d players (the rules %s allow %d to %d)", ErrConfig, n, cfg.Rules.Name, cfg.Rules.Game.MinPlayers, min(cfg.Rules.Game.MaxPlayers, bot.MaxPlayers))
	}
	if err := cfg.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	bots, notes, err := Bots(cfg.Rules, cfg.Players, cfg.Tables)
	if err != nil {
		return nil, err
	}
	byPlayer := make([]bot.Strategy, n)
	fast := !cfg.Engine && cfg.Record == nil
	for j, l := range cfg.Players {
		byPlayer[j] = bots[l]
		if _, ok := bots[l].(bot.Decider); !ok {
			fast = false
		}
	}
	names := Names(cfg.Players)

	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)
	chunk := max(1, min(256, cfg.Games/(workers*16)))
	var next atomic.Int64
	var progressMu sync.Mutex
	tallies := make([]tally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &player{cfg: &cfg, names: names, bots: byPlayer, t: &tallies[w]}
			if fast {
				p.fast = NewFast(cfg.Rules)
				p.deciders = make([]bot.Decider, n)
			}
			for {
				if ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= cfg.Games {
					return
				}
				hi := min(lo+chunk, cfg.Games)
				for i := lo; i < hi; i++ {
					if ctx.Err() != nil { // a chunk of long games may take seconds
						errs[w] = ctx.Err()
						next.Store(int64(cfg.Games))
						return
					}
					if err := p.play(i); err != nil {
						errs[w] = err
						next.Store(int64(cfg.Games)) // stop the others
						return
					}
				}
				if cfg.Progress != nil {
					progressMu.Lock()
					cfg.Progress(hi - lo)
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var sum tally
	for _, t := range tallies {
		for j := range n {
			sum.wins[j] += t.wins[j]
			sum.shared[j] += t.shared[j]
			sum.turns[j] += t.turns[j]
			sum.score[j] += t.score[j]
		}
	}
	res := &Result{Games: cfg.Games, Rules: cfg.Rules.Name, Seed: cfg.Seed.Hex(), Notes: notes}
	g := float64(cfg.Games)
	var turns int64
	for j := range n {
		w := int(sum.wins[j])
		res.Players = append(res.Players, Player{
			Name: names[j], Level: cfg.Players[j], Wins: w, Shared: int(sum.shared[j]),
			WinRate: float64(w) / g, CI95: Wilson(w, cfg.Games),
			MeanTurns: float64(sum.turns[j]) / g, MeanScore: float64(sum.score[j]) / g,
		})
		turns += sum.turns[j]
	}
	res.MeanTurns = float64(turns) / g
	return res, nil
}

// player plays games for one worker.
type player struct {
	cfg      *Config
	names    []string
	bots     []bot.Strategy // by player
	t        *tally
	fast     *Fast
	deciders []bot.Decider // by seat, for fast
}

func (p *player) play(i int) error {
	cfg := p.cfg
	n := len(cfg.Players)
	seat := Seating(i, n)
	seed := GameSeed(cfg.Seed, i)
	var winners []int
	var scores, turns [bot.MaxPlayers]int
	if p.fast != nil {
		for j, s := range seat {
			p.deciders[s] = p.bots[j].(bot.Decider)
		}
		out, err := p.fast.Play(seed, p.deciders)
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		for s := range n {
			if out.Won(s) {
				winners = append(winners, s)
			}
		}
		scores, turns = out.Scores, out.Turns
	} else {
		st, err := p.playEngine(i, seat, seed)
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		winners = st.Winners
		for s, pl := range st.Players {
			scores[s], turns[s] = pl.Score, pl.Turns
		}
	}
	for j, s := range seat {
		p.t.turns[j] += int64(turns[s])
		p.t.score[j] += int64(scores[s])
		for _, w := range winners {
			if w == s {
				p.t.wins[j]++
				if len(winners) > 1 {
					p.t.shared[j]++
				}
			}
		}
	}
	return nil
}

// playEngine plays game i through the engine (and the record when asked).
func (p *player) playEngine(i int, seat []int, seed dice.Seed) (engine.State, error) {
	cfg := p.cfg
	n := len(seat)
	seatNames := make([]string, n)
	bySeat := make([]bot.Strategy, n)
	levels := make([]string, n)
	for j, s := range seat {
		seatNames[s] = p.names[j]
		bySeat[s] = p.bots[j]
		levels[s] = cfg.Players[j]
	}
	if cfg.Record == nil {
		st, err := engine.New(cfg.Rules, seatNames)
		if err != nil {
			return st, err
		}
		src := dice.NewSource(seed)
		for actions := 0; !st.Over(); actions++ {
			if actions > MaxActions {
				return st, ErrRunaway
			}
			next, _, err := engine.Apply(st, bySeat[st.Actor()].Choose(st), src)
			if err != nil {
				return st, fmt.Errorf("bot %s: %w", levels[st.Actor()], err)
			}
			st = next
		}
		return st, nil
	}
	g, err := record.Start(cfg.Rules, seatNames, seed)
	if err != nil {
		return engine.State{}, err
	}
	g.Record.Meta.Extra = map[string]string{"levels": strings.Join(levels, ","), "game": fmt.Sprint(i), "sim_seed": cfg.Seed.Hex()}
	for actions := 0; !g.State.Over(); actions++ {
		if actions > MaxActions {
			return g.State, ErrRunaway
		}
		a := bySeat[g.State.Actor()].Choose(g.State)
		if _, err := g.Do(a); err != nil {
			return g.State, fmt.Errorf("bot %s: %w", levels[g.State.Actor()], err)
		}
	}
	if err := cfg.Record(i, g.Record); err != nil {
		return g.State, err
	}
	return g.State, nil
}
