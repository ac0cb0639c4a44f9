package tournament

import (
	"math/rand/v2"
	"testing"
)

// playOrForfeit plays the round as play does, but settles about one game
// in three as a forfeit of A, of B or of both.
func playOrForfeit(r Round, rng *rand.Rand) Round {
	out := play(r, rng)
	for i, g := range r {
		if g.Done || rng.IntN(3) > 0 {
			continue
		}
		g.SetForfeit(Forfeit(1 + rng.IntN(3)))
		out[i] = g
	}
	return out
}

// TestKnockoutWithForfeits, for every size and many random brackets with
// forfeits: ceil(log2 n) rounds; nobody plays after losing or forfeiting;
// one whose opponent-to-be went out by a double forfeit has a bye, and a
// place neither reached is void; the champion is the one left who never
// lost, or nobody when the final was forfeited by both or void.
func TestKnockoutWithForfeits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for n := MinEntrants; n <= MaxEntrants; n++ {
		for range 20 {
			var rounds []Round
			out := map[int]bool{}
			for {
				r, ok := Next(Knockout, n, rounds)
				if !ok {
					break
				}
				k := len(rounds)
				r = playOrForfeit(r, rng)
				rounds = append(rounds, r)
				if k > 0 && len(r) != len(rounds[k-1])/2 {
					t.Fatalf("knockout of %d, round %d: %d games after %d", n, k, len(r), len(rounds[k-1]))
				}
				for _, g := range r {
					for _, e := range []int{g.A, g.B} {
						if e >= 0 && out[e] {
							t.Fatalf("knockout of %d, round %d: %+v has an entrant already out", n, k, g)
						}
					}
					if g.Void() || g.B == Bye {
						continue
					}
					fa, fb := g.forfeits()
					switch w := advance(g); {
					case fa && fb:
						if w != -1 || g.Winner != -1 {
							t.Fatalf("knockout of %d: %+v forfeited by both sends on %d", n, g, w)
						}
						out[g.A], out[g.B] = true, true
					case w == g.A:
						out[g.B] = true
					default:
						out[g.A] = true
					}
				}
			}
			if len(rounds) != Rounds(Knockout, n) {
				t.Fatalf("knockout of %d: %d rounds", n, len(rounds))
			}
			final := rounds[len(rounds)-1]
			c := Champion(rounds)
			switch {
			case len(final) != 1:
				t.Fatalf("knockout of %d: a final of %d games", n, len(final))
			case final[0].Void() || final[0].Forfeit == ForfeitBoth:
				if c != -1 || len(out) != n {
					t.Fatalf("knockout of %d: nobody reached or won the final (%+v), yet champion %d, %d out", n, final[0], c, len(out))
				}
			case c < 0 || out[c] || len(out) != n-1:
				t.Fatalf("knockout of %d: champion %d, %d out", n, c, len(out))
			}
		}
	}
}

// TestStandingsWithForfeits: a forfeit is a loss for whoever forfeits and
// a win for the other, its points do not count, and a double forfeit is
// a loss for both; the lines add up over random round-robins and Swisses
// with forfeits, each entrant's line derived here game by game.
func TestStandingsWithForfeits(t *testing.T) {
	g := func(a, b int, f Forfeit) Game {
		x := Game{A: a, B: b, PA: 700, PB: 300}
		x.SetForfeit(f)
		return x
	}
	st := Standings(3, []Round{{g(0, 1, ForfeitA), bye(2)}, {g(1, 2, ForfeitBoth), bye(0)}})
	want := map[int]Standing{
		0: {Entrant: 0, Played: 2, Wins: 1, Losses: 1, Forfeits: 1},
		1: {Entrant: 1, Played: 2, Wins: 1, Losses: 1, Forfeits: 1},
		2: {Entrant: 2, Played: 2, Wins: 1, Losses: 1, Forfeits: 1},
	}
	for _, s := range st {
		if s != want[s.Entrant] {
			t.Fatalf("entrant %d: %+v, want %+v", s.Entrant, s, want[s.Entrant])
		}
	}
	// 1 beat 0 (by 0's forfeit): it ranks above 0 on the games between them.
	if st[0].Entrant != 1 || st[1].Entrant != 0 {
		t.Fatalf("order %+v", st)
	}

	rng := rand.New(rand.NewPCG(11, 12))
	for _, f := range []Format{RoundRobin, Swiss} {
		for n := MinEntrants; n <= 24; n++ {
			var rounds []Round
			for {
				r, ok := Next(f, n, rounds)
				if !ok {
					break
				}
				rounds = append(rounds, playOrForfeit(r, rng))
			}
			want := make([]Standing, n)
			for _, r := range rounds {
				for _, x := range r {
					if x.B == Bye {
						want[x.A].Played++
						want[x.A].Wins++
						continue
					}
					for side, e := range []int{x.A, x.B} {
						w := &want[e]
						w.Played++
						mine, theirs := x.PA, x.PB
						lost := x.Forfeit == ForfeitA || x.Forfeit == ForfeitBoth
						if side == 1 {
							mine, theirs = x.PB, x.PA
							lost = x.Forfeit == ForfeitB || x.Forfeit == ForfeitBoth
						}
						switch {
						case lost:
							w.Losses++
							w.Forfeits++
						case x.Forfeit != NoForfeit:
							w.Wins++
						case mine > theirs:
							w.Wins++
						case mine < theirs:
							w.Losses++
						default:
							w.Draws++
						}
						if x.Forfeit == NoForfeit {
							w.For += mine
							w.Against += theirs
						}
					}
				}
			}
			for _, s := range Standings(n, rounds) {
				w := want[s.Entrant]
				w.Entrant = s.Entrant
				if s != w {
					t.Fatalf("%s of %d: entrant %d's line %+v, want %+v", f, n, s.Entrant, s, w)
				}
			}
		}
	}
}
