package rating

import (
	"fmt"
	"math"
)

// Duel is the result of games between two players: A scored Score points
// (a win 1, a draw ½) in Games games against B.
type Duel struct {
	A, B  string
	Games int
	Score float64
}

// Fit returns the ratings that make the duels most likely under the
// Glicko model with no deviation (a scored E = 1/(1+exp(-(ra-rb)/Scale))
// against b), the Bradley-Terry model fitted by its minorize-maximize
// iteration, shifted so that the player named base is rated Initial. Each
// rating's deviation is its standard error, 1/sqrt of the Fisher
// information of the games it played. Every player must have scored more
// than 0 and less than all its games, or no finite rating fits.
func Fit(duels []Duel, base string) (map[string]Rating, error) {
	wins := map[string]float64{}
	games := map[[2]string]float64{}
	for _, d := range duels {
		wins[d.A] += d.Score
		wins[d.B] += float64(d.Games) - d.Score
		games[[2]string{d.A, d.B}] += float64(d.Games)
		games[[2]string{d.B, d.A}] += float64(d.Games)
	}
	if _, ok := wins[base]; !ok {
		return nil, fmt.Errorf("rating: the base player %q played no duel", base)
	}
	gamma := map[string]float64{}
	for p, w := range wins {
		total := 0.0
		for k, n := range games {
			if k[0] == p {
				total += n
			}
		}
		if w <= 0 || w >= total {
			return nil, fmt.Errorf("rating: %s scored %v of %v: no finite rating fits", p, w, total)
		}
		gamma[p] = 1
	}
	for range 10000 {
		next, moved := map[string]float64{}, 0.0
		for p := range gamma {
			den := 0.0
			for k, n := range games {
				if k[0] == p {
					den += n / (gamma[p] + gamma[k[1]])
				}
			}
			next[p] = wins[p] / den
		}
		norm := next[base]
		for p := range next {
			next[p] /= norm
			moved = math.Max(moved, math.Abs(math.Log(next[p]/gamma[p])))
		}
		gamma = next
		if moved < 1e-12 {
			break
		}
	}
	out := map[string]Rating{}
	for p, gp := range gamma {
		info := 0.0
		for k, n := range games {
			if k[0] == p {
				e := gp / (gp + gamma[k[1]])
				info += n * e * (1 - e)
			}
		}
		out[p] = Rating{R: Initial + Scale*math.Log(gp), RD: Scale / math.Sqrt(info), Vol: InitialVol}
	}
	return out, nil
}
