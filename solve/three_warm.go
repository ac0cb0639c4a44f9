//go:build !js

package solve

import (
	"context"
	"math"

	"github.com/farkle/farkle/rules"
)

// warmStart sets every state of a table with a farkle penalty to the
// values of its score triple in the table of the same rules without the
// penalty, whatever the streaks: the sweeps start from there instead of
// equal chances. The penalty only lowers a score now and then, so the
// values without it are close (classic to 1,000: the first sweep changes
// no value by more than 0.12, against 1 from equal chances) and the
// sweeps settle one sooner (classic to 1,000: 7 sweeps instead of 8; to
// 2,000: 8 instead of 9), for a solve a quarter of a sweep's time (it has
// a 27th of the states and no sweeps). The values it leads to agree with
// a cold start's within the sweeps' error: both are the same fixed point.
func (t *Three) warmStart(ctx context.Context, workers int, progress func(done, total int)) error {
	r := t.m.r
	r.Turn.FarklePenalty = rules.Penalty{}
	test := t.test
	test.stopAfter = 0
	t0, err := SolveThree(r, ThreeOptions{Workers: workers, Rule: t.rule, Context: ctx, MaxBytes: math.MaxInt64, Progress: progress, test: test})
	if err != nil {
		return err
	}
	A, C := t.A, int(t.c*t.c*t.c)
	for a := range A {
		for b := range A {
			for c := range A {
				v := t0.w[t0.tidx(a, b, c):][:3]
				i := t.tidx(a, b, c)
				for st := range C {
					copy(t.w[i+3*st:][:3], v)
				}
			}
		}
	}
	return nil
}
