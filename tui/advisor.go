package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// Measures an Advice can be in.
const (
	WinProbability = "win probability" // Value is 0..1
	ExpectedPoints = "expected points" // Value is points
	PointsNow      = "points now"      // Value is the points a keep scores at once
)

// Choice is one thing the player to act can do: keep Keep (none for a
// plain throw or bank) and then Then (engine.Throw, engine.Bank, or 0 when
// the advisor values the keep alone), valued Value in the Advice's
// Measure. Note is an optional remark ("P(farkle) 0.33").
type Choice struct {
	Keep  dice.Hand
	Then  engine.Kind
	Value float64
	Note  string

	facts noteFacts // what Note says, for another language (noteIn)
}

// noteFacts are the numbers of a choice's note, so that it can be written
// in any language: the points the keep scores (0: not said), the turn total
// after it, the dice left (-1: not said), and for a throw its chance to
// farkle and the total it risks.
type noteFacts struct {
	kind    noteKind
	points  int
	total   int
	left    int
	pFarkle float64
}

type noteKind uint8

const (
	noteNone   noteKind = iota // Note as it is
	noteKeep                   // turn {total}, {left} dice left
	noteHot                    // turn {total}, hot dice
	noteBanks                  // banks the turn total
	noteThrow                  // {left} dice: P(farkle), risks {total}
	noteSolved                 // +{points}, turn {total}[, {left} dice left]
	noteTurn                   // turn {total}
)

// noteIn is the choice's note in the language of lc.
func (c Choice) noteIn(lc *lang.Catalogue) string {
	lc = orEnglish(lc)
	f := c.facts
	switch f.kind {
	case noteKeep:
		return lc.Msg("hint.note.keep", "total", f.total, "n", f.left)
	case noteHot:
		return lc.Msg("hint.note.hot", "total", f.total)
	case noteBanks:
		return lc.Msg("hint.note.banks")
	case noteThrow:
		return lc.Msg("hint.note.throw", "n", f.left, "p", lc.Dec(f.pFarkle, 2), "total", f.total)
	case noteSolved:
		if f.left > 0 {
			return lc.Msg("hint.note.solvedLeft", "points", f.points, "total", f.total, "n", f.left)
		}
		return lc.Msg("hint.note.solved", "points", f.points, "total", f.total)
	case noteTurn:
		return lc.Msg("hint.note.turn", "total", f.total)
	}
	return c.Note
}

// labelIn is Label in the language of lc.
func (c Choice) labelIn(lc *lang.Catalogue) string {
	lc = orEnglish(lc)
	then := func() string {
		if c.Then == engine.Bank {
			return lc.Msg("tui.btn.bank")
		}
		if c.Then == engine.Throw {
			return lc.Msg("tui.btn.throw")
		}
		return c.Then.String()
	}
	switch {
	case c.Keep == 0 && c.Then == 0:
		return lc.Msg("hint.nothing")
	case c.Keep == 0:
		return then()
	case c.Then == 0:
		return lc.Msg("hint.keep", "dice", c.Keep.String())
	}
	return lc.Msg("hint.keepThen", "dice", c.Keep.String(), "then", then())
}

// Label names the choice: "keep 1 5, throw", "keep 1 1 5", "bank".
func (c Choice) Label() string {
	switch {
	case c.Keep == 0 && c.Then == 0:
		return "nothing"
	case c.Keep == 0:
		return c.Then.String()
	case c.Then == 0:
		return "keep " + c.Keep.String()
	}
	return fmt.Sprintf("keep %s, %s", c.Keep, c.Then)
}

// Advice is the value of every choice in a position, best first, with an
// optional remark on the position or the values.
type Advice struct {
	Measure string
	Choices []Choice
	Note    string
}

// Format returns v in the advice's measure: "43.1%" or "512"; "-" for
// NaN (a choice the advisor does not value).
func (a Advice) Format(v float64) string { return a.formatIn(nil, v) }

// formatIn is Format in the language of c: "43,1 %", "1 250".
func (a Advice) formatIn(c *lang.Catalogue, v float64) string {
	c = orEnglish(c)
	if math.IsNaN(v) {
		return "-"
	}
	switch a.Measure {
	case WinProbability:
		return c.Pct(v, 1)
	case ExpectedPoints:
		return c.Dec(v, 1)
	}
	return c.Dec(v, 0)
}

// measureIn is the advice's measure in the language of c.
func (a Advice) measureIn(c *lang.Catalogue) string {
	c = orEnglish(c)
	switch a.Measure {
	case WinProbability:
		return c.Msg("hint.measure.win")
	case ExpectedPoints:
		return c.Msg("hint.measure.points")
	case PointsNow:
		return c.Msg("hint.measure.now")
	}
	return a.Measure
}

// noteIn is the advice's note in the language of c: the notes of package
// advise are English, and known ones are translated.
func (a Advice) noteIn(c *lang.Catalogue) string {
	c = orEnglish(c)
	if a.Note == "" {
		return ""
	}
	if k, ok := adviseNotes[a.Note]; ok {
		return c.Msg(k)
	}
	if why, ok := strings.CutPrefix(a.Note, "banking is not allowed: "); ok {
		return c.Msg("hint.note.noBank", "why", why)
	}
	var n int
	if _, err := fmt.Sscanf(a.Note, "six dice and nothing: +%d and throw six again", &n); err == nil {
		return c.Msg("hint.note.sixNothing", "points", n)
	}
	return a.Note
}

// adviseNotes are the keys of the notes package advise writes on a
// position.
var adviseNotes = map[string]string{
	"only a throw is allowed here":                                               "hint.note.onlyThrow",
	"farkle: the turn total is lost":                                             "hint.note.farkle",
	"more than two players: win probability against the strongest opponent only": "hint.note.many",
}

// Advisor values the choices of the player to act in a position.
type Advisor interface {
	Advise(s engine.State) (Advice, error)
}

// PointsAdvisor is the advisor used when no solver is at hand: after a
// throw it lists every keep with the points it scores now (most first),
// and before a throw it lists banking (the turn total) and throwing (with
// the exact chance to farkle). It looks no further than the next throw.
type PointsAdvisor struct{}

// Advise implements Advisor.
func (PointsAdvisor) Advise(s engine.State) (Advice, error) {
	adv := Advice{Measure: PointsNow}
	if s.Phase != engine.PhasePlay {
		return adv, fmt.Errorf("tui: no choice to advise on during a roll-off")
	}
	t := s.Table()
	switch s.Step {
	case engine.StepKeep:
		for _, k := range t.Keeps(s.Throw) {
			left := s.Left - int(k.N)
			facts := noteFacts{kind: noteKeep, total: s.Total + int(k.Points), left: left}
			if left == 0 && s.Rules().Turn.HotDice {
				facts.kind = noteHot
			}
			ch := Choice{Keep: k.Hand, Value: float64(k.Points), facts: facts}
			ch.Note = ch.noteIn(nil)
			adv.Choices = append(adv.Choices, ch)
		}
		slices.SortStableFunc(adv.Choices, func(a, b Choice) int {
			if a.Value != b.Value {
				if a.Value > b.Value {
					return -1
				}
				return 1
			}
			return a.Keep.N() - b.Keep.N() // fewer dice kept first: more to throw
		})
	default:
		if ok, _ := s.CanBank(); ok {
			ch := Choice{Then: engine.Bank, Value: float64(s.Total), facts: noteFacts{kind: noteBanks}}
			ch.Note = ch.noteIn(nil)
			adv.Choices = append(adv.Choices, ch)
		}
		if s.CanThrow() {
			n := s.ToThrow()
			ch := Choice{Then: engine.Throw, Value: math.NaN(),
				facts: noteFacts{kind: noteThrow, left: n, pFarkle: t.Odds(n).PFarkle(), total: s.Total}}
			ch.Note = ch.noteIn(nil)
			adv.Choices = append(adv.Choices, ch)
		}
	}
	return adv, nil
}
