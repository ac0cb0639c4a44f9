package dice

// Odds are the chances of one throw of N dice under a table's rules, as
// counts of ordered outcomes out of Outcomes(N), so that fractions of them
// are exact.
type Odds struct {
	N int
	// FarkleWays is the outcomes that score nothing (six dice scoring
	// nothing are not a farkle where the rules give them a bonus).
	FarkleWays int64
	// BonusWays is the outcomes of six dice that score nothing where
	// six_dice_nothing gives them a bonus (0 otherwise).
	BonusWays int64
	// PointWays is the sum over outcomes of the points of the best keep
	// (a farkle counts 0; six dice scoring nothing count their bonus).
	PointWays int64
}

// Odds returns the odds of throwing n dice (1..6).
func (t *Table) Odds(n int) Odds {
	o := Odds{N: n}
	sdn := int64(t.rules.Scoring.SixDiceNothing)
	for _, throw := range Throws(n) {
		w := throw.Ways()
		switch best := t.Best(throw); {
		case best > 0:
			o.PointWays += w * int64(best)
		case n == 6 && sdn > 0:
			o.BonusWays += w
			o.PointWays += w * sdn
		default:
			o.FarkleWays += w
		}
	}
	return o
}

// PFarkle returns the probability that the throw scores nothing.
func (o Odds) PFarkle() float64 { return float64(o.FarkleWays) / float64(Outcomes(o.N)) }

// PBonus returns the probability that the throw is six dice scoring
// nothing that six_dice_nothing pays for.
func (o Odds) PBonus() float64 { return float64(o.BonusWays) / float64(Outcomes(o.N)) }

// PNoKeep returns the probability that the throw has no keep at all: a
// farkle, or six dice that score nothing whatever the rules pay for them
// (games without that bonus, such as Dragon Farkle's, count both alike).
func (o Odds) PNoKeep() float64 {
	return float64(o.FarkleWays+o.BonusWays) / float64(Outcomes(o.N))
}

// Expected returns the expected points of the best keep of the throw.
func (o Odds) Expected() float64 { return float64(o.PointWays) / float64(Outcomes(o.N)) }
