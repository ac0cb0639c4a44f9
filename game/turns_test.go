package game_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// TestTurnsCountEveryTurn: at the end of random games the turns of the
// seats add up to the turns the game started, each seat's by the order of
// play: an ordinary game counts every turn begun (engine.Player.Turns);
// Dragon Farkle every turn finished, and the one in which the dragon was
// slain.
func TestTurnsCountEveryTurn(t *testing.T) {
	pick := rand.New(rand.NewPCG(11, 12))
	for _, v := range variants(t) {
		for i := range 3 {
			p := playRandom(t, v, dice.SeedFrom(fmt.Sprint("turns ", v.Name(), i)), pick)
			turns := p.Game().Turns()
			sum, lo, hi := 0, turns[0], turns[0]
			for _, n := range turns {
				sum += n
				lo, hi = min(lo, n), max(hi, n)
			}
			var want int
			switch g := p.Game().(type) {
			case *game.FarkleGame:
				for _, pl := range g.State().Players {
					want += pl.Turns
				}
			case *game.DragonGame:
				s := g.State()
				want = s.Turns
				if s.Slain {
					want++
				}
			}
			if sum != want || hi-lo > 1 || lo < 1 {
				t.Errorf("%s: turns %v add to %d, the game played %d", v.Name(), turns, sum, want)
			}
		}
	}
}
