package dice_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// subHands returns every sub-multiset of h but the empty one.
func subHands(h dice.Hand) []dice.Hand {
	var out []dice.Hand
	var rec func(face int, acc dice.Hand)
	rec = func(face int, acc dice.Hand) {
		if face == 7 {
			if acc != 0 {
				out = append(out, acc)
			}
			return
		}
		for n := 0; n <= h.Count(face); n++ {
			rec(face+1, acc+dice.Single(face, n))
		}
	}
	rec(1, 0)
	return out
}

// englishWord is a word of the dice package's English reasons that
// Norwegian never writes.
var englishWord = regexp.MustCompile(`\b(scores?|only|never|part|kind|pairs|triplets|throw|keep|do not|the)\b`)

// TestKeepErrorSaidInEveryLanguage: every refusal of every keep of every
// throw, under every preset and the odd rule sets, is a text of the
// catalogue said in Norwegian without a key, a hole or an English word,
// and differs from the English; its English is Error's.
func TestKeepErrorSaidInEveryLanguage(t *testing.T) {
	en, nb := lang.Get("en"), lang.Get("nb")
	sets := oddRules(t)
	for _, name := range rules.Presets() {
		sets[name] = rules.MustPreset(name)
	}
	keys := map[string]int{}
	for name, r := range sets {
		tab := dice.NewTable(r)
		for _, throw := range dice.AllThrows() {
			if throw.N() > r.Dice {
				continue
			}
			// The keeps from the throw, an empty keep and one die it lacks.
			keeps := append(subHands(throw), 0)
			for f := 1; f <= 6; f++ {
				if throw.Count(f) == 0 {
					keeps = append(keeps, dice.Single(f, 1))
					break
				}
			}
			for _, keep := range keeps {
				var ke *dice.KeepError
				if !errors.As(tab.CheckKeep(throw, keep), &ke) {
					continue
				}
				keys[ke.Key]++
				english, norsk := ke.Say(en), ke.Say(nb)
				if ke.Error() != "dice: illegal keep: "+english || ke.Say(nil) != english {
					t.Fatalf("%s %v keep %v: Error %q is not the English %q", name, throw, keep, ke.Error(), english)
				}
				for _, s := range []string{english, norsk} {
					if strings.Contains(s, "dice.") || strings.ContainsAny(s, "{}") || strings.Contains(s, "()") {
						t.Fatalf("%s %v keep %v: a key or a hole shows: %q", name, throw, keep, s)
					}
				}
				if norsk == english || englishWord.MatchString(norsk) {
					t.Fatalf("%s %v keep %v: Norwegian %q reads as English (%q)", name, throw, keep, norsk, english)
				}
			}
		}
	}
	for _, k := range []string{"dice.keep.none", "dice.keep.notThrown", "dice.keep.bad", "dice.keep.bads"} {
		if keys[k] == 0 {
			t.Errorf("no refusal said %s (seen: %v)", k, keys)
		}
	}
}

// TestKeepErrorNorwegian: the refusals of TestCheckKeep in Norwegian,
// written out by hand.
func TestKeepErrorNorwegian(t *testing.T) {
	classic := dice.NewTable(rules.MustPreset("classic"))
	pf := dice.NewTable(rules.MustPreset("pocket-farkel"))
	nb := lang.Get("nb")
	for _, c := range []struct {
		tab         *dice.Table
		throw, keep string
		want        string
	}{
		{classic, "122345", "22", "2 2 teller bare i tre like"},
		{classic, "122345", "11", "kastet 1 2 2 3 4 5 har bare én 1-er"},
		{classic, "122345", "66", "kastet 1 2 2 3 4 5 har ingen 6-ere"},
		{classic, "122345", "", "behold minst én terning som gir poeng"},
		{pf, "123456", "23", "2 3 gir ikke poeng (en 2-er teller bare i tre eller flere like, en straight, tre par eller to ganger tre like; en 3-er teller bare i tre eller flere like, en straight, tre par eller to ganger tre like)"},
	} {
		throw := mustParse(t, c.throw)
		var keep dice.Hand
		if c.keep != "" {
			keep = mustParse(t, c.keep)
		}
		var ke *dice.KeepError
		if !errors.As(c.tab.CheckKeep(throw, keep), &ke) {
			t.Fatalf("%s keep %s: no refusal", c.throw, c.keep)
		}
		if got := ke.Say(nb); got != c.want {
			t.Errorf("%s keep %s:\n got %q\nwant %q", c.throw, c.keep, got, c.want)
		}
	}
}
