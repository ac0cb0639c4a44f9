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

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solved"
)

// ErrConfig is wrapped by every error about a Config.
var ErrConfig = errors.New("sim: bad configuration")

// Config is a tournament: Games games between bots of the levels in
// Players of the game Variant (or the ordinary game under Rules), with
// dice from Seed.
type Config struct {
	// Variant is the game played; nil: the ordinary game under Rules.
	Variant game.Variant
	Rules   rules.Rules
	Players []string // bot levels of the variant's kind, one per seat; repeats allowed
	Games   int
	Seed    dice.Seed
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Tables supplies solver results to the ordinary game's expert and
	// perfect; nil means solved.DefaultTables().
	Tables *solved.Tables
	// Cast makes the bots by level; nil means advise.Cast(Tables).
	Cast game.Cast
	// Record, if set, is called with the record of every game (from the
	// worker goroutines, so it must be safe for concurrent use; i is the
	// game's number from 0). Recorded games are played through game.Play;
	// their seeds are revealed.
	Record func(i int, rec *game.Record) error
	// Engine plays the ordinary game's games through its game.Game instead
	// of the fast simulator (the results are the same; for tests and
	// comparison). Other kinds are always played so.
	Engine bool
	// Progress, if set, is called now and then with the number of games
	// just finished (from the worker goroutines, never concurrently).
	Progress func(games int)

	// Deal, if set, gives game i its dice seed and the seat of each player
	// (in the order of Players); nil: GameSeed and Seating.
	Deal func(seed dice.Seed, i, players int) (dice.Seed, []int)
	// Stop, if set, is asked before every action whether to end the game
	// there: a cap on its length (Dragon Farkle's simulations end a game
	// after dragon.DefaultMaxRounds rounds). When why is not "" the game
	// ends, won by winners (seats); its record has no outcome and says why
	// in its meta ("capped").
	Stop func(g game.Game) (winners []int, why string)
	// Tally, if set, is called with every game as it ends, from the worker
	// goroutines, never concurrently: its number, the game at its end, its
	// winners (seats), its actions and whether Stop ended it. A kind's own
	// figures are counted with it.
	Tally func(i int, final game.Game, winners []int, actions []game.Action, stopped bool)
}

// Result is the outcome of a tournament.
type Result struct {
	Games     int      `json:"games"`
	Rules     string   `json:"rules"`
	Seed      string   `json:"seed"`
	Players   []Player `json:"players"`
	MeanTurns float64  `json:"mean_turns"` // turns per game, all players together
	// ByPlace is the ordinary game's wins by place in the turn order
	// (ByPlace[0]: whoever moved first, drawn by the roll-off or the first
	// seat), whatever the players' levels: with players of one level it is
	// the edge of moving first. Nil for other kinds of game.
	ByPlace []Place  `json:"by_place,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

// Place is the result of the players at one place in the turn order.
type Place struct {
	Place   int        `json:"place"` // 1: the first to move
	Wins    int        `json:"wins"`  // shared wins too
	Shared  int        `json:"shared,omitempty"`
	WinRate float64    `json:"win_rate"`
	SE      float64    `json:"se"`   // standard error of the win rate: sqrt(p(1-p)/games)
	CI95    [2]float64 `json:"ci95"` // Wilson score interval of the win rate
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
	// placeWins and placeShared count the wins by place in the turn
	// order (the ordinary game only).
	placeWins, placeShared [bot.MaxPlayers]int64
}

// Bots builds one bot per distinct level of levels for games of v with
// the Cast c, prepared (solver results loaded: a bot with a Prepare), and
// returns them by level with any notes about bots that fall back to a
// simpler level.
func Bots(v game.Variant, levels []string, c game.Cast) (map[string]game.Bot, []string, error) {
	out := map[string]game.Bot{}
	var notes []string
	for _, l := range levels {
		if _, ok := out[l]; ok {
			continue
		}
		b, err := c.Bot(v, l)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if p, ok := b.(interface{ Prepare() error }); ok {
			if err := p.Prepare(); err != nil {
				notes = append(notes, fmt.Sprintf("%s plays as a simpler level: %v", l, err))
			}
		}
		out[l] = b
	}
	return out, notes, nil
}

// variant returns the game of cfg: Variant, else the ordinary game under
// Rules.
func (cfg *Config) variant() (game.Variant, error) {
	if cfg.Variant != nil {
		return cfg.Variant, nil
	}
	v, err := game.NewFarkle(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return v, nil
}

// cast returns the Cast of cfg.
func (cfg *Config) cast() game.Cast {
	if cfg.Cast != nil {
		return cfg.Cast
	}
	return advise.Cast(cfg.Tables)
}

// Run plays the tournament on Workers goroutines and returns the results.
// Game i uses the seed and seating of Deal (GameSeed(Seed, i) and
// Seating(i, n)), so the result depends only on the Config, not on the
// number of workers or their timing. Games between bots of the ordinary
// game are played by Fast unless they are recorded (or Engine), any other
// through its game.Game. It stops early with ctx's error when ctx is done.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	n := len(cfg.Players)
	if cfg.Games < 1 {
		return nil, fmt.Errorf("%w: %d games (at least 1)", ErrConfig, cfg.Games)
	}
	v, err := cfg.variant()
	if err != nil {
		return nil, err
	}
	if lo, hi := v.Seats(); n < lo || n > hi || n > bot.MaxPlayers {
		return nil, fmt.Errorf("%w: %d players (the rules %s allow %d to %d)", ErrConfig, n, v.Name(), lo, min(hi, bot.MaxPlayers))
	}
	bots, notes, err := Bots(v, cfg.Players, cfg.cast())
	if err != nil {
		return nil, err
	}
	byPlayer := make([]game.Bot, n)
	var r rules.Rules
	fast := !cfg.Engine && cfg.Record == nil && cfg.Stop == nil && cfg.Tally == nil && v.Kind() == game.Farkle
	if fast {
		r = v.Scoring()
	}
	for j, l := range cfg.Players {
		byPlayer[j] = bots[l]
		if s, ok := bot.StrategyOf(bots[l]); !ok {
			fast = false
		} else if _, ok := s.(bot.Decider); !ok {
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
	var progressMu, tallyMu sync.Mutex
	tallies := make([]tally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &player{cfg: &cfg, v: v, names: names, bots: byPlayer, t: &tallies[w], tallyMu: &tallyMu}
			if fast {
				p.fast = NewFast(r)
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
			sum.placeWins[j] += t.placeWins[j]
			sum.placeShared[j] += t.placeShared[j]
		}
	}
	res := &Result{Games: cfg.Games, Rules: v.Name(), Seed: cfg.Seed.Hex(), Notes: notes}
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
	if v.Kind() == game.Farkle {
		for k := range n {
			w := int(sum.placeWins[k])
			p := float64(w) / g
			res.ByPlace = append(res.ByPlace, Place{Place: k + 1, Wins: w, Shared: int(sum.placeShared[k]),
				WinRate: p, SE: math.Sqrt(p * (1 - p) / g), CI95: Wilson(w, cfg.Games)})
		}
	}
	return res, nil
}

// player plays games for one worker.
type player struct {
	cfg      *Config
	v        game.Variant
	names    []string
	bots     []game.Bot // by player
	t        *tally
	tallyMu  *sync.Mutex
	fast     *Fast
	deciders []bot.Decider // by seat, for fast
	seat     []int         // Seating's, reused from game to game
}

// deal returns the seed and seating of game i.
func (p *player) deal(i int) (dice.Seed, []int) {
	n := len(p.cfg.Players)
	if p.cfg.Deal != nil {
		return p.cfg.Deal(p.cfg.Seed, i, n)
	}
	if len(p.seat) != n {
		p.seat = make([]int, n)
	}
	for j := range p.seat {
		p.seat[j] = (j + i) % n // Seating(i, n), without a slice a game
	}
	return GameSeed(p.cfg.Seed, i), p.seat
}

func (p *player) play(i int) error {
	n := len(p.cfg.Players)
	seed, seat := p.deal(i)
	var winners []int
	var scores, turns [bot.MaxPlayers]int
	first := -1 // the seat that moved first (the ordinary game)
	if p.fast != nil {
		for j, s := range seat {
			d, _ := bot.StrategyOf(p.bots[j])
			p.deciders[s] = d.(bot.Decider)
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
		scores, turns, first = out.Scores, out.Turns, out.First
	} else {
		g, ws, f, err := p.playGame(i, seat, seed)
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		winners, first = ws, f
		copy(scores[:], g.Scores())
		copy(turns[:], g.Turns())
	}
	if first >= 0 {
		for _, w := range winners {
			k := (w - first + n) % n
			p.t.placeWins[k]++
			if len(winners) > 1 {
				p.t.placeShared[k]++
			}
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

// playGame plays game i through its game.Game (and game.Play when it is
// recorded) and returns the game at its end, its winners and, for the
// ordinary game, the seat that moved first (-1 for other kinds).
func (p *player) playGame(i int, seat []int, seed dice.Seed) (g game.Game, winners []int, first int, err error) {
	cfg := p.cfg
	n := len(seat)
	seatNames := make([]string, n)
	bySeat := make([]game.Bot, n)
	levels := make([]string, n)
	for j, s := range seat {
		seatNames[s] = p.names[j]
		bySeat[s] = p.bots[j]
		levels[s] = cfg.Players[j]
	}
	src, botSrc := dice.NewSource(seed), game.BotSource(seed)
	var play *game.Play
	first = -1
	if cfg.Record != nil {
		if play, _, err = game.Start(p.v, seatNames, seed); err == nil {
			g = play.Game()
			play.Record().Meta.Extra = map[string]string{"levels": strings.Join(levels, ","), "game": fmt.Sprint(i), "sim_seed": cfg.Seed.Hex()}
		}
	} else {
		g, _, err = p.v.Start(seatNames, src)
	}
	if err != nil {
		return nil, nil, -1, err
	}
	keep := cfg.Tally != nil
	var actions []game.Action
	why := ""
	for n := 0; !g.Over(); n++ {
		if cfg.Stop != nil {
			if winners, why = cfg.Stop(g); why != "" {
				break
			}
		}
		if n > MaxActions {
			return g, nil, -1, ErrRunaway
		}
		s := g.ToAct()
		a, err := bySeat[s].Choose(g, s, botSrc)
		if err != nil {
			return g, nil, -1, fmt.Errorf("bot %s: %w", levels[s], err)
		}
		if ea, ok := a.(engine.Action); ok && first < 0 && ea.Kind != engine.RollOff {
			first = s // the ordinary game's first move after its roll-off
		}
		if play != nil {
			_, err = play.Do(s, a)
			g = play.Game()
		} else {
			g, _, err = g.Apply(s, a, src)
		}
		if err != nil {
			return g, nil, -1, fmt.Errorf("bot %s: %s: %w", levels[s], a, err)
		}
		if keep {
			actions = append(actions, a)
		}
	}
	if why == "" {
		winners = g.Winners()
	}
	if play != nil {
		rec := play.Record()
		rec.Seed = seed.Hex() // revealed also when Stop ended the game
		if why != "" {
			rec.Meta.Extra["capped"] = why
		}
		if err := cfg.Record(i, rec); err != nil {
			return g, nil, -1, err
		}
	}
	if cfg.Tally != nil {
		p.tallyMu.Lock()
		cfg.Tally(i, g, winners, actions, why != "")
		p.tallyMu.Unlock()
	}
	return g, winners, first, nil
}
