package tui

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// The terminal game's texts are the catalogue's (package lang), under the
// keys tui.* (the table, line mode, the online client), hint.* (the hint
// panel), rules.* (the rules help) and setup.* (the setup screen). A nil
// catalogue is English everywhere in this package.

// orEnglish returns c, or English when c is nil.
func orEnglish(c *lang.Catalogue) *lang.Catalogue {
	if c == nil {
		return lang.Get(lang.Default)
	}
	return c
}

// youName is the name the setup screen gives the person at the first
// seat in the language of c: "you", "du". A player of that name is spoken
// to (describeIn).
func youName(c *lang.Catalogue) string { return orEnglish(c).Msg("tui.you") }

// youEvents are the engine's event texts with a form of their own for the
// player spoken to ("you throw", "your turn"): the catalogue's key
// tui.ev.NAME.you stands for ev.NAME when that player is the subject.
var youEvents = []string{"rolloff", "first", "turn", "throw", "sixNothing", "keep", "farkle", "farkleNothing",
	"penalty", "bank", "resignTotal", "resign", "overWins"}

var youCats sync.Map // *lang.Catalogue -> *lang.Catalogue

// youSwap maps each engine event text to its form for the player spoken to.
var youSwap = func() map[string]string {
	m := map[string]string{}
	for _, name := range youEvents {
		m["ev."+name] = "tui.ev." + name + ".you"
	}
	return m
}()

// youCatalogue returns c with the event texts of the player spoken to in
// place of the engine's (see youEvents).
func youCatalogue(c *lang.Catalogue) *lang.Catalogue { return withOwnForms(c, &youCats, youSwap) }

// withOwnForms returns a copy of c in which each key of swap reads c's
// text of swap[key], where c has one of its own (another language's
// grammar would be wrong there); the copies are kept in cache, one a
// catalogue.
func withOwnForms(c *lang.Catalogue, cache *sync.Map, swap map[string]string) *lang.Catalogue {
	if y, ok := cache.Load(c); ok {
		return y.(*lang.Catalogue)
	}
	y := *c // the same language, its fallback included
	y.Messages = make(map[string]string, len(c.Messages))
	for k, v := range c.Messages {
		y.Messages[k] = v
	}
	for k, own := range swap {
		if v, ok := c.Messages[own]; ok {
			y.Messages[k] = v
		}
	}
	cache.Store(c, &y)
	return &y
}

// describeIn is engine.Event.DescribeIn in the language of c, with the
// grammar of a player spoken to (the one called youName: "you throw 1 2
// 3", "your turn").
func describeIn(c *lang.Catalogue, e engine.Event, names []string) string {
	you := -1
	for i, n := range names {
		if strings.EqualFold(n, youName(orEnglish(c))) {
			you = i
		}
	}
	return describeTo(c, e, names, you)
}

// describeTo is describeIn with the player at seat you spoken to,
// whatever their name (at a server, this terminal's player: "you throw",
// not "kari throws"); -1 speaks to nobody.
func describeTo(c *lang.Catalogue, e engine.Event, names []string, you int) string {
	c = orEnglish(c)
	if you >= 0 && you < len(names) && spokenTo(e, you) {
		if y := youName(c); names[you] != y {
			names = slices.Clone(names)
			names[you] = y
		}
		return e.DescribeIn(youCatalogue(c), names)
	}
	return e.DescribeIn(c, names)
}

// teller says a game's events as this terminal's player reads them: at a
// server (online) its player, at seat you, is spoken to (describeTo), at
// this terminal the one called youName (describeIn); hot dice say how
// many dice are thrown again (the rules' dice, not always six).
type teller struct {
	names  []string
	you    int
	online bool
	dice   int
}

// teller is g's teller as things are now.
func (g *Game) teller() teller {
	t := teller{names: g.Names(), you: -1, online: g.online != nil, dice: g.Rules().Dice}
	if t.online {
		t.you = g.online.you
	}
	return t
}

// describe is the log line of e in the game g (teller).
func (g *Game) describe(c *lang.Catalogue, e engine.Event) string { return g.teller().say(c, e) }

// say is the log line of e in the language of c.
func (t teller) say(c *lang.Catalogue, e engine.Event) string {
	c = orEnglish(c)
	you := t.you
	if !t.online {
		you = -1
		for i, n := range t.names {
			if strings.EqualFold(n, youName(c)) {
				you = i
			}
		}
	}
	if e.Kind == engine.EvHotDice && e.Player >= 0 && e.Player < len(t.names) && t.dice > 0 {
		p := t.names[e.Player]
		if e.Player == you {
			p = youName(c)
		}
		return c.Msg("tui.ev.hot", "p", p, "n", t.dice)
	}
	return describeTo(c, e, t.names, you)
}

// spokenTo reports whether the player at seat you is the subject of e.
func spokenTo(e engine.Event, you int) bool {
	switch e.Kind {
	case engine.EvGameOver:
		return len(e.Players) == 1 && e.Players[0] == you
	case engine.EvRollOffTie, engine.EvTie, engine.EvTurnLimit:
		return false
	}
	return e.Player == you
}

// capital returns s with its first letter upper case.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
