package dragon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/farkle/farkle/dice"
)

// DefaultMaxRounds ends a simulated game that has no round limit of its own
// after this many rounds (most soldiers wins), so that bots that never
// attack cannot run forever. Such games are counted in SimResult.Capped.
const DefaultMaxRounds = 200

// SimOptions configures Simulate.
type SimOptions struct {
	Rules     Rules                 // zero value: DefaultRules()
	Cards     *Cards                // nil: DefaultCards()
	Games     int                   // games to play
	Seed      [32]byte              // game i uses GameSeed(dice.Seed, i)
	Workers   int                   // parallel games; 0: GOMAXPROCS
	MaxRounds int                   // 0: DefaultMaxRounds (when Rules.RoundLimit is 0)
	Progress  func(done, total int) // called after each game, from any goroutine; may be nil
	// Record, if set, is called with every game as it ends, from any
	// goroutine: its number, the players' names, its seed and its actions
	// (Game.Replay rebuilds it from them), and whether MaxRounds ended it.
	// An error stops the simulation.
	Record func(i int, names []string, seed [32]byte, actions []Action, capped bool) error
}

// SimPlayer is one seat's result. Wins counts shared wins too (a game won
// by tied players counts for each of them, as in the ordinary sim); Shared
// says how many of them were shared.
type SimPlayer struct {
	Name         string  `json:"name"`
	Level        string  `json:"level"`
	Wins         int     `json:"wins"`
	Shared       int     `json:"shared,omitempty"`
	WinRate      float64 `json:"win_rate"`
	Low          float64 `json:"low"`           // 95% Wilson interval of the win rate
	High         float64 `json:"high"`          //
	MeanTurns    float64 `json:"mean_turns"`    // this player's turns per game
	MeanSoldiers float64 `json:"mean_soldiers"` // soldiers at the end of a game
}

// SimPlace is the result of the players by their place in the turn order
// (1: the first player of a game, who is drawn at random), whatever their
// level: a fair game gives every place 1/players of the wins when the
// players are of one level.
type SimPlace struct {
	Place   int     `json:"place"`
	Wins    int     `json:"wins"`
	Shared  int     `json:"shared,omitempty"`
	WinRate float64 `json:"win_rate"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
}

// SimResult is the outcome of Simulate.
type SimResult struct {
	Rules     string      `json:"rules"`
	Games     int         `json:"games"`
	Seed      string      `json:"seed"` // hex
	Players   []SimPlayer `json:"players"`
	ByPlace   []SimPlace  `json:"by_place"`
	Slain     int         `json:"slain"`  // games won by slaying the dragon
	Capped    int         `json:"capped"` // games ended by MaxRounds
	Ties      int         `json:"ties"`
	AvgRounds float64     `json:"avg_rounds"`
	AvgTurns  float64     `json:"avg_turns"`
	Battles   float64     `json:"battles"` // Final Battles started per game
}

// SimNames returns the display names of players given by level: the level
// itself, or LEVEL#k (k from 1) for a level that appears more than once,
// as the ordinary sim names them.
func SimNames(levels []string) []string {
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

// Simulate plays games full bot games with the default rules and cards;
// players are bot levels ("random", "simple", "smart", optionally
// "bot:smart"), one per seat. The result depends only on the arguments.
func Simulate(players []string, games int, seed [32]byte) (SimResult, error) {
	return SimulateWith(players, SimOptions{Games: games, Seed: seed})
}

// GameSeed returns the 32-byte key of game i of a simulation with seed:
// SHA-256 of the seed, "dragon-game" and i (8 bytes, little-endian).
func GameSeed(seed [32]byte, i int) [32]byte {
	b := make([]byte, 0, 32+11+8)
	b = append(b, seed[:]...)
	b = append(b, "dragon-game"...)
	b = binary.LittleEndian.AppendUint64(b, uint64(i))
	return sha256.Sum256(b)
}

// SimulateWith is Simulate with options. Games run in parallel; game i is
// PlayGame with GameSeed(dice.Seed, i), so the result does not depend on
// Workers and any game can be replayed.
func SimulateWith(players []string, o SimOptions) (SimResult, error) {
	if o.Rules.Name == "" {
		o.Rules = DefaultRules()
	}
	if o.Games < 1 {
		return SimResult{}, fmt.Errorf("%w: games must be at least 1 (got %d)", ErrPlayers, o.Games)
	}
	g, err := NewGame(o.Rules, o.Cards)
	if err != nil {
		return SimResult{}, err
	}
	levels := make([]Level, len(players))
	for i, p := range players {
		if levels[i], err = ParseLevel(p); err != nil {
			return SimResult{}, err
		}
	}
	if len(players) < o.Rules.MinPlayers || len(players) > o.Rules.MaxPlayers {
		return SimResult{}, fmt.Errorf("%w: %d players (Dragon Farkle takes %d to %d)", ErrPlayers, len(players), o.Rules.MinPlayers, o.Rules.MaxPlayers)
	}
	brains := NewBrains(g)
	bots := make([]*Bot, len(levels))
	lv := make([]string, len(levels))
	for i, l := range levels {
		bots[i] = NewBot(l, brains)
		lv[i] = l.String()
	}
	names := SimNames(lv)
	maxRounds := o.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type outcome struct {
		final   State
		capped  bool
		battles int
		err     error
	}
	results := make([]outcome, o.Games)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				st, acts, capped, err := PlayGame(g, names, bots, GameSeed(o.Seed, i), maxRounds)
				if err == nil && o.Record != nil {
					err = o.Record(i, names, GameSeed(o.Seed, i), acts, capped)
				}
				battles := 0
				for _, a := range acts {
					if a.Kind == ActBattle {
						battles++
					}
				}
				results[i] = outcome{st, capped, battles, err}
				if o.Progress != nil {
					mu.Lock()
					done++
					d := done
					mu.Unlock()
					o.Progress(d, o.Games)
				}
			}
		}()
	}
	for i := range o.Games {
		next <- i
	}
	close(next)
	wg.Wait()

	n := len(players)
	res := SimResult{Rules: o.Rules.Name, Games: o.Games, Seed: hex.EncodeToString(o.Seed[:]), Players: make([]SimPlayer, n), ByPlace: make([]SimPlace, n)}
	for i, l := range levels {
		res.Players[i] = SimPlayer{Name: names[i], Level: l.String()}
		res.ByPlace[i].Place = i + 1
	}
	for _, r := range results {
		if r.err != nil {
			return SimResult{}, r.err
		}
		st := r.final
		shared := len(st.Winners) > 1
		for _, w := range st.Winners {
			place := &res.ByPlace[(w-st.First+n)%n]
			res.Players[w].Wins++
			place.Wins++
			if shared {
				res.Players[w].Shared++
				place.Shared++
			}
		}
		if shared {
			res.Ties++
		}
		if st.Slain {
			res.Slain++
		}
		if r.capped {
			res.Capped++
		}
		for i := range st.Players {
			res.Players[i].MeanSoldiers += float64(st.Players[i].Soldiers)
			res.Players[i].MeanTurns += float64(turnsOf(st, i))
		}
		res.Battles += float64(r.battles)
		res.AvgRounds += float64(st.Round)
		res.AvgTurns += float64(st.Turns)
	}
	games := float64(o.Games)
	res.AvgRounds /= games
	res.AvgTurns /= games
	res.Battles /= games
	for i := range res.Players {
		p := &res.Players[i]
		p.WinRate = float64(p.Wins) / games
		p.Low, p.High = wilson(float64(p.Wins), games)
		p.MeanSoldiers /= games
		p.MeanTurns /= games
		q := &res.ByPlace[i]
		q.WinRate = float64(q.Wins) / games
		q.Low, q.High = wilson(float64(q.Wins), games)
	}
	return res, nil
}

// turnsOf counts the turns seat took in a game that ended in state st:
// the finished turns, in order from the first player, and the turn in
// which the dragon was slain.
func turnsOf(st State, seat int) int {
	n := len(st.Players)
	k := (seat - st.First + n) % n
	t := 0
	if st.Turns > k {
		t = (st.Turns-k-1)/n + 1
	}
	if st.Slain && st.Turn == seat {
		t++
	}
	return t
}

// wilson returns the 95% Wilson score interval of k successes in n trials.
func wilson(k, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	p := k / n
	den := 1 + z*z/n
	c := (p + z*z/(2*n)) / den
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return max(0, c-h), min(1, c+h)
}

// PlayGame plays one game of bots (one per seat, named names): the game
// draws from dice.NewSource(seed) and the Random bots from a separate source
// keyed by dice.Seed(seed).Derive("dragon-bots"), so Game.Replay(names, seed, actions) rebuilds the
// game from the actions returned. The game runs until it ends or maxRounds
// rounds have passed (0: no cap); at the cap the most soldiers win and
// capped is true. Bots see only their View.
func PlayGame(g *Game, names []string, bots []*Bot, seed [32]byte, maxRounds int) (final State, actions []Action, capped bool, err error) {
	src, botSrc := dice.NewSource(seed), dice.NewSource(dice.Seed(seed).Derive("dragon-bots"))
	s, _, err := g.New(names, src)
	if err != nil {
		return State{}, nil, false, err
	}
	if len(bots) != len(names) {
		return State{}, nil, false, fmt.Errorf("%w: %d bots for %d players", ErrPlayers, len(bots), len(names))
	}
	for !s.Over() {
		if maxRounds > 0 && s.Round > maxRounds && s.Phase == PhaseChoose {
			best := -1
			var ws []int
			for i, p := range s.Players {
				switch {
				case p.Soldiers > best:
					best, ws = p.Soldiers, []int{i}
				case p.Soldiers == best:
					ws = append(ws, i)
				}
			}
			s.Phase, s.Winners = PhaseOver, ws
			return s, actions, true, nil
		}
		seat := s.ToAct()
		a := bots[seat].Choose(g.View(s, seat), botSrc)
		actions = append(actions, a)
		var err error
		s, _, err = g.Apply(s, a, src)
		if err != nil {
			return s, actions, false, fmt.Errorf("dragon: bot %s chose %s: %w", bots[seat].Level, a, err)
		}
	}
	return s, actions, false, nil
}
