package server

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// TestLangOf: ?lang= names the page's language as a browser does (nb,
// nb-NO, no); anything else, a language with no catalogue, an empty or a
// long value, is English.
func TestLangOf(t *testing.T) {
	for q, want := range map[string]string{
		"lang=nb": "nb", "lang=nb-NO": "nb", "lang=no": "nb", "lang=en": "en", "lang=EN-gb": "en",
		"": "en", "lang=": "en", "lang=xx": "en", "lang=de": "en", "lang=nb%00": "en",
		"lang=" + strings.Repeat("n", 1<<12): "en", "lang=nb" + strings.Repeat("-x", 20): "en",
		"lang=" + url.QueryEscape("<script>"): "en",
	} {
		r := httptest.NewRequest("GET", "/ws/tables/x?"+q, nil)
		if got := langOf(r).Code; got != want {
			t.Errorf("?%.40s: %s, want %s", q, got, want)
		}
	}
}

// keepState plays a seeded game of classic rules until the first player
// to act has a throw to keep from.
func keepState(t *testing.T) engine.State {
	t.Helper()
	s, err := engine.New(rules.MustPreset("classic"), []string{"Ann", "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	src := dice.NewSource(dice.SeedFrom("localize"))
	for i := 0; i < 100; i++ {
		if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
			return s
		}
		legal := s.Legal()
		a := legal[len(legal)-1]
		if s.Phase != engine.PhasePlay {
			a = engine.RollOffBy(s.Actor())
		}
		if s, _, err = engine.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no keep in 100 actions")
	return s
}

// TestLocalizeHint: the hint's choices of a Norwegian page read in
// Norwegian, the dice named by their faces with the points of the keep and
// what follows it; an English page's texts are the advisor's, untouched.
func TestLocalizeHint(t *testing.T) {
	s := keepState(t)
	var keep engine.Action
	for _, a := range s.Legal() {
		if a.Kind == engine.Keep {
			keep = a
		}
	}
	pts, _ := s.Table().Points(keep.Dice)
	left := s.Throw.N() - keep.Dice.N()
	if left == 0 {
		left = 6
	}
	nb := lang.Get("nb")
	english := []string{
		fmt.Sprintf("keep %s (%d), then throw %d", keep.Dice, pts, left),
		fmt.Sprintf("keep %s (%d), then bank %d", keep.Dice, pts, s.Total+int(pts)),
		fmt.Sprintf("keep %s (%d)", keep.Dice, pts),
		"throw 6", "bank 0",
	}
	want := []string{
		fmt.Sprintf("behold %s (%s), så kast %d", keep.Dice, nb.Num(int64(pts)), left),
		fmt.Sprintf("behold %s (%s), så sett inn %s", keep.Dice, nb.Num(int64(pts)), nb.Num(int64(s.Total)+int64(pts))),
		fmt.Sprintf("behold %s (%s)", keep.Dice, nb.Num(int64(pts))),
		fmt.Sprintf("kast %d", s.ToThrow()), fmt.Sprintf("sett inn %d", s.Total),
	}
	actions := []engine.Action{keep, keep, keep, {Kind: engine.Throw}, {Kind: engine.Bank}}
	advice := func() *Advice {
		a := &Advice{Measure: "points"}
		for i, x := range actions {
			a.Choices = append(a.Choices, Choice{Action: x, Text: english[i]})
		}
		return a
	}
	en := advice()
	localize(lang.Get("en"), s, en)
	no := advice()
	localize(nb, s, no)
	for i := range actions {
		if en.Choices[i].Text != english[i] {
			t.Errorf("English: %q became %q", english[i], en.Choices[i].Text)
		}
		if no.Choices[i].Text != want[i] {
			t.Errorf("Norwegian: %q is %q, want %q", english[i], no.Choices[i].Text, want[i])
		}
	}
}
