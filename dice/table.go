package dice

import (
	"errors"
	"slices"
	"strings"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// Keep is one legal keep of a throw: the dice set aside and their points
// (the best split of those dice into melds).
type Keep struct {
	Hand Hand
	// Points fits an int32: under rules that pass rules.Validate a keep
	// scores at most rules.MaxKeepPoints (8e6); the table adds the melds of
	// a split in int32 only after that bound.
	Points int32
	N      uint8 // dice in Hand
}

// Meld is one scoring combination under a rule set.
type Meld struct {
	Hand   Hand
	Points int
	Name   string // "single 1", "three 2s", "straight", ...
}

// Table holds, for one rule set, the points of every hand (when all its
// dice score) and every legal keep of every throw. It is immutable after
// NewTable and safe for concurrent use.
type Table struct {
	rules  rules.Rules
	melds  []Meld
	points [NumHands]int32 // best split of all dice into melds; 0 if some die cannot score
	split  [NumHands]uint8 // index+1 into melds of the first meld of a best split
	start  [NumHands + 1]uint32
	keeps  []Keep
	best   [NumHands]int32 // most points of any single keep of the throw
}

// NewTable builds the keep table of r. r must be valid (rules.Validate).
func NewTable(r rules.Rules) *Table {
	t := &Table{rules: r.Clone(), melds: Melds(r)}
	for i := 1; i < NumHands; i++ {
		h := hands[i]
		n := h.N()
		bestPts, bestMeld := int32(0), uint8(0)
		for j, m := range t.melds {
			if m.Hand.N() > n || !h.Contains(m.Hand) {
				continue
			}
			rest := h.Minus(m.Hand)
			var restPts int32
			if rest != 0 {
				restPts = t.points[rest.Index()]
				if restPts == 0 {
					continue
				}
			}
			if p := int32(m.Points) + restPts; p > bestPts {
				bestPts, bestMeld = p, uint8(j+1)
			}
		}
		t.points[i], t.split[i] = bestPts, bestMeld
	}
	for i := 0; i < NumHands; i++ {
		t.start[i] = uint32(len(t.keeps))
		if i == 0 {
			continue
		}
		first := len(t.keeps)
		forSubHands(hands[i], func(k Hand) {
			if p := t.points[k.Index()]; p > 0 {
				t.keeps = append(t.keeps, Keep{Hand: k, Points: p, N: uint8(k.N())})
				t.best[i] = max(t.best[i], p)
			}
		})
		part := t.keeps[first:]
		slices.SortFunc(part, func(a, b Keep) int { return compareHands(a.Hand, b.Hand) })
	}
	t.start[NumHands] = uint32(len(t.keeps))
	return t
}

// compareHands orders hands by dice count, then faces ascending.
func compareHands(a, b Hand) int {
	if d := a.N() - b.N(); d != 0 {
		return d
	}
	return slices.Compare(a.Faces(), b.Faces())
}

// forSubHands calls fn for every non-empty sub-multiset of h.
func forSubHands(h Hand, fn func(Hand)) {
	var rec func(face int, acc Hand)
	rec = func(face int, acc Hand) {
		if face == 7 {
			if acc != 0 {
				fn(acc)
			}
			return
		}
		for c := 0; c <= h.Count(face); c++ {
			rec(face+1, acc+Single(face, c))
		}
	}
	rec(1, 0)
}

// Rules returns the rule set the table was built for.
func (t *Table) Rules() rules.Rules { return t.rules }

// Keeps returns every legal keep of the throw, sorted by dice count, then
// dice. It is empty exactly when the throw is a farkle. The slice is shared:
// do not modify it.
func (t *Table) Keeps(throw Hand) []Keep {
	i := throw.Index()
	return t.keeps[t.start[i]:t.start[i+1]]
}

// Farkle reports whether the throw has no legal keep.
func (t *Table) Farkle(throw Hand) bool {
	i := throw.Index()
	return t.start[i] == t.start[i+1]
}

// Points returns the points of keeping all of h and whether every die of h
// belongs to a meld; (0, false) otherwise.
func (t *Table) Points(h Hand) (int, bool) {
	p := t.points[h.Index()]
	return int(p), p > 0
}

// Best returns the most points a single keep of the throw scores, 0 for a
// farkle.
func (t *Table) Best(throw Hand) int { return int(t.best[throw.Index()]) }

// Split returns the melds of a best split of h, or nil if some die of h
// cannot score.
func (t *Table) Split(h Hand) []Meld {
	var out []Meld
	for h != 0 {
		j := t.split[h.Index()]
		if j == 0 {
			return nil
		}
		m := t.melds[j-1]
		out = append(out, m)
		h = h.Minus(m.Hand)
	}
	return out
}

// Melds returns the melds of the table's rules.
func (t *Table) Melds() []Meld { return t.melds }

// CheckKeep returns nil if keep is a legal keep of throw, otherwise a
// *KeepError saying why, e.g. "2 2 scores only as part of three of a
// kind", in any language (KeepError.Say).
func (t *Table) CheckKeep(throw, keep Hand) error {
	if keep == 0 {
		return &KeepError{Throw: throw, Keep: keep, Key: "dice.keep.none"}
	}
	if !throw.Contains(keep) {
		for f := 1; f <= 6; f++ {
			if keep.Count(f) > throw.Count(f) {
				return &KeepError{Throw: throw, Keep: keep, Key: "dice.keep.notThrown",
					Args: []any{"throw", throw.String(), "has", countOf{throw.Count(f), f}}}
			}
		}
	}
	if _, ok := t.Points(keep); ok {
		return nil
	}
	// The dice left over by the largest scoring part of the keep are the ones to blame.
	var core Hand
	forSubHands(keep, func(k Hand) {
		p, ok := t.Points(k)
		if !ok {
			return
		}
		if cp, _ := t.Points(core); core == 0 || k.N() > core.N() || (k.N() == core.N() && p > cp) {
			core = k
		}
	})
	bad := keep.Minus(core)
	var uses faceUses
	for f := 1; f <= 6; f++ {
		if bad.Count(f) > 0 {
			uses = append(uses, t.faceUse(f))
		}
	}
	e := &KeepError{Throw: throw, Keep: keep, Bad: bad, Key: "dice.keep.bad", Args: []any{"use", blamed{bad, uses[0]}}}
	if len(uses) > 1 {
		e.Key, e.Args = "dice.keep.bads", []any{"dice", bad.String(), "uses", uses}
	}
	return e
}

// ErrIllegalKeep is matched (errors.Is) by every error of CheckKeep.
var ErrIllegalKeep = errors.New("dice: illegal keep")

// KeepError is the error of CheckKeep: why a keep is not allowed, as a
// text of the catalogue (a dice.keep.* key) and its values, so that every
// front end says it in the player's language (Say).
type KeepError struct {
	Throw, Keep Hand
	// Bad are the dice to blame when the keep was thrown but does not
	// score: those left over by its largest scoring part (0 otherwise).
	Bad  Hand
	Key  string
	Args []any // pairs of a name and a value, as lang.Catalogue.Msg takes them
}

// Error is the English reason after the package's prefix.
func (e *KeepError) Error() string { return "dice: illegal keep: " + e.Say(nil) }

// Is makes errors.Is(err, ErrIllegalKeep) true.
func (e *KeepError) Is(target error) bool { return target == ErrIllegalKeep }

// Say is why the keep is refused in the language of c (nil: English),
// e.g. "2 2 scores only as part of three of a kind".
func (e *KeepError) Say(c *lang.Catalogue) string {
	if c == nil {
		c = lang.Get(lang.Default)
	}
	return c.Msg(e.Key, e.Args...)
}

// countOf is how many dice of a face a throw has: "only one 1".
type countOf struct{ n, face int }

func (x countOf) In(c *lang.Catalogue) string {
	switch x.n {
	case 0:
		return c.Msg("dice.keep.countNone", "face", x.face)
	case 1:
		return c.Msg("dice.keep.countOne", "face", x.face)
	}
	return c.Msg("dice.keep.count", "count", x.n, "face", x.face)
}

// faceUse is in which melds a face scores under a table's rules: the
// catalogue keys of their kinds, or their names where the catalogue has
// none.
type faceUse struct {
	face  int
	kinds []string
}

// say is the use said with who as its subject ("2 2", "a 2").
func (u faceUse) say(c *lang.Catalogue, who string) string {
	if len(u.kinds) == 0 {
		return c.Msg("dice.keep.never", "who", who, "face", u.face)
	}
	words := make([]string, len(u.kinds))
	for i, k := range u.kinds {
		words[i] = k
		if strings.HasPrefix(k, "dice.") {
			words[i] = c.Msg(k)
		}
	}
	melds := words[0]
	if n := len(words); n > 1 {
		melds = c.Msg("dice.keep.list", "some", strings.Join(words[:n-1], ", "), "last", words[n-1])
	}
	return c.Msg("dice.keep.only", "who", who, "melds", melds)
}

// blamed is the use of the one face to blame, the dice kept of it its
// subject.
type blamed struct {
	dice Hand
	use  faceUse
}

func (b blamed) In(c *lang.Catalogue) string { return b.use.say(c, b.dice.String()) }

// faceUses are the uses of the faces to blame, each with "a 2" its
// subject.
type faceUses []faceUse

func (us faceUses) In(c *lang.Catalogue) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = u.say(c, c.Msg("dice.keep.aFace", "face", u.face))
	}
	return strings.Join(parts, "; ")
}

// meldKeys are the catalogue keys of the kinds of melds a face can be
// part of, by the names Melds gives.
var meldKeys = map[string]string{
	"three of a kind":           "dice.meld.three",
	"three or more of a kind":   "dice.meld.threeOrMore",
	"a straight":                "dice.meld.straight",
	"a small straight":          "dice.meld.smallStraight",
	"three pairs":               "dice.meld.threePairs",
	"four of a kind and a pair": "dice.meld.fourPair",
	"two triplets":              "dice.meld.twoTriplets",
}

// faceUse says in which melds face f can score: three of a kind, a
// straight...
func (t *Table) faceUse(f int) faceUse {
	var kinds []string
	seen := map[string]bool{}
	for _, m := range t.melds {
		if m.Hand.Count(f) == 0 {
			continue
		}
		k := meldKind(m)
		if k == "single" {
			continue
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	if seen["more of a kind"] {
		// "three of a kind" and "four of a kind"... read as one phrase.
		kinds = slices.DeleteFunc(kinds, func(k string) bool { return k == "more of a kind" })
		for i, k := range kinds {
			if k == "three of a kind" {
				kinds[i] = "three or more of a kind"
			}
		}
	}
	for i, k := range kinds {
		if key, ok := meldKeys[k]; ok {
			kinds[i] = key
		}
	}
	return faceUse{f, kinds}
}

func meldKind(m Meld) string {
	switch {
	case strings.HasPrefix(m.Name, "single"):
		return "single"
	case strings.HasPrefix(m.Name, "three ") && m.Name != "three pairs":
		return "three of a kind"
	case m.Hand.N() >= 4 && m.Hand == Single(firstFace(m.Hand), m.Hand.N()) && !strings.Contains(m.Name, "pair") && !strings.Contains(m.Name, "triplets"):
		return "more of a kind"
	}
	return m.Name
}

func firstFace(h Hand) int {
	for f := 1; f <= 6; f++ {
		if h.Count(f) > 0 {
			return f
		}
	}
	return 0
}
