package solve

import "math"

// The farkle cycles of the three-player solver: a cycle's values solved
// exactly for its movers' policies, and the mixed equilibria that settle
// the cycles whose best responses chase each other. The three rotations of
// a triple without streaks (three.go) and, with a farkle penalty, the
// states of a cycle at (0, 0, 0) (three_streaks.go) use them.

// rotN applies rot j times.
func rotN(v vec4, j int) vec4 {
	for ; j%3 != 0; j-- {
		v = rot(v)
	}
	return v
}

// cycleSolveN returns the values of the states of a farkle cycle of
// n = len(P) states under policies P: V_k = alpha_k + beta_k rot(V_{k+1}),
// V_n = V_0. With p the product of the betas and S the sum over j of the
// product of the betas before j times rot^j(alpha_j), V_0 = S + p
// rot^n(V_0): for n a multiple of 3, V_0 = S / (1-p); else, with Q =
// rot^n, V_0 = (S + p Q S + p^2 Q^2 S) / (1 - p^3) (Q^3 is the identity).
func cycleSolveN(P []policy, V []vec4) {
	n := len(P)
	a := func(k int) vec4 { return vec4{P[k].alpha[0], P[k].alpha[1], P[k].alpha[2], 0} }
	var S vec4
	prod := 1.0
	for j := 0; j < n; j++ {
		r := rotN(a(j), j)
		for i := 0; i < 3; i++ {
			S[i] += prod * r[i]
		}
		prod *= P[j].beta
	}
	if n%3 == 0 {
		for i := 0; i < 3; i++ {
			V[0][i] = S[i] / (1 - prod)
		}
	} else {
		q1, q2 := rotN(S, n), rotN(S, 2*n)
		den := 1 - prod*prod*prod
		for i := 0; i < 3; i++ {
			V[0][i] = (S[i] + prod*q1[i] + prod*prod*q2[i]) / den
		}
	}
	V[0][3] = 0
	for k := n - 1; k >= 1; k-- {
		nx := rot(V[(k+1)%n])
		for i := 0; i < 3; i++ {
			V[k][i] = P[k].alpha[i] + P[k].beta*nx[i]
		}
		V[k][3] = 0
	}
}

// cycleResidN is the largest residual of V_k = alpha_k + beta_k rot(V_{k+1}).
func cycleResidN(P []policy, V []vec4) float64 {
	r := 0.0
	n := len(P)
	for k := range P {
		nx := rot(V[(k+1)%n])
		for i := 0; i < 3; i++ {
			r = max(r, math.Abs(V[k][i]-P[k].alpha[i]-P[k].beta*nx[i]))
		}
	}
	return r
}

func samePolicies(x, y []policy) bool {
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// eachProfile calls f with each profile of one policy a mover from sets,
// at most limit of them.
func eachProfile(sets [][]policy, limit int, f func([]policy)) {
	P := make([]policy, len(sets))
	count := 0
	var rec func(k int)
	rec = func(k int) {
		if count >= limit {
			return
		}
		if k == len(sets) {
			count++
			f(P)
			return
		}
		for _, p := range sets[k] {
			P[k] = p
			rec(k + 1)
		}
	}
	rec(0)
}

// mixedEquilibriumN finds a stationary equilibrium of the movers of a
// farkle cycle (the three rotations of a triple, or with streaks the states
// of a cycle at (0, 0, 0)) among the policies of their upper envelopes
// (envelope): each mover plays one of them purely (and its own farkle value
// lies where that policy is best) or mixes two neighbours at the value
// where it is indifferent between them. The candidates are tried with the
// fewest mixing movers first, then in the order of movers and policies
// (less farkle risk first); the first equilibrium found is taken. The
// mixing weights solve the indifference equations: by bisection for one
// mixing mover, by Newton's method for more, to 1e-15. mix[k] is the
// weight mover k puts on the riskier policy of its pair, NaN for a mover
// playing purely. With same (equal scores without streaks: the three
// rotations are one state) the movers play alike, one weight for all.
func mixedEquilibriumN(sets [][]policy, same bool) ([]policy, []float64, bool) {
	n := len(sets)
	env := make([][]policy, n)
	cross := make([][]float64, n)
	for k, s := range sets {
		env[k] = envelope(s)
		for i := 1; i < len(env[k]); i++ {
			a, b := env[k][i-1], env[k][i]
			cross[k] = append(cross[k], (a.alpha[0]-b.alpha[0])/(b.beta-a.beta))
		}
	}
	type choice struct {
		i   int
		mix bool
	}
	choices := make([][]choice, n)
	for k := range env {
		for i := range env[k] {
			choices[k] = append(choices[k], choice{i, false})
		}
		for i := 0; i+1 < len(env[k]); i++ {
			choices[k] = append(choices[k], choice{i, true})
		}
	}
	const tol = 1e-13
	cs := make([]choice, n)
	lam := make([]float64, n)
	P := make([]policy, n)
	V := make([]vec4, n)
	profile := func() []policy {
		if same {
			for k := range lam {
				lam[k] = lam[0]
			}
		}
		for k, c := range cs {
			if c.mix {
				P[k] = mixPolicy(env[k][c.i], env[k][c.i+1], lam[k])
			} else {
				P[k] = env[k][c.i]
			}
		}
		return P
	}
	xs := func() []float64 {
		cycleSolveN(profile(), V)
		x := make([]float64, n)
		for k := range x {
			x[k] = V[(k+1)%n][2]
		}
		return x
	}
	tried := 0
	var found bool
	var rec func(k, left int) bool
	try := func() bool {
		tried++
		var S []int
		for k, c := range cs {
			if c.mix {
				S = append(S, k)
			}
		}
		clear(lam)
		resid := func() []float64 {
			x := xs()
			r := make([]float64, len(S))
			for j, k := range S {
				r[j] = x[k] - cross[k][cs[k].i]
			}
			return r
		}
		solveFor := S
		if same && len(S) > 0 {
			solveFor = S[:1] // one weight for all
		}
		if !solveIndifference(lam, solveFor, resid) {
			return false
		}
		x := xs()
		for k, c := range cs {
			if c.mix {
				if !(math.Abs(x[k]-cross[k][c.i]) < tol && lam[k] >= 0 && lam[k] <= 1) {
					return false
				}
				continue
			}
			if c.i > 0 && x[k] < cross[k][c.i-1]-tol {
				return false
			}
			if c.i < len(cross[k]) && x[k] > cross[k][c.i]+tol {
				return false
			}
		}
		return true
	}
	rec = func(k, left int) bool {
		if tried > 1<<16 {
			return false
		}
		if k == n {
			return left == 0 && try()
		}
		for _, c := range choices[k] {
			if c.mix && left == 0 || same && k > 0 && c != cs[0] {
				continue
			}
			cs[k] = c
			l := left
			if c.mix {
				l--
			}
			if rec(k+1, l) {
				return true
			}
		}
		return false
	}
	for nmix := 0; nmix <= n && !found; nmix++ {
		found = rec(0, nmix)
	}
	if !found {
		return nil, nil, false
	}
	mix := make([]float64, n)
	for k, c := range cs {
		mix[k] = math.NaN()
		if c.mix {
			mix[k] = lam[k]
		}
	}
	return append([]policy(nil), profile()...), mix, true
}
