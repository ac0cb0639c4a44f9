package dragon

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// TestRefusalsSaidInEveryLanguage plays games with bots and, at every
// decision, sends arbitrary actions from every seat: each refusal is a
// Refusal (the sentinel it wraps kept), whose text is in the catalogue in
// every language (no key shown, no value left out) and Norwegian is not
// the English. The refusals met must be many kinds, so that the probe
// reaches the game's checks.
func TestRefusalsSaidInEveryLanguage(t *testing.T) {
	en, nb := lang.Get("en"), lang.Get("nb")
	r := DefaultRules()
	r.HireCost = 500 // hiring on, so that its refusals come too
	cards := DefaultCards()
	g := MustGame(r, cards)
	brains := NewBrains(g)
	cardIDs := append(ids(cards.Companions), ids(cards.Items)...)
	cardIDs = append(cardIDs, "nonsense", "")
	probe := dice.NewSource(dice.SeedFrom("refusals"))
	seen := map[string]int{}
	for game := range 12 {
		src := dice.NewSource(GameSeed(dice.SeedFrom("refusals"), game))
		n := 2 + game%3
		names := []string{"Ann", "Bo", "Cy", "Di"}[:n]
		bots := make([]*Bot, n)
		for i := range bots {
			bots[i] = NewBot([]Level{Simple, Smart}[(game+i)%2], brains)
		}
		s, _, err := g.New(names, src)
		if err != nil {
			t.Fatal(err)
		}
		for !s.Over() && s.Round <= 40 {
			for seat := -1; seat <= n; seat++ {
				mine := g.LegalFor(s, seat)
				for range 8 {
					a := randomAction(probe, cardIDs)
					if slices.Contains(mine, a) {
						continue
					}
					checkRefusal(t, g.Check(s, seat, a), en, nb, seen)
				}
			}
			a := bots[s.ToAct()].Choose(g.View(s, s.ToAct()), src)
			if s, _, err = g.Apply(s, a, src); err != nil {
				t.Fatal(err)
			}
		}
		checkRefusal(t, refusalOf(g.Apply(s, Roll(), src)), en, nb, seen)
	}
	_, _, err := g.New([]string{"Ann"}, probe)
	checkRefusal(t, err, en, nb, seen)
	_, _, err = g.New([]string{"Ann", " "}, probe)
	checkRefusal(t, err, en, nb, seen)
	if len(seen) < 20 {
		t.Errorf("only %d kinds of refusal met: %v", len(seen), seen)
	}
	t.Logf("refusals met: %v", seen)
}

func refusalOf(_ State, _ []Event, err error) error { return err }

func checkRefusal(t *testing.T, err error, en, nb *lang.Catalogue, seen map[string]int) {
	t.Helper()
	if err == nil {
		t.Fatal("an action not listed as legal was accepted")
	}
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("refusal %q is not a Refusal", err)
	}
	if !slices.Contains([]error{ErrIllegal, ErrBadAction, ErrGameOver, ErrNotTurn, ErrPlayers}, r.Is) || !errors.Is(err, r.Is) {
		t.Fatalf("refusal %q wraps %v", err, r.Is)
	}
	seen[r.Key]++
	english, norsk := r.Say(en), r.Say(nb)
	if err.Error() != r.Is.Error()+": "+english {
		t.Errorf("Error() %q is not the English %q", err, english)
	}
	for _, text := range []string{english, norsk} {
		if strings.Contains(text, "dragon.err.") || strings.Contains(text, "{") || strings.Contains(text, "()") || strings.HasSuffix(text, " ") {
			t.Errorf("%s: a key or an empty value shows: %q", r.Key, text)
		}
	}
	if norsk == english {
		t.Errorf("%s: the Norwegian is the English: %q", r.Key, norsk)
	}
}
