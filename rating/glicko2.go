package rating

import "math"

// Scale is the factor between the Glicko scale (ratings around 1500) and
// the Glicko-2 scale (ratings around 0).
const Scale = 173.7178

// The values of a new player and the system constant.
const (
	Initial    = 1500.0 // a new player's rating
	InitialRD  = 350.0  // a new player's deviation, also the most a deviation grows to
	InitialVol = 0.06   // a new player's volatility
	// Tau constrains how fast the volatility changes; Glickman suggests
	// 0.3 to 1.2. Farkle is a game of much luck, so results are noisy and
	// a small tau keeps one lucky streak from swinging a rating.
	Tau = 0.5
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 1e-6
)

// Rating is one player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	R   float64 `json:"rating"`
	RD  float64 `json:"deviation"`
	Vol float64 `json:"volatility"`
}

// New returns the rating of a player with no games.
func New() Rating { return Rating{R: Initial, RD: InitialRD, Vol: InitialVol} }

// Outcome is one game against one opponent: Score is 1 for a win, ½ for a
// draw and 0 for a loss; Opp is the opponent's rating before the period.
// Weight is how much of a game it counts for, in (0, 1] (a fraction of a
// game, as when Glicko-2 is given partial games); 0 counts as 1, a whole
// game.
type Outcome struct {
	Opp    Rating
	Score  float64
	Weight float64
}

// weight is the weight Update uses: 1 for a zero Weight.
func (o Outcome) weight() float64 {
	if o.Weight == 0 {
		return 1
	}
	return o.Weight
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// Expected returns the expected score of a against b (ignoring a's own
// deviation, as Glicko-2 does).
func Expected(a, b Rating) float64 {
	return 1 / (1 + math.Exp(-g(b.RD/Scale)*(a.R-b.R)/Scale))
}

// Update returns r after a rating period with the outcomes, by the
// algorithm of Glickman's paper (steps 2 to 8, the volatility found by the
// Illinois method of step 5). With no outcomes only the deviation grows,
// as time without games makes a rating less sure. tau is the system
// constant (Tau for this site). An outcome of weight w adds w times its
// terms to the sums of steps 3 and 4 (the estimated variance and the
// improvement), as w of a game would: whole games are the paper's.
func Update(r Rating, outcomes []Outcome, tau float64) Rating {
	mu, phi, sigma := (r.R-Initial)/Scale, r.RD/Scale, r.Vol
	if len(outcomes) == 0 {
		return Rating{R: r.R, RD: math.Min(math.Sqrt(phi*phi+sigma*sigma)*Scale, InitialRD), Vol: sigma}
	}
	// Step 3 and 4: the estimated variance v and improvement delta.
	var vinv, sum float64
	for _, o := range outcomes {
		muj, phij := (o.Opp.R-Initial)/Scale, o.Opp.RD/Scale
		gj := g(phij)
		e := 1 / (1 + math.Exp(-gj*(mu-muj)))
		w := o.weight()
		vinv += w * gj * gj * e * (1 - e)
		sum += w * gj * (o.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = volatility(phi, sigma, v, delta, tau)
	// Step 6 to 8.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{R: Initial + Scale*muNew, RD: math.Min(Scale*phiNew, InitialRD), Vol: sigma}
}

// volatility is step 5 of the paper: the root of f by the Illinois
// variant of regula falsi.
func volatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
