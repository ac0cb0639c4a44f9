package sim

import (
	"errors"
	"fmt"
	mrand "math/rand/v2"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// ErrRunaway is returned when a game does not end within MaxTurns turns or
// MaxActions actions (bots that never bank under rules where that is
// allowed, or a turn that never ends: a bot that always throws hot dice
// again under rules where every die scores).
var ErrRunaway = errors.New("sim: game did not end")

// MaxTurns is the most turns a simulated game may take, and MaxActions the
// most actions.
const (
	MaxTurns   = 100_000
	MaxActions = 20 * MaxTurns
)

// Outcome is the end of one game.
type Outcome struct {
	Winners uint8               // bit i: seat i won (several when shared)
	Scores  [bot.MaxPlayers]int // final scores by seat
	Turns   [bot.MaxPlayers]int // turns started by seat
	Actions int                 // actions taken, roll-offs included
	First   int                 // the seat that moved first (won the roll-off)
}

// Won reports whether seat i won.
func (o *Outcome) Won(i int) bool { return o.Winners&(1<<i) != 0 }

// Fast plays games between Deciders without the engine: the same rules
// (the project's game semantics), the same dice (the engine's ChaCha8
// source: one 64-bit draw per face, rejection above the largest multiple
// of 6) and the same questions to the bots as engine.Apply with
// bot.Strategy.Choose, so a game from a seed is the very game the engine
// plays from that seed. It is an unchecked fast path: it trusts the
// Deciders to return keep indices within range, and it allocates nothing
// per game or action. A Fast is not safe for concurrent use; use one per
// goroutine.
type Fast struct {
	r     rules.Rules
	tab   *dice.Table
	rng   mrand.ChaCha8
	v     bot.View
	out   Outcome
	bots  []bot.Decider
	trace func(engine.Action)
	live  [bot.MaxPlayers]int // roll-off contenders
	keeps [dice.NumHands][]dice.Keep
}

// pow7[f] is 7^(f-1): a throw's key is the sum over its dice, the counts of
// the faces as base-7 digits.
var pow7 = [7]int{0, 1, 7, 49, 343, 2401, 16807}

// keyIndex maps a throw's key to its hand index (dice.Hand.Index).
var keyIndex = func() *[117649]uint16 {
	var t [117649]uint16
	for _, h := range dice.AllThrows() {
		k := 0
		for f := 1; f <= 6; f++ {
			k += h.Count(f) * pow7[f]
		}
		t[k] = uint16(h.Index())
	}
	return &t
}()

// NewFast returns a fast player for rules r (which must be valid).
func NewFast(r rules.Rules) *Fast {
	f := &Fast{r: r.Clone(), tab: engine.TableFor(r)}
	f.v.Rules = &f.r
	f.v.Table = f.tab
	for _, h := range dice.AllThrows() {
		f.keeps[h.Index()] = f.tab.Keeps(h)
	}
	return f
}

// Trace makes Play call fn with every action as it is taken (for tests);
// nil turns it off.
func (f *Fast) Trace(fn func(engine.Action)) { f.trace = fn }

// face draws a die exactly as engine.ChaCha does (dice.Face).
func (f *Fast) face() int {
	for {
		if face, ok := dice.FaceOf(f.rng.Uint64()); ok {
			return face
		}
	}
}

// throwDice throws n dice and returns the index of the throw.
func (f *Fast) throwDice(n int) int {
	k := 0
	for range n {
		k += pow7[f.face()]
	}
	return int(keyIndex[k])
}

func (f *Fast) act(a engine.Action) {
	f.out.Actions++
	if f.trace != nil {
		f.trace(a)
	}
}

// Play plays one game with the dice of seed, bots[i] playing seat i, and
// returns its outcome. The number of bots must be allowed by the rules.
func (f *Fast) Play(seed dice.Seed, bots []bot.Decider) (Outcome, error) {
	n := len(bots)
	if n < 1 || n > bot.MaxPlayers || n < f.r.Game.MinPlayers || n > f.r.Game.MaxPlayers {
		return Outcome{}, fmt.Errorf("%w: %d players (these rules allow %d to %d)", engine.ErrPlayers, n, f.r.Game.MinPlayers, f.r.Game.MaxPlayers)
	}
	f.rng.Seed(seed)
	f.bots = bots
	f.out = Outcome{}
	v := &f.v
	v.Players, v.FinalRound, v.Trigger = n, false, -1
	v.Scores, v.Streaks = [bot.MaxPlayers]int{}, [bot.MaxPlayers]int{}
	first := 0
	if f.r.Game.FirstPlayer == rules.RollOff && n > 1 {
		for i := range n {
			f.live[i] = i
		}
		first = f.rollOff(n)
	}
	f.out.First = first
	p := first
	for turns := 0; ; turns++ {
		if turns >= MaxTurns {
			return f.out, fmt.Errorf("%w after %d turns", ErrRunaway, turns)
		}
		if !f.turn(p) {
			return f.out, fmt.Errorf("%w after %d actions", ErrRunaway, f.out.Actions)
		}
		if f.over() {
			return f.out, nil
		}
		next := (p + 1) % n
		if v.FinalRound && next == v.Trigger {
			f.finish(n)
			return f.out, nil
		}
		// The cap on the game's length, as the engine: at the end of a
		// round (every seat has started max_turns turns), never during a
		// final round.
		if m := f.r.Game.MaxTurns; m > 0 && !v.FinalRound && f.out.Turns[next] >= m {
			f.finish(n)
			return f.out, nil
		}
		p = next
	}
}

// over reports whether the last turn ended the game at once (immediate
// ending); it is set by turn through out.Winners.
func (f *Fast) over() bool { return f.out.Winners != 0 }

// rollOff throws one die for each of the first k seats in f.live, again
// among the tied highest, and returns the winner.
func (f *Fast) rollOff(k int) int {
	for {
		var faces [bot.MaxPlayers]int
		high := 0
		for i := range k {
			f.act(engine.RollOffBy(f.live[i]))
			faces[i] = f.face()
			high = max(high, faces[i])
		}
		top := 0
		for i := range k {
			if faces[i] == high {
				f.live[top] = f.live[i]
				top++
			}
		}
		if top == 1 {
			return f.live[0]
		}
		k = top
	}
}

// turn plays one turn of seat p; false means the game took more than
// MaxActions actions.
func (f *Fast) turn(p int) bool {
	v, r := &f.v, &f.r
	d := f.bots[p]
	f.out.Turns[p]++
	v.Seat, v.Total, v.Left = p, 0, r.Dice
	for {
		if f.out.Actions > MaxActions {
			return false
		}
		// Throw.
		f.act(engine.ThrowBy(p))
		n := v.Left
		if n == 0 {
			n = r.Dice
		}
		i := f.throwDice(n)
		v.Left, v.Throw, v.ThrowIndex = n, dice.HandAt(i), i
		keeps := f.keeps[i]
		if len(keeps) == 0 {
			if n == 6 && r.Scoring.SixDiceNothing > 0 {
				v.Total += r.Scoring.SixDiceNothing
				continue // must throw six again
			}
			v.Streaks[p]++
			if pen := r.Turn.FarklePenalty; pen.Count > 0 && v.Streaks[p] >= pen.Count {
				v.Scores[p] -= min(pen.Points, v.Scores[p])
				v.Streaks[p] = 0
			}
			return true
		}
		// Keep.
		k := keeps[d.Keep(v)]
		f.act(engine.KeepBy(p, k.Hand))
		v.Total += int(k.Points)
		v.Left -= int(k.N)
		canThrow := v.Left > 0 || r.Turn.HotDice
		canBank := v.Total >= r.Turn.BankMinimum && (v.Scores[p] != 0 || v.Total >= r.Turn.EntryMinimum)
		switch {
		case !canBank && !canThrow:
			return true // the turn ends with nothing
		case canBank && (!canThrow || d.Bank(v)):
			f.act(engine.BankBy(p))
			f.bank(p)
			return true
		}
	}
}

func (f *Fast) bank(p int) {
	v, g := &f.v, &f.r.Game
	v.Scores[p] += v.Total
	v.Streaks[p] = 0
	v.Total = 0
	if v.Scores[p] >= g.Target {
		if g.Ending == rules.EndImmediate {
			f.end(1 << p)
			return
		}
		if !v.FinalRound {
			v.FinalRound, v.Trigger = true, p
		}
	}
}

// finish ends a final-round or capped game on the highest score.
func (f *Fast) finish(n int) {
	v := &f.v
	high := -1
	for i := range n {
		high = max(high, v.Scores[i])
	}
	k := 0
	var win uint8
	for i := range n {
		if v.Scores[i] == high {
			f.live[k] = i
			k++
			win |= 1 << i
		}
	}
	if k > 1 && f.r.Game.Tie == rules.RollOff {
		win = 1 << f.rollOff(k)
	}
	f.end(win)
}

func (f *Fast) end(win uint8) {
	f.out.Winners = win
	f.out.Scores = f.v.Scores
}
