package dragon

import (
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
)

// keyShown finds a catalogue key left in a text: a missing key is shown
// as it is.
var keyShown = regexp.MustCompile(`\b(dragon|card)\.[a-zA-Z.-]+`)

// Every event kind, in each of its forms, reads in Norwegian: a text, no
// key showing, not the English one, and numbers written the Norwegian way.
func TestDescribeNorwegian(t *testing.T) {
	g := testGame(t, DefaultCards())
	nb, en := lang.Get("nb"), lang.Get("en")
	if nb.Code != "nb" {
		t.Fatal("no Norwegian catalogue")
	}
	names := []string{"Ann", "Bo"}
	var events []Event
	for k := EvThrow; int(k) < len(eventNames); k++ {
		events = append(events, Event{Kind: k, Seat: 1, Target: 0, Winner: 1, Dice: h("115"), Face: Rally, N: 7, Total: 12000, Card: "sack", Reward: Double})
	}
	events = append(events,
		Event{Kind: EvThrow, Seat: 0, Dice: h("2"), Face: Dragon},
		Event{Kind: EvThrow, Seat: 0, Dice: h("2"), Face: Blank},
		Event{Kind: EvKeep, Seat: 0, Dice: h("1"), N: 50, Total: 4950, Battle: true},
		Event{Kind: EvKeep, Seat: 0, Dice: h("1")},
		Event{Kind: EvRally, Seat: 0, Reward: DrawItem},
		Event{Kind: EvItemDrawn, Seat: 0},
		Event{Kind: EvCardChanged, Seat: 0, Dice: h("12"), Face: Blank},
		Event{Kind: EvBrawl, Seat: 0, Target: 1, Winner: -1, N: 50, Other: 50},
		Event{Kind: EvWin, Seat: 0, Slain: true},
		Event{Kind: EvReshuffle, Card: string(Companion)},
		Event{Kind: EvReshuffle, Card: string(Item)},
		Event{Kind: EvHeal, N: 0},
	)
	for _, ending := range []BattleEnding{EndRetreat, EndNoWave, EndFarkle, EndUnpaid, ""} {
		events = append(events, Event{Kind: EvBattleEnd, Seat: 0, Ending: ending, N: 2, Total: 3000, Other: 100})
	}
	seen := map[string]bool{}
	for _, e := range events {
		s := g.DescribeIn(nb, names, e)
		if strings.TrimSpace(s) == "" || s == e.Kind.String() || keyShown.MatchString(s) {
			t.Errorf("%s: %q", e.Kind, s)
		}
		if s == g.DescribeIn(en, names, e) {
			t.Errorf("%s: %q is the English text", e.Kind, s)
		}
		if seen[s] {
			t.Errorf("%s: %q twice", e.Kind, s)
		}
		seen[s] = true
	}
	for _, c := range []struct {
		e        Event
		nb, enIn string
	}{
		{Event{Kind: EvKeep, Seat: 0, Dice: h("1"), N: 50, Total: 4950, Battle: true}, "Ann beholder 1 for 50 soldater (4\u00a0950 igjen)", "Ann keeps 1, costing 50 soldiers (4,950 left)"},
		{Event{Kind: EvHire, Seat: 0, N: 200, Total: 300, Card: "hask"}, "Ann betaler 200 soldater for å hyre Sersjant Hask (300 igjen)", "Ann pays 200 soldiers to hire Sergeant Hask (300 left)"},
		{Event{Kind: EvTurn, Seat: 1, Round: 3}, "runde 3: Bo sin tur", "round 3: Bo's turn"},
		{Event{Kind: EvItemDrawn, Seat: 0}, "Ann trekker en magisk gjenstand", "Ann draws a Magic Item"},
	} {
		if s := g.DescribeIn(nb, names, c.e); s != c.nb {
			t.Errorf("%s: %q, want %q", c.e.Kind, s, c.nb)
		}
		if s := g.DescribeIn(en, names, c.e); s != c.enIn {
			t.Errorf("%s in English: %q, want %q", c.e.Kind, s, c.enIn)
		}
	}
}

// The project's own cards are named in the catalogue's language; a card
// file's own card keeps its own words, even under a known id.
func TestCardNameIn(t *testing.T) {
	nb := lang.Get("nb")
	for _, c := range append(DefaultCards().Companions, DefaultCards().Items...) {
		if CardName(lang.Get("en"), c.ID, c.Name) != c.Name || plainNumbers(CardText(lang.Get("en"), c.ID, c.Text), ",") != c.Text {
			t.Errorf("%s: English is not the card file's (but for its numbers' separators)", c.ID)
		}
		if n := CardName(nb, c.ID, c.Name); n == c.Name || keyShown.MatchString(n) {
			t.Errorf("%s: Norwegian name %q", c.ID, n)
		}
		if x := CardText(nb, c.ID, c.Text); x == c.Text || keyShown.MatchString(x) {
			t.Errorf("%s: Norwegian text %q", c.ID, x)
		}
	}
	if n := CardName(nb, "pip", "Pip the Brave"); n != "Pip the Brave" {
		t.Errorf("a user's card is renamed: %q", n)
	}
	if n := CardName(nil, "pip", "Pip the Squire"); n != "Pip the Squire" {
		t.Errorf("nil catalogue: %q", n)
	}
}
