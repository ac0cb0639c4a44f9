package rating

import (
	"math"
	"testing"
)

// TestGlickmanExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a player rated 1500 (RD 200, volatility 0.06) beats a
// 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with
// tau 0.5. The paper gives r' = 1464.06, RD' = 151.52, sigma' = 0.05999,
// having rounded its intermediate values (v = 1.7785, delta = -0.4834) to
// four places; unrounded the rating is 1464.0507, so the tolerances are
// those of the paper's rounding.
func TestGlickmanExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := Update(p, []Outcome{
		{Opp: Rating{1400, 30, 0.06}, Score: 1},
		{Opp: Rating{1550, 100, 0.06}, Score: 0},
		{Opp: Rating{1700, 300, 0.06}, Score: 0},
	}, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Vol, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6f, want %.5f (±%g)", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestNoGames: a period without games leaves the rating and volatility and
// widens the deviation to sqrt(phi^2 + sigma^2) (step 6 alone), never past
// the deviation of a new player.
func TestNoGames(t *testing.T) {
	p := Rating{R: 1700, RD: 50, Vol: 0.06}
	got := Update(p, nil, Tau)
	want := math.Sqrt(50*50/(Scale*Scale)+0.06*0.06) * Scale
	if got.R != 1700 || got.Vol != 0.06 || math.Abs(got.RD-want) > 1e-9 {
		t.Fatalf("Update without games = %+v, want RD %.4f", got, want)
	}
	if got := Update(New(), nil, Tau); got.RD != InitialRD {
		t.Fatalf("a new player's deviation grew to %.2f", got.RD)
	}
}

// TestProperties checks, over a grid of ratings and opponents, what any
// sound rating system does: a win never lowers a rating, a loss never
// raises it, a game never leaves the deviation wider than a period without games, and the expected score of
// a against b and of b against a sum to 1 when their deviations are equal.
func TestProperties(t *testing.T) {
	for _, r := range []float64{900, 1200, 1500, 1800, 2400} {
		for _, rd := range []float64{30, 100, 200, 350} {
			for _, or := range []float64{1000, 1500, 2000} {
				for _, ord := range []float64{30, 200, 350} {
					p, o := Rating{r, rd, 0.06}, Rating{or, ord, 0.06}
					win := Update(p, []Outcome{{Opp: o, Score: 1}}, Tau)
					loss := Update(p, []Outcome{{Opp: o, Score: 0}}, Tau)
					draw := Update(p, []Outcome{{Opp: o, Score: 0.5}}, Tau)
					if win.R < p.R || loss.R > p.R || !(loss.R < draw.R && draw.R < win.R) {
						t.Fatalf("%v vs %v: win %.2f, draw %.2f, loss %.2f", p, o, win.R, draw.R, loss.R)
					}
					if idle := Update(Rating{r, rd, win.Vol}, nil, Tau); win.RD > idle.RD+1e-9 {
						t.Fatalf("%v vs %v: the deviation grew to %.2f", p, o, win.RD)
					}
					if sum := Expected(Rating{r, rd, 0.06}, Rating{or, rd, 0.06}) + Expected(Rating{or, rd, 0.06}, Rating{r, rd, 0.06}); math.Abs(sum-1) > 1e-12 {
						t.Fatalf("expected scores sum to %v", sum)
					}
				}
			}
		}
	}
}

// TestGlickmanIntermediates checks steps 3 and 4 of the paper's example
// against its printed values: v = 1.7785 and delta = -0.4834 (the paper
// rounds g and E to four places first, hence the tolerance).
func TestGlickmanIntermediates(t *testing.T) {
	mu, opps := 0.0, []Outcome{{Opp: Rating{1400, 30, 0.06}, Score: 1}, {Opp: Rating{1550, 100, 0.06}, Score: 0}, {Opp: Rating{1700, 300, 0.06}, Score: 0}}
	var vinv, sum float64
	for _, o := range opps {
		gj := g(o.Opp.RD / Scale)
		e := 1 / (1 + math.Exp(-gj*(mu-(o.Opp.R-Initial)/Scale)))
		vinv += gj * gj * e * (1 - e)
		sum += gj * (o.Score - e)
	}
	if v := 1 / vinv; math.Abs(v-1.7785) > 0.001 || math.Abs(v*sum-(-0.4834)) > 0.001 {
		t.Fatalf("v = %.5f, delta = %.5f; the paper has 1.7785 and -0.4834", v, v*sum)
	}
}
