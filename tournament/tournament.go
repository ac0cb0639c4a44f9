package tournament

import (
	"fmt"
	"sort"
)

// Format is a kind of tournament.
type Format string

// The formats.
const (
	RoundRobin Format = "round-robin"
	Swiss      Format = "swiss"
	Knockout   Format = "knockout"
)

// The sizes a tournament may have.
const (
	MinEntrants = 3
	MaxEntrants = 64
)

// Bye is the opponent of an entrant who sits a round out.
const Bye = -1

// Game is one pairing of a round: A against B (B is Bye for a bye; both
// are Bye for a void game, see Void). Once played, Done is set with each
// side's points and the winner (Bye is never the winner; a drawn game, and
// one both sides forfeited, has Winner -1). Forfeit says who lost it
// without playing it out (SetForfeit).
type Game struct {
	A, B    int
	Done    bool
	PA, PB  int
	Winner  int
	Forfeit Forfeit
}

// Round is the games of one round.
type Round []Game

// Done reports whether every game of the round is played (byes count as
// played).
func (r Round) Done() bool {
	for _, g := range r {
		if !g.Done {
			return false
		}
	}
	return true
}

// Rounds returns the number of rounds a tournament of n entrants has:
// n-1 (n for odd n) for a round-robin, ceil(log2 n) for Swiss and
// knockout.
func Rounds(f Format, n int) int {
	switch f {
	case RoundRobin:
		if n%2 == 1 {
			return n
		}
		return n - 1
	default:
		r := 0
		for 1<<r < n {
			r++
		}
		return r
	}
}

// Check refuses a format or size not allowed.
func Check(f Format, n int) error {
	switch f {
	case RoundRobin, Swiss, Knockout:
	default:
		return fmt.Errorf("format %q (formats: round-robin, swiss, knockout)", f)
	}
	if n < MinEntrants || n > MaxEntrants {
		return fmt.Errorf("%d entrants: a tournament has %d to %d", n, MinEntrants, MaxEntrants)
	}
	return nil
}

// bye returns the game of a bye for entrant a, played and won.
func bye(a int) Game { return Game{A: a, B: Bye, Done: true, Winner: a} }

// Next returns the next round of a tournament of n entrants in format f
// after the rounds played (every one of them Done), and false when the
// tournament is over.
func Next(f Format, n int, played []Round) (Round, bool) {
	switch f {
	case RoundRobin:
		if len(played) >= Rounds(f, n) {
			return nil, false
		}
		return circle(n, len(played)), true
	case Swiss:
		if len(played) >= Rounds(f, n) {
			return nil, false
		}
		return swissRound(n, played), true
	case Knockout:
		return knockoutRound(n, played)
	}
	return nil, false
}

// circle is round r of the circle method: entrant n-1 (or the bye, for odd
// n) stays put and the others turn one place each round.
func circle(n, r int) Round {
	m := n
	if m%2 == 1 {
		m++ // the last place is the bye
	}
	pos := make([]int, m)
	pos[0] = 0
	for i := 1; i < m; i++ {
		pos[i] = 1 + (i-1+r)%(m-1)
	}
	var out Round
	for i := 0; i < m/2; i++ {
		a, b := pos[i], pos[m-1-i]
		if a >= n {
			a, b = b, a
		}
		if b >= n {
			out = append(out, bye(a))
			continue
		}
		if r%2 == 1 && i == 0 {
			a, b = b, a // the fixed entrant does not always sit first
		}
		out = append(out, Game{A: a, B: b})
	}
	return out
}

// Standing is one entrant's line of the standings.
type Standing struct {
	Entrant int
	Played  int // games, byes included
	Wins    int // byes count as wins
	Draws   int
	Losses  int
	// Forfeits are the losses by forfeit (counted in Losses too).
	Forfeits int
	For      int // points scored
	Against  int
}

// Diff is the points difference.
func (s Standing) Diff() int { return s.For - s.Against }

// score is wins counting a draw as a half, doubled to stay whole.
func (s Standing) score() int { return 2*s.Wins + s.Draws }

// Standings ranks the entrants after the rounds: by wins (a draw half a
// win), then points difference, then the games between the entrants so
// tied (their wins against each other), then seed. A forfeit is a loss (a
// win for the other side) whose points do not count.
func Standings(n int, rounds []Round) []Standing {
	st := make([]Standing, n)
	for i := range st {
		st[i].Entrant = i
	}
	beat := map[[2]int]int{}
	for _, r := range rounds {
		for _, g := range r {
			if !g.Done || g.Void() {
				continue
			}
			if g.B == Bye {
				st[g.A].Played++
				st[g.A].Wins++
				continue
			}
			a, b := &st[g.A], &st[g.B]
			a.Played++
			b.Played++
			if fa, fb := g.forfeits(); fa || fb {
				if fa {
					a.Forfeits++
				}
				if fb {
					b.Forfeits++
				}
				if fa && fb {
					a.Losses++
					b.Losses++
					continue
				}
			} else {
				a.For += g.PA
				a.Against += g.PB
				b.For += g.PB
				b.Against += g.PA
			}
			switch g.Winner {
			case g.A:
				a.Wins++
				b.Losses++
				beat[[2]int{g.A, g.B}]++
			case g.B:
				b.Wins++
				a.Losses++
				beat[[2]int{g.B, g.A}]++
			default:
				a.Draws++
				b.Draws++
			}
		}
	}
	// Head-to-head among the entrants level on wins and difference.
	h2h := make([]int, n)
	for i := range st {
		for j := range st {
			if i != j && st[i].score() == st[j].score() && st[i].Diff() == st[j].Diff() {
				h2h[i] += beat[[2]int{i, j}]
			}
		}
	}
	sort.SliceStable(st, func(i, j int) bool {
		a, b := st[i], st[j]
		switch {
		case a.score() != b.score():
			return a.score() > b.score()
		case a.Diff() != b.Diff():
			return a.Diff() > b.Diff()
		case h2h[a.Entrant] != h2h[b.Entrant]:
			return h2h[a.Entrant] > h2h[b.Entrant]
		}
		return a.Entrant < b.Entrant
	})
	return st
}

// met reports which pairs have played each other.
func met(rounds []Round) map[[2]int]bool {
	m := map[[2]int]bool{}
	for _, r := range rounds {
		for _, g := range r {
			if g.A != Bye && g.B != Bye {
				m[[2]int{g.A, g.B}], m[[2]int{g.B, g.A}] = true, true
			}
		}
	}
	return m
}

// swissRound pairs the entrants in standings order, each with the next
// one it has not met, backtracking when a pairing leaves someone without
// a fresh opponent; the bye goes to the lowest-ranked entrant who has not
// had one.
func swissRound(n int, played []Round) Round {
	st := Standings(n, played)
	order := make([]int, n)
	for i, s := range st {
		order[i] = s.Entrant
	}
	had := map[int]bool{}
	for _, r := range played {
		for _, g := range r {
			if g.B == Bye && !g.Void() {
				had[g.A] = true
			}
		}
	}
	var out Round
	if n%2 == 1 {
		k := len(order) - 1
		for k > 0 && had[order[k]] {
			k--
		}
		out = append(out, bye(order[k]))
		order = append(order[:k:k], order[k+1:]...)
	}
	seen := met(played)
	if pairs, ok := pairUp(order, seen); ok {
		return append(pairs, out...)
	}
	// Everyone has met everyone it could: pair in order, rematches allowed.
	for i := 0; i+1 < len(order); i += 2 {
		out = append(out, Game{A: order[i], B: order[i+1]})
	}
	return out
}

// pairUp pairs the first of order with the first it has not met, and the
// rest likewise, backtracking; false if no pairing without a rematch
// exists.
func pairUp(order []int, seen map[[2]int]bool) (Round, bool) {
	if len(order) == 0 {
		return nil, true
	}
	a := order[0]
	for i := 1; i < len(order); i++ {
		b := order[i]
		if seen[[2]int{a, b}] {
			continue
		}
		rest := make([]int, 0, len(order)-2)
		rest = append(rest, order[1:i]...)
		rest = append(rest, order[i+1:]...)
		if r, ok := pairUp(rest, seen); ok {
			return append(Round{{A: a, B: b}}, r...), true
		}
	}
	return nil, false
}

// bracket returns the first round's seeds in bracket order for a field of
// size a power of two: 1 meets the last, and the top seeds meet as late as
// they can.
func bracket(size int) []int {
	order := []int{0}
	for len(order) < size {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m-1-s)
		}
		order = next
	}
	return order
}

// knockoutRound returns the next round of a knockout: the first from the
// bracket (the top seeds get the byes when n is not a power of two), then
// the winners of the last round in order (one whose opponent-to-be went
// out by a double forfeit has a bye; a place neither reached is void);
// false once the final is played.
func knockoutRound(n int, played []Round) (Round, bool) {
	if len(played) == 0 {
		size := 1 << Rounds(Knockout, n)
		order := bracket(size)
		var out Round
		for i := 0; i < size; i += 2 {
			a, b := order[i], order[i+1]
			switch {
			case b >= n:
				out = append(out, bye(a))
			case a >= n:
				out = append(out, bye(b))
			default:
				out = append(out, Game{A: a, B: b})
			}
		}
		return out, true
	}
	last := played[len(played)-1]
	if len(last) == 1 {
		return nil, false
	}
	var out Round
	for i := 0; i+1 < len(last); i += 2 {
		a, b := advance(last[i]), advance(last[i+1])
		switch {
		case a >= 0 && b >= 0:
			out = append(out, Game{A: a, B: b})
		case a >= 0:
			out = append(out, bye(a))
		case b >= 0:
			out = append(out, bye(b))
		default:
			out = append(out, void())
		}
	}
	return out, true
}

// advance returns who goes on from a knockout game: the winner, or, for a
// drawn game, the higher seed; -1 (nobody) from a void game or one both
// sides forfeited.
func advance(g Game) int {
	switch {
	case g.Winner >= 0:
		return g.Winner
	case g.Void() || g.Forfeit == ForfeitBoth:
		return -1
	case g.B == Bye || g.A < g.B:
		return g.A
	}
	return g.B
}

// Champion returns the knockout's winner once its final is played, or -1
// (also when nobody won the final: both sides forfeited it).
func Champion(rounds []Round) int {
	if len(rounds) == 0 {
		return -1
	}
	last := rounds[len(rounds)-1]
	if len(last) != 1 || !last[0].Done {
		return -1
	}
	return advance(last[0])
}
