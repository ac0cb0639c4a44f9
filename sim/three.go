package sim

import (
	"fmt"
	"math"
)

// ThreeCheck is a three-player table checked against whole games of three
// perfect bots that played by it: each place's chance to win from the
// start under the table (solve.Three.Start: place 1 moves first), the
// standard error of a win rate over the games at that chance, and by how
// many of them the games' win rate differs.
type ThreeCheck struct {
	Table  [3]float64 `json:"table"`
	SE     [3]float64 `json:"se"` // sqrt(p(1-p)/games), p the table's chance
	Z      [3]float64 `json:"z"`  // (win rate - table) / SE
	Within bool       `json:"within_3se"`
}

// CheckThree compares the wins by place of res, a tournament of three
// players, with start, the chances a three-player table gives each place:
// Within when every place's win rate is within 3 standard errors of its
// chance.
func CheckThree(start [3]float64, res *Result) (ThreeCheck, error) {
	if len(res.ByPlace) != 3 {
		return ThreeCheck{}, fmt.Errorf("%w: %d places in the turn order, not 3", ErrConfig, len(res.ByPlace))
	}
	c := ThreeCheck{Table: start, Within: true}
	for i, q := range res.ByPlace {
		p := start[i]
		c.SE[i] = math.Sqrt(p * (1 - p) / float64(res.Games))
		c.Z[i] = (q.WinRate - p) / c.SE[i]
		c.Within = c.Within && math.Abs(c.Z[i]) <= 3
	}
	return c, nil
}
