package dragon

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/farkle/farkle/lang"
)

// number finds a number in a text, with the separators either language
// puts between its groups of three digits.
var number = regexp.MustCompile(`\d+(?:[,\x{a0}]\d{3})*`)

// TestCardTextNumbers: the default cards' texts, said in each language,
// write their numbers as the language writes numbers elsewhere (1,000 in
// English, 1 000 in Norwegian, as lang.Catalogue.Num), and are the
// catalogue's, not the card file's own (whose numbers have no separator).
func TestCardTextNumbers(t *testing.T) {
	cards := DefaultCards()
	big := 0
	for _, code := range []string{"en", "nb"} {
		c := lang.Get(code)
		for _, cd := range append(append([]Card{}, cards.Companions...), cards.Items...) {
			text := CardText(c, cd.ID, cd.Text)
			if text != c.Msg("card."+cd.ID+".text") {
				t.Errorf("%s %s: the card file's own text %q, not the catalogue's", code, cd.ID, text)
			}
			for _, n := range number.FindAllString(text, -1) {
				v, err := strconv.ParseInt(strings.NewReplacer(",", "", "\u00a0", "").Replace(n), 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				if want := c.Num(v); n != want {
					t.Errorf("%s %s: %q writes %s, the language writes %s", code, cd.ID, text, n, want)
				}
				if v >= 1000 {
					big++
				}
			}
		}
	}
	if big == 0 {
		t.Fatal("no card text has a number of four digits: the test checks nothing")
	}
	// English callers that pass no catalogue get the same.
	for _, cd := range cards.Items {
		if got, want := CardText(nil, cd.ID, cd.Text), CardText(lang.Get("en"), cd.ID, cd.Text); got != want {
			t.Errorf("%s: CardText(nil) %q, English %q", cd.ID, got, want)
		}
	}
}

// TestCardTextOwn: a card file whose text is not the catalogue's English
// keeps its own words, in every language.
func TestCardTextOwn(t *testing.T) {
	for _, own := range []string{"You lose 1000 fewer soldiers.", "While you hold it, you lose 1,000 fewer soldiers when you lose a Brawl."} {
		for _, code := range []string{"en", "nb"} {
			if got := CardText(lang.Get(code), "buckler", own); got != own {
				t.Errorf("%s: own text %q said as %q", code, own, got)
			}
		}
	}
}
