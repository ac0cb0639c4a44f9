package solve

import (
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// option is one distinct choice after a throw: the keep's points in units
// and the number of dice the keep leaves to throw (0..5; 0 means none left).
type option struct {
	pts  int32
	left int32
}

// group is a set of throws of the same number of dice that offer exactly the
// same options; prob is the sum of their probabilities.
type group struct {
	prob float64
	opts []option
}

// model is everything the solvers need from a rule set, in units.
//
// Why int32 cannot wrap (the model is only built for rules that pass
// rules.Validate): the unit is at least 1, so a keep is at most
// rules.MaxKeepPoints = 8e6 units (< 2^23), six_dice_nothing at most
// rules.MaxPoints, and the target, minimums and penalty at most
// rules.MaxTarget = 1e6 units (< 2^20); an option's K-array offset
// pts*stride+left is below 2^26. Array lengths and indexes (turn totals
// times stride, the duel table's A*A*c*c) are checked against the int32
// range, in float64, before anything is allocated (checkSolo, checkDuel,
// checkLoad), and positions asked for are refused above 2^24 units
// (checkTotal), so a total plus a keep stays below 2^25.
type model struct {
	r         rules.Rules
	tab       *dice.Table
	unit      int        // points per unit
	groups    [7][]group // by dice thrown 1..6
	farkle    [7]float64 // P(farkle) by dice thrown (the six-dice-nothing throw is not one)
	nothing   float64    // P(six dice score nothing) when six_dice_nothing > 0, else 0
	sdn       int32      // six_dice_nothing bonus in units
	maxPts    int32      // most units of one keep (or the bonus)
	hot       bool
	bankMin   int32 // bank minimum in units (rounded up)
	entryMin  int32 // entry minimum in units (rounded up)
	penCount  int   // farkle penalty count (0: none)
	penPts    int32 // farkle penalty in units
	target    int32 // target in units (rounded up)
	immediate bool
	tieShare  bool
	dice      int // dice of a full throw (rules.Dice)

	// the solo tail (soloTail): tail gain of six dice that cannot farkle
	// and expected best keep by dice thrown, units
	g6     float64
	tailEB [7]float64

	optSet               // every distinct option of every group
	pruned    optSet     // only the most points for each dice count left
	blocks    [7][]block // the pruned groups by dice thrown, in blocks by option count
	blocksAll [7][]block // all groups likewise
	// all groups likewise, each group's options by dice left and, for the
	// same dice left, most points first: the first option of most value
	// is then the three-player solver's choice (sum3)
	blocks3All [7][]block

	bestPts [7][]ptsProb // distribution of a throw's most points (model.banked)

	fr     *finalRound // the final round (finalRound), once computed
	frRows float64     // the bound of its length (finalRoundRows), once computed; 0 before

	// the same for the lane-interleaved arrays of fillLanes
	lanesPruned, lanesAll [7]laneSet
	bestLanes             [7]laneSet  // bestPts as one block over kmax
	bounds                [7]boundSet // the banking bounds over bestLanes (boundAll)
	lanes3Pruned          [7]laneSet  // blocks and blocks3All for the three-player lanes (sum3LanesAVX2)
	lanes3All             [7]laneSet
	best3                 [7]laneSet  // bestPts over the three-player lanes' kmax (offsets times lanes3)
	bounds3               [7]boundSet // the three-player lanes' banking bounds over best3 (bound3Lanes)
	laneReach             int         // the most values past a total's start a sum reads
}

// block is the pruned groups of one number of dice thrown that have the
// same number of options (cnt), laid out for the unrolled inner loops:
// group i has probability prob[i] and K-array offsets off[i*cnt:(i+1)*cnt].
type block struct {
	cnt  int
	prob []float64
	off  []int32
}

// buildBlocks lays out s's groups by option count.
func (s *optSet) buildBlocks() [7][]block {
	var out [7][]block
	for n := 1; n <= 6; n++ {
		byCnt := map[int]*block{}
		for g := s.gStart[n]; g < s.gStart[n+1]; g++ {
			offs := s.oOff[s.oStart[g]:s.oStart[g+1]]
			b := byCnt[len(offs)]
			if b == nil {
				b = &block{cnt: len(offs)}
				byCnt[len(offs)] = b
			}
			b.prob = append(b.prob, s.gProb[g])
			b.off = append(b.off, offs...)
		}
		for c := 1; c <= 64; c++ {
			if b := byCnt[c]; b != nil {
				out[n] = append(out[n], *b)
			}
		}
	}
	return out
}

// optSet is a flattened form of the groups for the inner loops: for dice n,
// groups gStart[n]..gStart[n+1]-1; group g has probability gProb[g] and
// options oStart[g]..oStart[g+1]-1 with K-array offsets oOff (pts*stride +
// left).
type optSet struct {
	gStart [8]int32
	gProb  []float64
	oStart []int32
	oOff   []int32
	oPts   []int32
	oLeft  []int32
}

func (s *optSet) build(groups *[7][]group) {
	for n := 1; n <= 6; n++ {
		s.gStart[n] = int32(len(s.gProb))
		for _, g := range groups[n] {
			s.gProb = append(s.gProb, g.prob)
			s.oStart = append(s.oStart, int32(len(s.oOff)))
			for _, o := range g.opts {
				s.oOff = append(s.oOff, o.pts*stride+o.left)
				s.oPts = append(s.oPts, o.pts)
				s.oLeft = append(s.oLeft, o.left)
			}
		}
	}
	s.gStart[7] = int32(len(s.gProb))
	s.oStart = append(s.oStart, int32(len(s.oOff)))
}

// prune returns the groups with, for each number of dice left, only the
// option of most points, and groups with equal pruned options merged. They
// give the same values as all options wherever the after-keep values do not
// decrease as the turn total grows.
func prune(groups *[7][]group) *[7][]group {
	var out [7][]group
	for n := 1; n <= 6; n++ {
		idx := map[string]int{}
		for _, g := range groups[n] {
			best := map[int32]int32{}
			for _, o := range g.opts {
				best[o.left] = max(best[o.left], o.pts)
			}
			var p []option
			for l, v := range best {
				p = append(p, option{pts: v, left: l})
			}
			sortOptions(p)
			k := optKey(p)
			if i, ok := idx[k]; ok {
				out[n][i].prob += g.prob
				continue
			}
			idx[k] = len(out[n])
			out[n] = append(out[n], group{prob: g.prob, opts: p})
		}
	}
	return &out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

func ceilDiv(a, b int) int32 {
	if a <= 0 {
		return 0
	}
	return int32((a + b - 1) / b)
}

// newModel builds the model of r; r must be valid. The solvers assume no
// cap on the game's length: the model keeps r.ForSolver().
func newModel(r rules.Rules) *model {
	tab := dice.NewTable(r)
	m := &model{r: r.ForSolver(), tab: tab}
	u := 0
	for _, h := range dice.AllThrows() {
		if h.N() > r.Dice {
			continue
		}
		for _, k := range tab.Keeps(h) {
			u = gcd(u, int(k.Points))
		}
	}
	u = gcd(u, r.Scoring.SixDiceNothing)
	if r.Turn.FarklePenalty.Count > 0 {
		u = gcd(u, r.Turn.FarklePenalty.Points)
	}
	if u == 0 {
		u = 1
	}
	m.unit = u
	m.sdn = int32(r.Scoring.SixDiceNothing / u)
	m.hot = r.Turn.HotDice
	m.bankMin = ceilDiv(r.Turn.BankMinimum, u)
	m.entryMin = ceilDiv(r.Turn.EntryMinimum, u)
	if r.Turn.FarklePenalty.Count > 0 {
		m.penCount = r.Turn.FarklePenalty.Count
		m.penPts = int32(r.Turn.FarklePenalty.Points / u)
	}
	m.target = ceilDiv(r.Game.Target, u)
	m.immediate = r.Game.Ending == rules.EndImmediate
	m.tieShare = r.Game.Tie == rules.Share
	m.maxPts = m.sdn
	for n := 1; n <= r.Dice; n++ {
		odds := tab.Odds(n)
		m.farkle[n] = odds.PFarkle()
		m.nothing += odds.PBonus()
		idx := map[string]int{}
		for _, h := range dice.Throws(n) {
			p := h.Prob()
			keeps := tab.Keeps(h)
			if len(keeps) == 0 {
				continue // a farkle or the six-dice bonus, counted above
			}
			var opts []option
			seen := map[option]bool{}
			for _, k := range keeps {
				o := option{pts: k.Points / int32(u), left: int32(n - int(k.N))}
				if !seen[o] {
					seen[o] = true
					opts = append(opts, o)
				}
				m.maxPts = max(m.maxPts, o.pts)
			}
			sortOptions(opts)
			key := optKey(opts)
			if i, ok := idx[key]; ok {
				m.groups[n][i].prob += p
				continue
			}
			idx[key] = len(m.groups[n])
			m.groups[n] = append(m.groups[n], group{prob: p, opts: opts})
		}
	}
	m.dice = r.Dice
	m.optSet.build(&m.groups)
	m.pruned.build(prune(&m.groups))
	m.blocks = m.pruned.buildBlocks()
	m.blocksAll = m.optSet.buildBlocks()
	m.blocks3All = firstBest(m.blocksAll)
	m.bestPts = buildMaxPts(&m.groups)
	m.buildLanes()
	m.soloTail()
	return m
}

// stride is the width of one turn total in the in-turn arrays: index
// t*stride + j holds dice-left j (0..5) of the after-keep values K or dice
// thrown j (1..6) of the before-throw values Q.
const stride = 8

func sortOptions(o []option) {
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && (o[j].left < o[j-1].left || o[j].left == o[j-1].left && o[j].pts < o[j-1].pts); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

func optKey(o []option) string {
	b := make([]byte, 0, len(o)*5)
	for _, x := range o {
		b = append(b, byte(x.left), byte(x.pts), byte(x.pts>>8), byte(x.pts>>16), byte(x.pts>>24))
	}
	return string(b)
}
