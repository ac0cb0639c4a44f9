package tournament

import (
	"math/rand/v2"
	"testing"
)

// play plays the round: a random winner with random points, or a draw now
// and then; byes stay as they are.
func play(r Round, rng *rand.Rand) Round {
	out := append(Round(nil), r...)
	for i, g := range out {
		if g.Done {
			continue
		}
		g.Done = true
		g.PA, g.PB = 50*rng.IntN(60), 50*rng.IntN(60)
		switch {
		case g.PA > g.PB:
			g.Winner = g.A
		case g.PB > g.PA:
			g.Winner = g.B
		default:
			g.Winner = -1
		}
		out[i] = g
	}
	return out
}

// run plays a whole tournament with random results.
func run(t *testing.T, f Format, n int, rng *rand.Rand) []Round {
	t.Helper()
	var rounds []Round
	for {
		r, ok := Next(f, n, rounds)
		if !ok {
			return rounds
		}
		if len(rounds) > 2*n {
			t.Fatalf("%s of %d: no end after %d rounds", f, n, len(rounds))
		}
		rounds = append(rounds, play(r, rng))
	}
}

// everyoneOnce checks that each entrant plays exactly once in the round
// (a game or a bye), and returns who had the bye.
func everyoneOnce(t *testing.T, f Format, n, k int, r Round, who func(int) bool) int {
	t.Helper()
	seen, byes := map[int]int{}, -1
	for _, g := range r {
		seen[g.A]++
		if g.B == Bye {
			byes = g.A
		} else {
			seen[g.B]++
		}
	}
	for e := range n {
		if who(e) && seen[e] != 1 {
			t.Fatalf("%s of %d, round %d: entrant %d plays %d times", f, n, k, e, seen[e])
		}
	}
	return byes
}

// TestRoundRobin, for every size: everyone meets everyone exactly once,
// plays (or sits out) every round once, and sits out once in all when
// the number is odd, never when even.
func TestRoundRobin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := MinEntrants; n <= MaxEntrants; n++ {
		rounds := run(t, RoundRobin, n, rng)
		if len(rounds) != Rounds(RoundRobin, n) {
			t.Fatalf("round-robin of %d: %d rounds", n, len(rounds))
		}
		meetings, byes := map[[2]int]int{}, map[int]int{}
		for k, r := range rounds {
			if b := everyoneOnce(t, RoundRobin, n, k, r, func(int) bool { return true }); b >= 0 {
				byes[b]++
			}
			for _, g := range r {
				if g.B != Bye {
					a, b := min(g.A, g.B), max(g.A, g.B)
					meetings[[2]int{a, b}]++
				}
			}
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				if meetings[[2]int{a, b}] != 1 {
					t.Fatalf("round-robin of %d: %d and %d meet %d times", n, a, b, meetings[[2]int{a, b}])
				}
			}
			if want := n % 2; byes[a] != want {
				t.Fatalf("round-robin of %d: entrant %d sits out %d times, want %d", n, a, byes[a], want)
			}
		}
	}
}

// TestSwiss, for every size: ceil(log2 n) rounds, everyone once a round,
// no rematch, and no entrant sits out twice.
func TestSwiss(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := MinEntrants; n <= MaxEntrants; n++ {
		rounds := run(t, Swiss, n, rng)
		if len(rounds) != Rounds(Swiss, n) {
			t.Fatalf("swiss of %d: %d rounds", n, len(rounds))
		}
		byes := map[int]int{}
		for k, r := range rounds {
			if b := everyoneOnce(t, Swiss, n, k, r, func(int) bool { return true }); b >= 0 {
				byes[b]++
				if byes[b] > 1 {
					t.Fatalf("swiss of %d: entrant %d sits out twice", n, b)
				}
			}
			before := met(rounds[:k])
			for _, g := range r {
				if g.B != Bye && before[[2]int{g.A, g.B}] {
					t.Fatalf("swiss of %d, round %d: %d and %d meet again", n, k, g.A, g.B)
				}
			}
		}
	}
}

// TestSwissPairsLikeRecords: in the second round of a Swiss of eight, the
// four winners of the first round play each other.
func TestSwissPairsLikeRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	first, _ := Next(Swiss, 8, nil)
	first = play(first, rng)
	for i := range first {
		if first[i].Winner < 0 { // no draws here
			first[i].PA++
			first[i].Winner = first[i].A
		}
	}
	winners := map[int]bool{}
	for _, g := range first {
		winners[g.Winner] = true
	}
	second, _ := Next(Swiss, 8, []Round{first})
	for _, g := range second {
		if winners[g.A] != winners[g.B] {
			t.Fatalf("round 2 pairs a winner with a loser: %+v (winners %v)", g, winners)
		}
	}
}

// TestKnockout, for every size: ceil(log2 n) rounds; the byes, all in the
// first round, go to the top seeds; nobody plays after losing; one
// champion.
func TestKnockout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := MinEntrants; n <= MaxEntrants; n++ {
		rounds := run(t, Knockout, n, rng)
		if len(rounds) != Rounds(Knockout, n) {
			t.Fatalf("knockout of %d: %d rounds", n, len(rounds))
		}
		size := 1 << Rounds(Knockout, n)
		out := map[int]bool{}
		for k, r := range rounds {
			everyoneOnce(t, Knockout, n, k, r, func(e int) bool { return !out[e] })
			for _, g := range r {
				if out[g.A] || (g.B != Bye && out[g.B]) {
					t.Fatalf("knockout of %d, round %d: %+v has a player already out", n, k, g)
				}
				if g.B == Bye {
					if k > 0 || g.A >= size-n {
						t.Fatalf("knockout of %d: a bye for seed %d in round %d", n, g.A, k)
					}
					continue
				}
				w := advance(g)
				if w == g.A {
					out[g.B] = true
				} else {
					out[g.A] = true
				}
			}
		}
		if c := Champion(rounds); c < 0 || out[c] || len(out) != n-1 {
			t.Fatalf("knockout of %d: champion %d, %d out", n, c, len(out))
		}
	}
}

// TestStandings: wins first, then points difference, then the games
// between those still level, then seed.
func TestStandings(t *testing.T) {
	g := func(a, b, pa, pb int) Game {
		w := -1
		if pa > pb {
			w = a
		} else if pb > pa {
			w = b
		}
		return Game{A: a, B: b, Done: true, PA: pa, PB: pb, Winner: w}
	}
	rounds := []Round{
		{g(1, 0, 500, 400), g(2, 3, 1000, 0)},
		{g(0, 2, 500, 400), g(3, 1, 500, 400)},
	}
	// 0: W1 L1 diff 0; 1: W1 L1 diff 0 and beat 0; 2: W1 L1 diff +900;
	// 3: W1 L1 diff -900.
	st := Standings(4, rounds)
	got := []int{st[0].Entrant, st[1].Entrant, st[2].Entrant, st[3].Entrant}
	if want := []int{2, 1, 0, 3}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("standings %v, want %v: %+v", got, want, st)
	}
	if st[0].Wins != 1 || st[0].Diff() != 900 || st[0].Played != 2 {
		t.Fatalf("entrant 2's line: %+v", st[0])
	}
	// A bye is a win; a draw half a win.
	st = Standings(3, []Round{{bye(0), g(1, 2, 300, 300)}})
	if st[0].Entrant != 0 || st[0].Wins != 1 || st[1].Draws != 1 || st[1].Entrant != 1 {
		t.Fatalf("a bye and a draw: %+v", st)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		f  Format
		n  int
		ok bool
	}{{RoundRobin, 3, true}, {Swiss, 64, true}, {Knockout, 2, false}, {Knockout, 65, false}, {"league", 8, false}} {
		if err := Check(c.f, c.n); (err == nil) != c.ok {
			t.Errorf("Check(%s, %d) = %v", c.f, c.n, err)
		}
	}
}
